package dev.mero.core.scope;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScopesTest {

    @Test
    void theSpecificationsExamples() {
        assertThat(Scopes.matches(List.of("orders:*:read"), "orders", "order", "read")).isTrue();
        assertThat(Scopes.matches(List.of("orders:order:read"), "orders", "order", "write")).isFalse();
    }

    @ParameterizedTest(name = "{0} grants {1}:{2}:{3} = {4}")
    @CsvSource({
            // namespace:*:* and its alias: every resource and action in the namespace
            "orders:*:*,        orders, order,    read,   true",
            "orders:*:*,        orders, invoice,  delete, true",
            "orders::,          orders, invoice,  delete, true",
            "orders:*:*,        billing, order,   read,   false",
            "orders::,          billing, order,   read,   false",
            // namespace:*:action: one action across every resource
            "orders:*:read,     orders, order,    read,   true",
            "orders:*:read,     orders, invoice,  read,   true",
            "orders:*:read,     orders, order,    write,  false",
            "orders:*:read,     billing, order,   read,   false",
            // namespace:resource:*: every action on one resource
            "orders:order:*,    orders, order,    read,   true",
            "orders:order:*,    orders, order,    delete, true",
            "orders:order:*,    orders, invoice,  read,   false",
            "orders:order:*,    billing, order,   read,   false",
            // namespace:resource:action: exactly one action on one resource
            "orders:order:read, orders, order,    read,   true",
            "orders:order:read, orders, order,    write,  false",
            "orders:order:read, orders, invoice,  read,   false",
            "orders:order:read, billing, order,   read,   false",
            // no prefix matching: a namespace or resource that merely starts the same is another one
            "orders:order:read, orders2, order,   read,   false",
            "orders:order:read, orders, orders,   read,   false",
            "orders:order:read, orders, order,    reader, false"
    })
    void theFourPatterns(String grant, String namespace, String resource, String action, boolean expected) {
        assertThat(Scopes.matches(List.of(grant), namespace, resource, action)).isEqualTo(expected);
    }

    @ParameterizedTest
    @CsvSource({
            "ORDERS:*:READ,     orders, order, read",
            "orders:*:read,     ORDERS, Order, READ",
            "Orders::,          orders, ORDER, Write",
            "orders:ORDER:*,    oRdErS, order, delete"
    })
    void matchesCaseInsensitively(String grant, String namespace, String resource, String action) {
        assertThat(Scopes.matches(List.of(grant), namespace, resource, action)).isTrue();
    }

    @Test
    void anyOfSeveralGrantsIsEnough() {
        List<String> granted = List.of("billing:*:read", "orders:order:write", "orders:*:read");

        assertThat(Scopes.matches(granted, "orders", "invoice", "read")).isTrue();
        assertThat(Scopes.matches(granted, "orders", "invoice", "write")).isFalse();
    }

    @Test
    void noGrantsGrantNothing() {
        assertThat(Scopes.matches(List.of(), "orders", "order", "read")).isFalse();
    }

    @Test
    void aMalformedGrantFailsTheWholeCallEvenWhenAnotherGrantMatches() {
        assertThatThrownBy(() -> Scopes.matches(List.of("orders:*:read", "orders:ord*:write"),
                "orders", "order", "read"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid scope 'orders:ord*:write': '*' must be a whole token, but the resource is "
                        + "'ord*'.");
    }

    @Test
    void aNullGrantFailsTheCall() {
        assertThatThrownBy(() -> Scopes.matches(Arrays.asList("orders:*:read", null), "orders", "order", "read"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid scope null: Write a scope as namespace:resource:action, e.g. "
                        + "'files:file:read'.");
    }

    @Test
    void aWildcardOrMalformedRequirementFailsTheCall() {
        assertThatThrownBy(() -> Scopes.matches(List.of("orders:*:*"), "orders", "*", "read"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid required scope 'orders:*:read': an operation requires one concrete "
                        + "namespace:resource:action, without '*'.");
        assertThatThrownBy(() -> Scopes.matches(List.of("orders:*:*"), "orders", "", "read"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid required scope 'orders::read': the resource is empty. Write a scope as "
                        + "namespace:resource:action, e.g. 'files:file:read'.");
    }
}
