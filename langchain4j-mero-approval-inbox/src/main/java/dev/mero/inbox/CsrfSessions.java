package dev.mero.inbox;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The inbox's own browser sessions, each with one CSRF token: a session is named by a random cookie
 * ({@code HttpOnly}, {@code SameSite=Strict}), and a form post is accepted only when it carries the token of
 * the session its cookie names. Kept apart from the container's sessions so that the page works the same in
 * any container. Bounded: at most {@value #MAX_SESSIONS} sessions of at most {@link #LIFETIME} each; the
 * oldest make room. Thread-safe.
 */
final class CsrfSessions {

    static final String COOKIE = "mero_inbox";
    static final Duration LIFETIME = Duration.ofHours(12);
    static final int MAX_SESSIONS = 1000;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private final Clock clock;

    CsrfSessions(Clock clock) {
        this.clock = clock;
    }

    /** A session and its token. */
    record Session(String id, String token, Instant expiresAt) {
    }

    /**
     * The live session a cookie names, if any.
     *
     * @param cookie the cookie's value, may be {@code null}
     * @return the session, or {@code null}
     */
    Session find(String cookie) {
        if (cookie == null) {
            return null;
        }
        Session session = sessions.get(cookie);
        if (session == null) {
            return null;
        }
        if (!clock.instant().isBefore(session.expiresAt())) {
            sessions.remove(cookie, session);
            return null;
        }
        return session;
    }

    /** Starts a new session. */
    Session start() {
        Instant now = clock.instant();
        synchronized (sessions) {
            sessions.values().removeIf(session -> !now.isBefore(session.expiresAt()));
            while (sessions.size() >= MAX_SESSIONS) {
                sessions.values().stream().min((a, b) -> a.expiresAt().compareTo(b.expiresAt()))
                        .ifPresent(oldest -> sessions.remove(oldest.id()));
            }
            Session session = new Session(random(), random(), now.plus(LIFETIME));
            sessions.put(session.id(), session);
            return session;
        }
    }

    /**
     * Whether a posted token is the session's, compared in constant time.
     *
     * @param session the session the cookie names, may be {@code null}
     * @param token   the posted token, may be {@code null}
     * @return whether both are present and equal
     */
    static boolean matches(Session session, String token) {
        return session != null && token != null && MessageDigest.isEqual(
                session.token().getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    private static String random() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
