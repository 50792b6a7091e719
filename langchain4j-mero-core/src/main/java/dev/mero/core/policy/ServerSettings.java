package dev.mero.core.policy;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A policy file's {@code server:} section: who may call a remote server of this policy (the MCP binding's
 * Streamable HTTP transport) and from which web origins. The library itself does not serve anything; a binding
 * that does reads these settings with {@link SecurityPolicy#serverSettings(java.nio.file.Path)}.
 *
 * <pre>{@code
 * server:
 *   auth:
 *     api_keys:
 *       - {caller: alice, sha256: "<hex>", scopes: ["files:*:read"]}
 *     jwt: {issuer: "https://idp.example", audience: "https://mcp.example/mcp", jwks_file: jwks.json}
 *   allowed_origins: ["https://app.example"]
 * }</pre>
 *
 * <p>Only the SHA-256 of an API key is kept, never the key. Scopes come from the credential alone and only ever
 * narrow the policy's context. Immutable.
 *
 * @param apiKeys        the API keys, in file order
 * @param jwt            the JWT settings, if bearer JWTs are accepted
 * @param allowedOrigins the web origins whose requests are served (exact {@code scheme://host[:port]})
 */
public record ServerSettings(List<ApiKey> apiKeys, Optional<Jwt> jwt, List<String> allowedOrigins) {

    /**
     * Checks and copies the settings.
     *
     * @param apiKeys        the API keys
     * @param jwt            the JWT settings
     * @param allowedOrigins the allowed origins
     */
    public ServerSettings {
        apiKeys = List.copyOf(apiKeys);
        jwt = Objects.requireNonNull(jwt, "jwt");
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /**
     * Tells whether any credential is accepted: without one, a remote server would serve nobody.
     *
     * @return {@code true} if there is an API key or JWT settings
     */
    public boolean acceptsCredentials() {
        return !apiKeys.isEmpty() || jwt.isPresent();
    }

    /**
     * One API key: {@code Authorization: Bearer <key>} whose SHA-256 is {@link #sha256()} acts as {@link #caller()}
     * with {@link #scopes()}.
     *
     * @param caller the caller's name, used in audit events and refusals
     * @param sha256 the key's SHA-256, 64 lowercase hexadecimal digits
     * @param scopes the caller's scopes ({@code namespace:resource:action}); absent means the policy's own
     */
    public record ApiKey(String caller, String sha256, Optional<List<String>> scopes) {

        /**
         * Checks and copies the key.
         *
         * @param caller the caller
         * @param sha256 the digest
         * @param scopes the scopes
         */
        public ApiKey {
            Objects.requireNonNull(caller, "caller");
            Objects.requireNonNull(sha256, "sha256");
            scopes = Objects.requireNonNull(scopes, "scopes").map(List::copyOf);
        }
    }

    /**
     * How bearer JWTs are checked: signed by a key of the JWKS, issued by {@link #issuer()} for
     * {@link #audience()}; the caller is the {@link #callerClaim()}, the scopes the {@link #scopesClaim()}.
     *
     * @param issuer      the exact {@code iss}
     * @param audience    the {@code aud} a token must name
     * @param jwksFile    a JWKS file, resolved against the policy file's directory
     * @param jwksUrl     a JWKS URL, fetched and cached
     * @param callerClaim the claim naming the caller (default {@code sub})
     * @param scopesClaim the claim holding the scopes (default {@code scope}): a space-separated string or a list
     */
    public record Jwt(String issuer, String audience, Optional<Path> jwksFile, Optional<URI> jwksUrl,
                      String callerClaim, String scopesClaim) {

        /**
         * Checks the settings.
         *
         * @param issuer      the issuer
         * @param audience    the audience
         * @param jwksFile    the JWKS file
         * @param jwksUrl     the JWKS URL
         * @param callerClaim the caller claim
         * @param scopesClaim the scopes claim
         */
        public Jwt {
            Objects.requireNonNull(issuer, "issuer");
            Objects.requireNonNull(audience, "audience");
            Objects.requireNonNull(jwksFile, "jwksFile");
            Objects.requireNonNull(jwksUrl, "jwksUrl");
            Objects.requireNonNull(callerClaim, "callerClaim");
            Objects.requireNonNull(scopesClaim, "scopesClaim");
            if (jwksFile.isEmpty() && jwksUrl.isEmpty()) {
                throw new IllegalArgumentException("JWT settings need a jwks_file or a jwks_url");
            }
        }
    }
}
