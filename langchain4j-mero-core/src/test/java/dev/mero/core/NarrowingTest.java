package dev.mero.core;

import dev.mero.core.guard.Operation;

import static dev.mero.core.Permission.DELETE;
import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.approval.ApprovalBackends;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimiter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A manager hands a worker a context that can only take away. */
class NarrowingTest {

    @TempDir
    Path tmp;

    Path ws;
    Path docs;
    SecurityContext manager;

    @BeforeEach
    void setUp() throws IOException {
        Path root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        docs = Files.createDirectories(root.resolve("docs"));
        Files.writeString(ws.resolve("a.txt"), "a");
        manager = SecurityContext.builder().name("manager")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE, EXECUTE, DELETE))
                .path(PathEntry.of(docs.toString(), "docs", READ))
                .permissions(READ, WRITE, EXECUTE, DELETE)
                .allowCommand("ls")
                .allowCommand("git status")
                .denyCommand("ls -R")
                .scopes("files:*:*", "commands:command:execute")
                .build();
    }

    @Test
    void anUnchangedChildIsAnExactCopy() {
        SecurityContext child = manager.narrow("worker").build();

        assertThat(child.name()).isEqualTo("worker");
        assertThat(child.paths()).extracting(PathEntry::slug).containsExactly("ws", "docs");
        assertThat(child.paths().get(0).allowed()).containsExactly(READ, WRITE, EXECUTE, DELETE);
        assertThat(child.commandPolicy().allowRules()).hasSize(2);
        assertThat(child.scopes()).isEqualTo(manager.scopes());
        assertThat(child.checkPathAccess("a.txt", DELETE).virtualPath()).isEqualTo("/ws/a.txt");
    }

    @Test
    void aChildCanTakeAwayEntriesPermissionsCommandsAndScopes() {
        SecurityContext child = manager.narrow("worker")
                .paths("docs")
                .permissions(READ)
                .allowCommands("git status")
                .denyCommand("git status --porcelain")
                .scopes("files:file:read")
                .build();

        assertThat(child.paths()).extracting(PathEntry::slug).containsExactly("docs");
        assertThatThrownBy(() -> child.checkPath("/ws/a.txt")).isInstanceOf(PathAccessDeniedException.class);
        assertThat(child.commandPolicy().allowRules()).extracting(r -> r.text()).containsExactly("git status");
        assertThat(child.commandPolicy().denyRules()).extracting(r -> r.text())
                .containsExactly("ls -R", "git status --porcelain");
        assertThatThrownBy(() -> child.checkScope(Operation.DIRECTORY_LIST)).isInstanceOf(ScopeDeniedException.class);
        // the parent is untouched
        assertThat(manager.checkPathAccess("/ws/a.txt", DELETE).slug()).isEqualTo("ws");
    }

    @Test
    void anEntryCanBeMadeNarrowerWithMoreDeniesAndApprovals() {
        SecurityContext child = manager.narrow("worker")
                .allow("ws", READ, WRITE)
                .deny("ws", WRITE)
                .requireApproval("docs", READ)
                .build();

        assertThatThrownBy(() -> child.checkPathAccess("a.txt", DELETE))
                .isInstanceOf(PermissionDeniedException.class)
                .hasMessage("'/ws' in context 'worker' lacks permission(s) ['DELETE'] for 'a.txt' "
                        + "(allows: ['READ', 'WRITE']).");
        assertThatThrownBy(() -> child.checkPathAccess("a.txt", WRITE))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessage("Path 'a.txt' is denied permission(s) ['WRITE'] by '/ws' in context 'worker'.");
        assertThatThrownBy(() -> child.guard(Operation.FILE_READ, "/docs"))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'READ: /docs' requires approval for ['READ'] but no approval backend is "
                        + "configured (fail-safe deny).");
    }

    @Test
    void wideningAnEntryFailsAtBuild() {
        NarrowingBuilder widen = manager.narrow("worker").allow("docs", READ, WRITE);

        assertThatThrownBy(widen::build)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot widen context 'manager' into 'worker': entry '/docs' allows ['READ'] in the "
                        + "parent; ['WRITE'] cannot be added. A narrowed context can only take away.");
    }

    @Test
    void wideningTheCeilingScopesCommandsOrEntriesFails() {
        SecurityContext readOnly = manager.narrow("ro").permissions(READ).build();

        assertThatThrownBy(() -> readOnly.narrow("rw").permissions(READ, WRITE).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot widen context 'ro' into 'rw': the ceiling has ['READ'] in the parent; "
                        + "['WRITE'] cannot be added. A narrowed context can only take away.");
        assertThatThrownBy(() -> readOnly.narrow("x").scopes("files:*:*", "admin:*:*").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("scope 'admin:*:*' is not included in any of the parent's grants");
        assertThatThrownBy(() -> manager.narrow("x").allowCommands("git push").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("allow rule 'git push' is not one of the parent's allow rules");
        assertThatThrownBy(() -> manager.narrow("x").paths("ws", "etc").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot narrow context 'manager' into 'x': it has no entry '/etc' (entries: '/ws', "
                        + "'/docs')");
    }

    @Test
    void aChildCannotRaiseTheRateLimitAndCountsAgainstItsParent() {
        AtomicLong nanos = new AtomicLong();
        SecurityContext limited = SecurityContext.builder().name("manager")
                .path(PathEntry.of(ws.toString(), "ws", READ))
                .rateLimiter(RateLimiter.of(RateLimit.perMinute(3), nanos::get))
                .build();

        assertThatThrownBy(() -> limited.narrow("w").rateLimit(RateLimit.perMinute(10)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exceeds the parent's");
        SecurityContext worker = limited.narrow("w").rateLimit(RateLimit.perMinute(2)).build();
        worker.guard(Operation.FILE_READ, "a.txt");
        worker.guard(Operation.FILE_READ, "a.txt");
        assertThatThrownBy(() -> worker.guard(Operation.FILE_READ, "a.txt")).isInstanceOf(RateLimitedException.class);
        limited.guard(Operation.FILE_READ, "a.txt");
        assertThatThrownBy(() -> limited.guard(Operation.FILE_READ, "a.txt"))
                .as("the worker's two calls used the manager's budget too")
                .isInstanceOf(RateLimitedException.class);
    }

    @Test
    void theChildSharesTheParentsApprovalBackend() {
        SecurityContext parent = SecurityContext.builder().name("p")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE))
                .approval(ApprovalBackends.alwaysDeny()).build();

        SecurityContext child = parent.narrow("c").requireApproval(WRITE).build();

        assertThat(child.approvalRequired()).containsExactly(WRITE);
        assertThatThrownBy(() -> child.guard(Operation.FILE_WRITE, "a.txt"))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: /ws/a.txt' was not approved for context 'c'.");
    }
}
