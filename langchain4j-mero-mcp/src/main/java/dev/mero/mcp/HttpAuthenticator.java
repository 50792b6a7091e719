package dev.mero.mcp;

import dev.mero.core.policy.ServerSettings;
import java.time.Clock;

/**
 * Turns an {@code Authorization} header into a caller: {@code Bearer <JWT>} through {@link JwtAuthenticator}
 * when the policy accepts JWTs, any other bearer credential as an API key ({@link ApiKeyAuthenticator}).
 * Anything else is refused.
 */
final class HttpAuthenticator {

    /** The longest credential looked at; longer is refused before any parsing. */
    static final int MAX_CREDENTIAL_CHARS = 8192;

    private final ApiKeyAuthenticator apiKeys;
    private final JwtAuthenticator jwt;

    HttpAuthenticator(ServerSettings settings, Clock clock) {
        this.apiKeys = new ApiKeyAuthenticator(settings.apiKeys());
        this.jwt = settings.jwt().map(jwtSettings -> new JwtAuthenticator(jwtSettings, clock)).orElse(null);
    }

    HttpCaller authenticate(String authorization) throws AuthenticationFailure {
        if (authorization == null || authorization.isBlank()) {
            throw new AuthenticationFailure("no credential; send 'Authorization: Bearer <API key or token>'.", false);
        }
        if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new AuthenticationFailure("only Bearer credentials are accepted.", true);
        }
        String credential = authorization.substring(7).trim();
        if (credential.isEmpty() || credential.length() > MAX_CREDENTIAL_CHARS) {
            throw new AuthenticationFailure("the bearer credential is empty or too long.", true);
        }
        if (jwt != null && JwtAuthenticator.looksLikeJwt(credential)) {
            return jwt.authenticate(credential);
        }
        return apiKeys.authenticate(credential).orElseThrow(() -> new AuthenticationFailure(
                "the API key is not valid (unknown or revoked)" + (jwt != null ? " and it is no JWT" : "") + ".",
                true));
    }
}
