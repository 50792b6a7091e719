package dev.mero.core.scope;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

class ScopePropertiesTest {

    @Property(seed = "20261201")
    void aNamespaceWildcardCoversEverythingInItsNamespace(@ForAll("tokens") String namespace,
                                                          @ForAll("tokens") String resource,
                                                          @ForAll("tokens") String action) {
        assertThat(Scopes.matches(List.of(namespace + ":*:*"), namespace, resource, action)).isTrue();
        assertThat(Scopes.matches(List.of(namespace + "::"), namespace, resource, action)).isTrue();
    }

    @Property(seed = "20261201")
    void anExactGrantMatchesOnlyItself(@ForAll("tokens") String namespace, @ForAll("tokens") String resource,
                                       @ForAll("tokens") String action, @ForAll("tokens") String otherNamespace,
                                       @ForAll("tokens") String otherResource, @ForAll("tokens") String otherAction) {
        List<String> grant = List.of(namespace + ":" + resource + ":" + action);
        boolean same = namespace.equalsIgnoreCase(otherNamespace) && resource.equalsIgnoreCase(otherResource)
                && action.equalsIgnoreCase(otherAction);

        assertThat(Scopes.matches(grant, otherNamespace, otherResource, otherAction)).isEqualTo(same);
        assertThat(Scopes.matches(grant, namespace.toUpperCase(Locale.ROOT), resource, action)).isTrue();
    }

    @Property(seed = "20261201")
    void noGrantReachesIntoAnotherNamespace(@ForAll("tokens") String namespace,
                                            @ForAll("tokens") String otherNamespace,
                                            @ForAll("tokens") String resource, @ForAll("tokens") String action) {
        Assume.that(!namespace.equalsIgnoreCase(otherNamespace));
        List<String> everything = List.of(namespace + ":*:*", namespace + ":*:" + action,
                namespace + ":" + resource + ":*", namespace + ":" + resource + ":" + action);

        assertThat(Scopes.matches(everything, otherNamespace, resource, action)).isFalse();
    }

    @Property(seed = "20261201")
    void parsingIsStableUnderPrintingIt(@ForAll("grants") String grant) {
        Scope scope = Scope.parse(grant);

        assertThat(Scope.parse(scope.toString())).isEqualTo(scope);
        assertThat(scope.toString()).isEqualTo(scope.toString().toLowerCase(Locale.ROOT));
    }

    @Provide
    Arbitrary<String> tokens() {
        return Arbitraries.strings().withChars("abcXYZ019_.-").ofMinLength(1).ofMaxLength(6);
    }

    @Provide
    Arbitrary<String> grants() {
        Arbitrary<String> part = Arbitraries.oneOf(tokens(), Arbitraries.just("*"));
        return Combinators.combine(tokens(), part, part)
                .as((namespace, resource, action) -> namespace + ":" + resource + ":" + action);
    }
}
