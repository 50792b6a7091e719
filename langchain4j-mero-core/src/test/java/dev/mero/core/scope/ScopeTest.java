package dev.mero.core.scope;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScopeTest {

    private static final String EXAMPLE = " Write a scope as namespace:resource:action, e.g. 'files:file:read'.";

    @ParameterizedTest
    @CsvSource({
            "files:file:read,    files, file, read",
            "files:*:read,       files, *,    read",
            "files:file:*,       files, file, *",
            "files:*:*,          files, *,    *",
            "files::,            files, *,    *",
            "FILES:File:READ,    files, file, read",
            "my-ns.v2:dir_x:list, my-ns.v2, dir_x, list"
    })
    void parsesTheFourPatternsTheAliasAndMixedCase(String text, String namespace, String resource, String action) {
        Scope scope = Scope.parse(text);

        assertThat(scope.namespace()).isEqualTo(namespace);
        assertThat(scope.resource()).isEqualTo(resource);
        assertThat(scope.action()).isEqualTo(action);
        assertThat(scope).hasToString(namespace + ":" + resource + ":" + action);
    }

    @Test
    void theAliasEqualsTheExplicitWildcardForm() {
        assertThat(Scope.parse("orders::")).isEqualTo(Scope.parse("orders:*:*"))
                .hasSameHashCodeAs(Scope.parse("ORDERS:*:*"));
    }

    static Stream<Arguments> malformedGrants() {
        return Stream.of(
                Arguments.of("files:file", "Invalid scope 'files:file': expected 3 colon-separated tokens "
                        + "(namespace:resource:action), found 2." + EXAMPLE),
                Arguments.of("a:b:c:d", "Invalid scope 'a:b:c:d': expected 3 colon-separated tokens "
                        + "(namespace:resource:action), found 4." + EXAMPLE),
                Arguments.of("", "Invalid scope '': expected 3 colon-separated tokens "
                        + "(namespace:resource:action), found 1." + EXAMPLE),
                Arguments.of("files::read", "Invalid scope 'files::read': the resource is empty." + EXAMPLE),
                Arguments.of("files:file:", "Invalid scope 'files:file:': the action is empty." + EXAMPLE),
                Arguments.of(":file:read", "Invalid scope ':file:read': the namespace is empty." + EXAMPLE),
                Arguments.of("::", "Invalid scope '::': the namespace is empty." + EXAMPLE),
                Arguments.of("files:fi*:read", "Invalid scope 'files:fi*:read': '*' must be a whole token, but the "
                        + "resource is 'fi*'."),
                Arguments.of("files:file:re*d", "Invalid scope 'files:file:re*d': '*' must be a whole token, but "
                        + "the action is 're*d'."),
                Arguments.of("*:file:read", "Invalid scope '*:file:read': the namespace cannot be '*'; grant each "
                        + "namespace explicitly."),
                Arguments.of("*::", "Invalid scope '*::': the namespace cannot be '*'; grant each namespace "
                        + "explicitly."),
                Arguments.of("files:file:read ", "Invalid scope 'files:file:read ': the action contains ' ' "
                        + "(U+0020); use only letters a-z, digits, '_', '.' and '-'."),
                Arguments.of(" files:file:read", "Invalid scope ' files:file:read': the namespace contains ' ' "
                        + "(U+0020); use only letters a-z, digits, '_', '.' and '-'."),
                Arguments.of("files:fi\nle:read", "Invalid scope 'files:fi\\nle:read': the resource contains "
                        + "'\\n' (U+000A); use only letters a-z, digits, '_', '.' and '-'."),
                Arguments.of("files:file:read\u202e", "Invalid scope 'files:file:read\\u202e': the action "
                        + "contains '\\u202e' (U+202E); use only letters a-z, digits, '_', '.' and '-'."),
                Arguments.of("files:\u212Aey:read", "Invalid scope 'files:\u212Aey:read': the resource contains "
                        + "'\u212A' (U+212A); use only letters a-z, digits, '_', '.' and '-'."),
                Arguments.of("files:f/ile:read", "Invalid scope 'files:f/ile:read': the resource contains '/' "
                        + "(U+002F); use only letters a-z, digits, '_', '.' and '-'."),
                Arguments.of(null, "Invalid scope null:" + EXAMPLE),
                Arguments.of("a:b:" + "c".repeat(200), "Invalid scope of 204 characters: a scope has at most 128 "
                        + "characters."));
    }

    @ParameterizedTest
    @MethodSource("malformedGrants")
    void rejectsMalformedGrantsNamingThem(String grant, String message) {
        assertThatThrownBy(() -> Scope.parse(grant))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void acceptsAGrantOfExactlyTheMaximumLength() {
        String grant = "a:b:" + "c".repeat(Scope.MAX_LENGTH - 4);

        assertThat(Scope.parse(grant).action()).hasSize(Scope.MAX_LENGTH - 4);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "files:*:read  | Invalid required scope 'files:*:read': an operation requires one concrete "
                    + "namespace:resource:action, without '*'.",
            "files:file:*  | Invalid required scope 'files:file:*': an operation requires one concrete "
                    + "namespace:resource:action, without '*'.",
            "files::       | Invalid required scope 'files::': the resource is empty." + EXAMPLE,
            "*:file:read   | Invalid required scope '*:file:read': the namespace cannot be '*'; grant each "
                    + "namespace explicitly."
    })
    void aRequiredScopeIsConcrete(String required, String message) {
        assertThatThrownBy(() -> Scope.required(required))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void ofBuildsAConcreteScopeAndRejectsAColonInsideAPart() {
        assertThat(Scope.of("Files", "FILE", "read")).isEqualTo(Scope.required("files:file:read"));
        assertThat(Scope.of("files", "file", "read").isConcrete()).isTrue();

        assertThatThrownBy(() -> Scope.of("files:x", "file", "read"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid required scope 'files:x:file:read': expected 3 colon-separated tokens "
                        + "(namespace:resource:action), found 4." + EXAMPLE);
        assertThatThrownBy(() -> Scope.of("files", "*", "read"))
                .hasMessage("Invalid required scope 'files:*:read': an operation requires one concrete "
                        + "namespace:resource:action, without '*'.");
    }

    @Test
    void coversRefusesAWildcardRequirement() {
        Scope grant = Scope.parse("files:*:*");

        assertThatThrownBy(() -> grant.covers(Scope.parse("files:*:read")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid required scope 'files:*:read': an operation requires one concrete "
                        + "namespace:resource:action, without '*'.");
    }

    @Test
    void isConcreteOnlyWithoutWildcards() {
        assertThat(Scope.parse("files:file:read").isConcrete()).isTrue();
        assertThat(Scope.parse("files:*:read").isConcrete()).isFalse();
        assertThat(Scope.parse("files:file:*").isConcrete()).isFalse();
        assertThat(Scope.parse("files::").isConcrete()).isFalse();
    }

    @ParameterizedTest
    @CsvSource({
        "files:*:*,      files:file:read, true",
        "files:*:*,      files:*:*,       true",
        "files:*:read,   files:file:read, true",
        "files:*:read,   files:*:read,    true",
        "files:*:read,   files:*:*,       false",
        "files:*:read,   files:file:write, false",
        "files:file:*,   files:file:read, true",
        "files:file:*,   files:dir:read,  false",
        "files:file:*,   files:*:read,    false",
        "files:file:read, files:file:read, true",
        "files:file:read, files:file:write, false",
        "files:*:*,      orders:*:*,      false"
    })
    void aGrantIncludesOnlyGrantsThatAreTheSameOrNarrower(String grant, String other, boolean included) {
        assertThat(Scope.parse(grant).includes(Scope.parse(other))).isEqualTo(included);
    }

    @Test
    void scopesAreEqualOnlyWhenEveryPartIs() {
        Scope scope = Scope.parse("files:file:read");

        assertThat(scope).isEqualTo(Scope.parse("FILES:File:READ"))
                .isNotEqualTo(Scope.parse("orders:file:read"))
                .isNotEqualTo(Scope.parse("files:dir:read"))
                .isNotEqualTo(Scope.parse("files:file:write"))
                .isNotEqualTo("files:file:read");
    }
}
