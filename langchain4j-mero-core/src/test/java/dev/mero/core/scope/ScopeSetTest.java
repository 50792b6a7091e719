package dev.mero.core.scope;

import dev.mero.core.guard.Operation;
import dev.mero.core.MeroToolsException;
import dev.mero.core.ScopeDeniedException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScopeSetTest {

    @Test
    void checkPassesWhenAGrantCoversTheOperation() {
        ScopeSet scopes = ScopeSet.of("files:*:read", "files:directory:list");

        assertThatCode(() -> scopes.check("worker_1", Operation.FILE_READ.scope())).doesNotThrowAnyException();
        assertThatCode(() -> scopes.check("worker_1", Operation.DIRECTORY_LIST.scope())).doesNotThrowAnyException();
    }

    @Test
    void checkThrowsScopeDeniedWithTheSpecifiedMessage() {
        ScopeSet scopes = ScopeSet.of("FILES:*:read", "files:directory:list", "files:*:READ");

        assertThatThrownBy(() -> scopes.check("worker_1", Operation.FILE_WRITE.scope()))
                .isInstanceOf(ScopeDeniedException.class)
                .isInstanceOf(MeroToolsException.class)
                .hasMessage("Context 'worker_1' lacks scope 'files:file:write' (has: ['files:*:read', "
                        + "'files:directory:list']). Ask for a caller with that scope or use an operation your "
                        + "scopes allow.")
                .satisfies(denied -> {
                    ScopeDeniedException scopeDenied = (ScopeDeniedException) denied;
                    assertThat(scopeDenied.errorCode()).isEqualTo("scope_denied");
                    assertThat(scopeDenied.isDenial()).isTrue();
                    assertThat(scopeDenied.toModelText()).startsWith("Denied: Context 'worker_1' lacks scope");
                });
    }

    @Test
    void configuredButEmptyDeniesEverything() {
        ScopeSet none = ScopeSet.of();

        assertThat(none.isRestricted()).isTrue();
        for (Operation operation : Operation.values()) {
            assertThat(none.permits(operation.scope())).as(operation.name()).isFalse();
        }
        assertThatThrownBy(() -> none.check("ci", Operation.COMMAND_EXECUTE.scope()))
                .isInstanceOf(ScopeDeniedException.class)
                .hasMessage("Context 'ci' lacks scope 'commands:command:execute' (has: []). Ask for a caller with "
                        + "that scope or use an operation your scopes allow.");
    }

    @Test
    void unrestrictedDoesNotEnforceScopesButStillValidatesTheRequirement() {
        ScopeSet unrestricted = ScopeSet.unrestricted();

        assertThat(unrestricted.isRestricted()).isFalse();
        assertThat(unrestricted.grants()).isEmpty();
        assertThat(unrestricted.permits("anything", "at", "all")).isTrue();
        assertThatThrownBy(() -> unrestricted.permits(Scope.parse("files:*:read")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid required scope 'files:*:read': an operation requires one concrete "
                        + "namespace:resource:action, without '*'.");
        assertThat(unrestricted).hasToString("ScopeSet{unrestricted}").isNotEqualTo(ScopeSet.of());
    }

    @Test
    void grantsAreNormalisedDeduplicatedAndKeptInOrder() {
        ScopeSet scopes = ScopeSet.of(List.of("Files::", "commands:command:EXECUTE", "files:*:*"));

        assertThat(scopes.grants()).extracting(Scope::toString)
                .containsExactly("files:*:*", "commands:command:execute");
        assertThat(scopes).hasToString("ScopeSet[files:*:*, commands:command:execute]")
                .isEqualTo(ScopeSet.of("files:*:*", "commands:command:execute"));
        assertThatThrownBy(() -> scopes.grants().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aMalformedGrantIsRejectedWhenTheSetIsBuilt() {
        assertThatThrownBy(() -> ScopeSet.of("files:file:read", "files:file"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid scope 'files:file': expected 3 colon-separated tokens "
                        + "(namespace:resource:action), found 2. Write a scope as namespace:resource:action, e.g. "
                        + "'files:file:read'.");
    }

    @Test
    void theMissingScopeMessageEscapesAHostileContextName() {
        assertThat(ScopeDeniedException.missing("a'b\nc", "files:file:read", List.of()).getMessage())
                .isEqualTo("Context 'a\\'b\\nc' lacks scope 'files:file:read' (has: []). Ask for a caller with "
                        + "that scope or use an operation your scopes allow.");
    }
}
