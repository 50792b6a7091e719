package dev.mero.mcp;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which principal created each MCP session ({@code Mcp-Session-Id}) of the HTTP transport, so that no other
 * principal can use it, and how many sessions each principal holds. A session idle longer than the idle time is
 * forgotten (its id is then refused like an unknown one). Thread-safe.
 */
final class SessionOwners {

    private final int perPrincipal;
    private final Duration idle;
    private final Clock clock;
    /** In access order: the least recently used session first, so expiring stops at the first one in use. */
    private final Map<String, Owner> sessions = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, Integer> counts = new java.util.HashMap<>();

    private static final class Owner {
        final String principal;
        Instant used;

        Owner(String principal, Instant used) {
            this.principal = principal;
            this.used = used;
        }
    }

    SessionOwners(int perPrincipal, Duration idle, Clock clock) {
        this.perPrincipal = perPrincipal;
        this.idle = idle;
        this.clock = clock;
    }

    /** Tells whether {@code principal} may open another session. */
    synchronized boolean mayOpen(String principal) {
        expire();
        return counts.getOrDefault(principal, 0) < perPrincipal;
    }

    /** Records a session the principal has just opened. */
    synchronized void opened(String sessionId, String principal) {
        expire();
        if (sessions.putIfAbsent(sessionId, new Owner(principal, clock.instant())) == null) {
            counts.merge(principal, 1, Integer::sum);
        }
    }

    /** Tells whether the session exists and belongs to the principal; if so, marks it used. */
    synchronized boolean owns(String sessionId, String principal) {
        expire();
        Owner owner = sessions.get(sessionId);
        if (owner == null || !owner.principal.equals(principal)) {
            return false;
        }
        owner.used = clock.instant();
        return true;
    }

    /** Forgets a session (closed by its client). */
    synchronized void closed(String sessionId) {
        Owner owner = sessions.remove(sessionId);
        if (owner != null) {
            counts.computeIfPresent(owner.principal, (p, n) -> n <= 1 ? null : n - 1);
        }
    }

    private void expire() {
        Instant limit = clock.instant().minus(idle);
        for (Iterator<Map.Entry<String, Owner>> it = sessions.entrySet().iterator(); it.hasNext(); ) {
            Owner owner = it.next().getValue();
            if (!owner.used.isBefore(limit)) {
                return;
            }
            it.remove();
            counts.computeIfPresent(owner.principal, (p, n) -> n <= 1 ? null : n - 1);
        }
    }
}
