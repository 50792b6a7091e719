package dev.mero.core.scope;

import java.util.Collection;

/**
 * The scope check as one call, for callers that hold grants as plain strings (an API key's or a JWT's
 * claims): {@code Scopes.matches(List.of("orders:*:read"), "orders", "order", "read")} is {@code true}.
 *
 * <p>Every grant is validated on each call and a malformed one fails the whole call (fail closed) instead of
 * being skipped. To check many calls against the same grants, parse them once with {@link ScopeSet#of}.
 */
public final class Scopes {

    private Scopes() {
    }

    /**
     * Tells whether any grant covers {@code namespace:resource:action}, case-insensitively. A grant covers it
     * in one of four patterns: {@code namespace:*:*} (alias {@code namespace::}), {@code namespace:*:action},
     * {@code namespace:resource:*} and {@code namespace:resource:action}.
     *
     * @param granted   the caller's grants; empty grants nothing
     * @param namespace the required namespace, e.g. {@code orders}
     * @param resource  the required resource, e.g. {@code order}
     * @param action    the required action, e.g. {@code read}
     * @return {@code true} if a grant covers the required scope
     * @throws IllegalArgumentException if a grant is malformed or {@code null}, or a required part is malformed
     *                                  or {@code *}
     */
    public static boolean matches(Collection<String> granted, String namespace, String resource, String action) {
        Scope required = Scope.of(namespace, resource, action);
        return ScopeSet.of(granted).permits(required);
    }
}
