package dev.mero.core.scope;

import dev.mero.core.ScopeDeniedException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The scopes a context was granted, parsed and validated once when the context is configured.
 *
 * <pre>{@code
 * ScopeSet scopes = ScopeSet.of("files:*:read", "files:directory:list");
 * scopes.check("worker_1", Operation.FILE_READ.scope());    // passes
 * scopes.check("worker_1", Operation.FILE_WRITE.scope());   // throws ScopeDeniedException
 * }</pre>
 *
 * <p>Two states matter and are kept apart on purpose: {@link #unrestricted()} is a context without scopes
 * configured, where scopes are not enforced at all; {@code ScopeSet.of()} is a context with scopes configured
 * but none granted, which denies every operation. Grants are never expanded at runtime.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ScopeSet {

    private static final ScopeSet UNRESTRICTED = new ScopeSet(Set.of(), false);

    private final Set<Scope> grants;
    private final boolean restricted;

    private ScopeSet(Set<Scope> grants, boolean restricted) {
        this.grants = grants;
        this.restricted = restricted;
    }

    /**
     * Parses a context's grants; with none, the set denies every operation.
     *
     * @param grants the grants, e.g. {@code files:*:read}; see {@link Scope} for the syntax
     * @return the set, in the given order without duplicates
     * @throws IllegalArgumentException if a grant is malformed; the message names it
     */
    public static ScopeSet of(String... grants) {
        return of(Arrays.asList(Objects.requireNonNull(grants, "grants")));
    }

    /**
     * Parses a context's grants; with none, the set denies every operation.
     *
     * @param grants the grants, e.g. {@code files:*:read}; see {@link Scope} for the syntax
     * @return the set, in iteration order without duplicates
     * @throws IllegalArgumentException if a grant is malformed (or {@code null}); the message names it
     */
    public static ScopeSet of(Collection<String> grants) {
        Objects.requireNonNull(grants, "grants");
        Set<Scope> parsed = new LinkedHashSet<>();
        // iterate rather than stream: List.of(...) rejects nulls with an NPE that does not say which grant
        for (String grant : new ArrayList<>(grants)) {
            parsed.add(Scope.parse(grant));
        }
        return new ScopeSet(Collections.unmodifiableSet(parsed), true);
    }

    /**
     * The set of a context without scopes configured: scopes are not enforced and every operation passes
     * this check (the context's other checks still apply).
     *
     * @return the shared unrestricted set
     */
    public static ScopeSet unrestricted() {
        return UNRESTRICTED;
    }

    /**
     * Tells whether scopes are enforced, i.e. whether this set came from {@link #of(String...)}.
     *
     * @return {@code false} only for {@link #unrestricted()}
     */
    public boolean isRestricted() {
        return restricted;
    }

    /**
     * The parsed grants, normalised to lower case, in configuration order.
     *
     * @return an immutable set, empty for {@link #unrestricted()}
     */
    public Set<Scope> grants() {
        return grants;
    }

    /**
     * Tells whether an operation that requires the given scope may run.
     *
     * @param required a concrete scope
     * @return {@code true} if unrestricted or if a grant covers it
     * @throws IllegalArgumentException if {@code required} contains {@code *}
     */
    public boolean permits(Scope required) {
        Scope.requireConcrete(required);
        if (!restricted) {
            return true;
        }
        for (Scope grant : grants) {
            if (grant.covers(required)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Tells whether an operation that requires {@code namespace:resource:action} may run.
     *
     * @param namespace the required namespace
     * @param resource  the required resource
     * @param action    the required action
     * @return {@code true} if unrestricted or if a grant covers it
     * @throws IllegalArgumentException if a part is malformed or {@code *}
     */
    public boolean permits(String namespace, String resource, String action) {
        return permits(Scope.of(namespace, resource, action));
    }

    /**
     * Checks that an operation requiring the given scope may run in the named context; call it before the
     * operation does anything.
     *
     * @param contextName the context's name, used in the message
     * @param required    a concrete scope
     * @throws ScopeDeniedException     if scopes are enforced and no grant covers {@code required}
     * @throws IllegalArgumentException if {@code required} contains {@code *}
     */
    public void check(String contextName, Scope required) {
        if (!permits(required)) {
            throw ScopeDeniedException.missing(contextName, required.toString(),
                    grants.stream().map(Scope::toString).toList());
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScopeSet that && restricted == that.restricted && grants.equals(that.grants);
    }

    @Override
    public int hashCode() {
        return Objects.hash(grants, restricted);
    }

    @Override
    public String toString() {
        return restricted ? "ScopeSet" + grants : "ScopeSet{unrestricted}";
    }
}
