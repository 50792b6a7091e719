package dev.mero.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.InvalidPolicyException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The policy file's {@code server:} section: read into {@link ServerSettings}, and refused strictly when wrong. */
class ServerSettingsTest {

    private static final String DIGEST = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";

    @TempDir
    Path dir;

    private Path policy(String server) throws IOException {
        Files.createDirectories(dir.resolve("ws"));
        return Files.writeString(dir.resolve("policy.yaml"), "paths:\n  - {path: ws, slug: ws}\n" + server);
    }

    @Test
    void theWholeSectionIsRead() throws IOException {
        Path file = policy("""
                server:
                  auth:
                    api_keys:
                      - {caller: alice, sha256: "%s", scopes: ["files:*:read"]}
                      - {caller: bob, sha256: "%s"}
                    jwt:
                      issuer: "https://idp.example"
                      audience: "https://mcp.example/mcp"
                      jwks_file: keys/jwks.json
                      jwks_url: "https://idp.example/jwks"
                      caller_claim: email
                      scopes_claim: scp
                  allowed_origins: ["https://App.Example", "http://localhost:3000"]
                """.formatted(DIGEST, DIGEST.toUpperCase().replace('2', '3')));

        ServerSettings settings = SecurityPolicy.serverSettings(file).orElseThrow();

        assertThat(settings.apiKeys()).containsExactly(
                new ServerSettings.ApiKey("alice", DIGEST, Optional.of(List.of("files:*:read"))),
                new ServerSettings.ApiKey("bob", DIGEST.replace('2', '3'), Optional.empty()));
        ServerSettings.Jwt jwt = settings.jwt().orElseThrow();
        assertThat(jwt.issuer()).isEqualTo("https://idp.example");
        assertThat(jwt.audience()).isEqualTo("https://mcp.example/mcp");
        assertThat(jwt.jwksFile()).contains(dir.toAbsolutePath().resolve("keys/jwks.json"));
        assertThat(jwt.jwksUrl()).contains(URI.create("https://idp.example/jwks"));
        assertThat(jwt.callerClaim()).isEqualTo("email");
        assertThat(jwt.scopesClaim()).isEqualTo("scp");
        assertThat(settings.allowedOrigins()).containsExactly("https://app.example", "http://localhost:3000");
        assertThat(settings.acceptsCredentials()).isTrue();
        assertThat(SecurityPolicy.load(file).paths()).hasSize(1);
    }

    @Test
    void claimsDefaultToSubAndScope() throws IOException {
        Path file = policy("""
                server:
                  auth:
                    jwt: {issuer: i, audience: a, jwks_url: "http://127.0.0.1:9/jwks"}
                """);

        ServerSettings settings = SecurityPolicy.serverSettings(file).orElseThrow();

        assertThat(settings.apiKeys()).isEmpty();
        assertThat(settings.allowedOrigins()).isEmpty();
        assertThat(settings.jwt().orElseThrow().callerClaim()).isEqualTo("sub");
        assertThat(settings.jwt().orElseThrow().scopesClaim()).isEqualTo("scope");
        assertThat(settings.jwt().orElseThrow().jwksFile()).isEmpty();
        assertThat(settings.acceptsCredentials()).isTrue();
    }

    @Test
    void aPolicyWithoutTheSectionHasNoSettingsAndAnEmptyOneAcceptsNobody() throws IOException {
        assertThat(SecurityPolicy.serverSettings(policy(""))).isEmpty();
        ServerSettings empty = SecurityPolicy.serverSettings(policy("server: {allowed_origins: []}\n")).orElseThrow();
        assertThat(empty.acceptsCredentials()).isFalse();
        assertThat(new ServerSettings(List.of(), Optional.empty(), List.of()).acceptsCredentials()).isFalse();
    }

    @Test
    void aBrokenSectionFailsTheWholePolicyNamingTheField() throws IOException {
        refused("server: {listen: 8080}\n", "field 'server.listen': unknown key 'listen'");
        refused("server: {auth: {basic: {}}}\n", "field 'server.auth.basic': unknown key");
        refused("server: {auth: {api_keys: [{caller: a, sha256: \"" + DIGEST + "\", key: x}]}}\n",
                "field 'server.auth.api_keys[0].key': unknown key");
        refused("server: {auth: {api_keys: [{caller: a}]}}\n", "field 'server.auth.api_keys[0]': an API key needs");
        refused("server: {auth: {api_keys: [{sha256: \"" + DIGEST + "\"}]}}\n", "an API key needs");
        refused("server: {auth: {api_keys: [{caller: a, sha256: secret-key}]}}\n",
                "field 'server.auth.api_keys[0].sha256': expected the key's SHA-256 as 64 hexadecimal digits");
        refused("server: {auth: {api_keys: [{caller: a, sha256: \"" + DIGEST + "0\"}]}}\n", "64 hexadecimal");
        refused("server: {auth: {api_keys: [{caller: \" \", sha256: \"" + DIGEST + "\"}]}}\n",
                "field 'server.auth.api_keys[0].caller': give a non-blank caller name");
        refused("server: {auth: {api_keys: [{caller: \"a\\u0007\", sha256: \"" + DIGEST + "\"}]}}\n",
                "non-blank caller name without control characters");
        refused("server: {auth: {api_keys: [{caller: a, sha256: \"" + DIGEST + "\"}, {caller: b, sha256: \""
                + DIGEST.toUpperCase() + "\"}]}}\n", "field 'server.auth.api_keys[1].sha256': this key is listed twice");
        refused("server: {auth: {api_keys: [{caller: a, sha256: \"" + DIGEST + "\", scopes: [\"files\"]}]}}\n",
                "field 'server.auth.api_keys[0].scopes'");
        refused("server: {auth: {jwt: {audience: a, jwks_file: j.json}}}\n",
                "field 'server.auth.jwt': JWT settings need the 'issuer' and the 'audience'");
        refused("server: {auth: {jwt: {issuer: i, jwks_file: j.json}}}\n", "need the 'issuer' and the 'audience'");
        refused("server: {auth: {jwt: {issuer: i, audience: a}}}\n", "a 'jwks_file' or a 'jwks_url'");
        refused("server: {auth: {jwt: {issuer: \" \", audience: a, jwks_file: j.json}}}\n",
                "field 'server.auth.jwt.issuer': must not be blank");
        refused("server: {auth: {jwt: {issuer: i, audience: \"\", jwks_file: j.json}}}\n",
                "field 'server.auth.jwt.audience': must not be blank");
        refused("server: {auth: {jwt: {issuer: i, audience: a, jwks_file: \"\"}}}\n",
                "field 'server.auth.jwt.jwks_file': give the JWKS file's name");
        refused("server: {auth: {jwt: {issuer: i, audience: a, jwks_url: \"file:///etc/jwks\"}}}\n",
                "field 'server.auth.jwt.jwks_url': 'file:///etc/jwks' is not an http(s) URL");
        refused("server: {auth: {jwt: {issuer: i, audience: a, jwks_url: \"https://\"}}}\n", "is not an http(s) URL");
        refused("server: {auth: {jwt: {issuer: i, audience: a, jwks_url: \"ht tp://x\"}}}\n", "is not an http(s) URL");
        refused("server: {auth: {jwt: {issuer: i, audience: a, jwks_url: \"//host/jwks\"}}}\n", "is not an http(s) URL");
        refused("server: {auth: {jwt: {issuer: i, audience: a, jwks_file: j.json, caller_claim: \"a b\"}}}\n",
                "field 'server.auth.jwt.caller_claim': 'a b' is not a claim name");
        refused("server: {auth: {jwt: {issuer: i, audience: a, jwks_file: j.json, scopes_claim: \"\"}}}\n",
                "field 'server.auth.jwt.scopes_claim'");
        refused("server: {allowed_origins: [\"*\"]}\n",
                "field 'server.allowed_origins[0]': '*' is not an origin such as 'https://app.example'");
        refused("server: {allowed_origins: [\"https://app.example/path\"]}\n", "is not an origin");
        refused("server: {allowed_origins: [\"null\"]}\n", "is not an origin");
    }

    @Test
    void originsMayBeIpv6AndHttpUrlsAreAccepted() throws IOException {
        ServerSettings settings = SecurityPolicy.serverSettings(policy("""
                server:
                  auth: {jwt: {issuer: i, audience: a, jwks_url: "HTTP://idp:8443/jwks"}}
                  allowed_origins: ["http://[::1]:8080", "https://a-b.example"]
                """)).orElseThrow();

        assertThat(settings.allowedOrigins()).containsExactly("http://[::1]:8080", "https://a-b.example");
        assertThat(settings.jwt().orElseThrow().jwksUrl()).contains(URI.create("HTTP://idp:8443/jwks"));
    }

    @Test
    void theValueTypesRefuseWhatCannotWork() {
        assertThatThrownBy(() -> new ServerSettings.Jwt("i", "a", Optional.empty(), Optional.empty(), "sub", "scope"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jwks_file or a jwks_url");
        assertThatThrownBy(() -> new ServerSettings(List.of(), null, List.of())).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new ServerSettings.ApiKey(null, DIGEST, Optional.empty()))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new ServerSettings.ApiKey("a", null, Optional.empty()))
                .isInstanceOf(NullPointerException.class);
        for (int i = 0; i < 6; i++) {
            String[] values = {"i", "a", "sub", "scope"};
            Optional<Path> file = Optional.of(Path.of("j.json"));
            Optional<URI> url = Optional.empty();
            int broken = i;
            assertThatThrownBy(() -> new ServerSettings.Jwt(broken == 0 ? null : values[0], broken == 1 ? null : values[1],
                    broken == 2 ? null : file, broken == 3 ? null : url, broken == 4 ? null : values[2],
                    broken == 5 ? null : values[3])).isInstanceOf(NullPointerException.class);
        }
        List<String> scopes = new java.util.ArrayList<>(List.of("files:*:read"));
        ServerSettings.ApiKey key = new ServerSettings.ApiKey("a", DIGEST, Optional.of(scopes));
        scopes.clear();
        assertThat(key.scopes()).contains(List.of("files:*:read"));
    }

    private void refused(String server, String message) throws IOException {
        Path file = policy(server);
        assertThatThrownBy(() -> SecurityPolicy.load(file)).as(server).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining(message);
        assertThatThrownBy(() -> SecurityPolicy.serverSettings(file)).as(server)
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining(message);
    }
}
