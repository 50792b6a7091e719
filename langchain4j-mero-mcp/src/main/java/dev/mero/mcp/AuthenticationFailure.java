package dev.mero.mcp;

/**
 * A credential the HTTP transport does not accept: missing, malformed, badly signed, expired, revoked. The message
 * is for the caller (it names the problem, never a key or a token); {@link #presented()} tells whether a
 * credential was there at all, which decides the {@code WWW-Authenticate} error.
 */
final class AuthenticationFailure extends Exception {

    private static final long serialVersionUID = 1L;

    private final boolean presented;

    AuthenticationFailure(String message, boolean presented) {
        super(message, null, false, false);
        this.presented = presented;
    }

    boolean presented() {
        return presented;
    }
}
