package dev.mero.core.policy;

import dev.mero.core.message.Messages;
import dev.mero.core.scope.Scope;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a policy file's {@code server:} section into {@link ServerSettings}, strictly like every other section:
 * unknown keys, a digest that is not 64 hexadecimal digits, a key listed twice, a malformed scope or origin,
 * JWT settings without a key set all fail the policy.
 */
final class ServerSection {

    private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
    private static final Pattern ORIGIN = Pattern.compile("https?://([A-Za-z0-9.-]+|\\[[0-9a-fA-F:.]+\\])(:[0-9]{1,5})?");
    private static final Pattern CLAIM = Pattern.compile("[A-Za-z_][A-Za-z0-9_.:-]{0,63}");

    private ServerSection() {
    }

    static ServerSettings read(PolicyNode server, Path base) {
        server.object("auth", "allowed_origins");
        List<ServerSettings.ApiKey> keys = new ArrayList<>();
        Optional<ServerSettings.Jwt> jwt = Optional.empty();
        if (server.has("auth")) {
            PolicyNode auth = server.get("auth");
            auth.object("api_keys", "jwt");
            if (auth.has("api_keys")) {
                Set<String> digests = new HashSet<>();
                for (PolicyNode key : auth.get("api_keys").list()) {
                    ServerSettings.ApiKey apiKey = apiKey(key);
                    if (!digests.add(apiKey.sha256())) {
                        throw key.get("sha256").fail("this key is listed twice");
                    }
                    keys.add(apiKey);
                }
            }
            if (auth.has("jwt")) {
                jwt = Optional.of(jwt(auth.get("jwt"), base));
            }
        }
        List<String> origins = new ArrayList<>();
        if (server.has("allowed_origins")) {
            for (PolicyNode origin : server.get("allowed_origins").list()) {
                String text = origin.text();
                if (!ORIGIN.matcher(text).matches()) {
                    throw origin.fail(Messages.quote(text) + " is not an origin such as 'https://app.example' "
                            + "(scheme, host and optional port, no path)");
                }
                origins.add(text.toLowerCase(Locale.ROOT));
            }
        }
        return new ServerSettings(keys, jwt, origins);
    }

    private static ServerSettings.ApiKey apiKey(PolicyNode key) {
        key.object("caller", "sha256", "scopes");
        if (!key.has("caller") || !key.has("sha256")) {
            throw key.fail("an API key needs a 'caller' and the key's 'sha256'");
        }
        String caller = key.get("caller").text();
        if (caller.isBlank() || caller.codePoints().anyMatch(Messages::isControlOrInvisible)) {
            throw key.get("caller").fail("give a non-blank caller name without control characters");
        }
        String sha256 = key.get("sha256").text();
        if (!SHA256.matcher(sha256).matches()) {
            throw key.get("sha256").fail("expected the key's SHA-256 as 64 hexadecimal digits (sha256sum), "
                    + "never the key itself");
        }
        Optional<List<String>> scopes = key.has("scopes") ? Optional.of(scopes(key.get("scopes"))) : Optional.empty();
        return new ServerSettings.ApiKey(caller, sha256.toLowerCase(Locale.ROOT), scopes);
    }

    private static List<String> scopes(PolicyNode node) {
        List<String> scopes = node.texts();
        for (String scope : scopes) {
            try {
                Scope.parse(scope);
            } catch (IllegalArgumentException e) {
                throw node.fail(e);
            }
        }
        return scopes;
    }

    private static ServerSettings.Jwt jwt(PolicyNode jwt, Path base) {
        jwt.object("issuer", "audience", "jwks_file", "jwks_url", "caller_claim", "scopes_claim");
        if (!jwt.has("issuer") || !jwt.has("audience")) {
            throw jwt.fail("JWT settings need the 'issuer' and the 'audience' a token must name");
        }
        if (!jwt.has("jwks_file") && !jwt.has("jwks_url")) {
            throw jwt.fail("JWT settings need the keys that sign tokens: a 'jwks_file' or a 'jwks_url'");
        }
        Optional<Path> file = Optional.empty();
        if (jwt.has("jwks_file")) {
            String name = jwt.get("jwks_file").text();
            if (name.isEmpty()) {
                throw jwt.get("jwks_file").fail("give the JWKS file's name");
            }
            file = Optional.of(base.resolve(name).normalize());
        }
        Optional<URI> url = Optional.empty();
        if (jwt.has("jwks_url")) {
            url = Optional.of(httpUrl(jwt.get("jwks_url")));
        }
        return new ServerSettings.Jwt(nonBlank(jwt.get("issuer")), nonBlank(jwt.get("audience")), file, url,
                claim(jwt, "caller_claim", "sub"), claim(jwt, "scopes_claim", "scope"));
    }

    private static URI httpUrl(PolicyNode node) {
        String text = node.text();
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("https") || scheme.equals("http")) && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // refused below
        }
        throw node.fail(Messages.quote(text) + " is not an http(s) URL");
    }

    private static String claim(PolicyNode jwt, String key, String fallback) {
        if (!jwt.has(key)) {
            return fallback;
        }
        String claim = jwt.get(key).text();
        if (!CLAIM.matcher(claim).matches()) {
            throw jwt.get(key).fail(Messages.quote(claim) + " is not a claim name");
        }
        return claim;
    }

    private static String nonBlank(PolicyNode node) {
        String text = node.text();
        if (text.isBlank()) {
            throw node.fail("must not be blank");
        }
        return text;
    }
}
