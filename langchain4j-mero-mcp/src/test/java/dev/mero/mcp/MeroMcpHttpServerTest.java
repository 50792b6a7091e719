package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import dev.mero.core.policy.ServerSettings;
import dev.mero.core.error.ToolError;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Streamable HTTP transport attacked like an outsider would, over real HTTP on a loopback port: forged tokens
 * of every known kind, unknown and revoked API keys, scope-limited callers, a session replayed by another
 * principal, a hostile origin, oversized and malformed requests; and the happy path through the SDK's own HTTP
 * client with an API key and with a JWT. One server for the class.
 */
class MeroMcpHttpServerTest {

    @TempDir
    static Path dir;
    static HttpTestServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new HttpTestServer(dir);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void anApiKeyCallerReadsThroughTheSdkClient() {
        McpSyncClient client = server.client(HttpTestServer.ALICE_KEY);
        try {
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("read_file",
                    Map.of("path", "/ws/a.txt")));
            assertThat(result.isError()).isFalse();
            assertThat(HttpTestServer.text(result)).contains("alpha");
            assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name).contains("read_file", "write_file");
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void aJwtCallerReadsAndWritesWithinItsScopes() throws Exception {
        McpSyncClient client = server.client(server.token(claims -> { }));
        try {
            McpSchema.CallToolResult read = client.callTool(new McpSchema.CallToolRequest("read_file",
                    Map.of("path", "/ws/a.txt")));
            McpSchema.CallToolResult write = client.callTool(new McpSchema.CallToolRequest("write_file",
                    Map.of("path", "/ws/by-carol.txt", "content", "from carol")));

            assertThat(HttpTestServer.text(read)).contains("alpha");
            assertThat(write.isError()).as(HttpTestServer.text(write)).isFalse();
            assertThat(Files.readString(server.files.ws.resolve("by-carol.txt"))).isEqualTo("from carol");
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void aCallerIsRefusedWhatItsCredentialsScopesDoNotGrantAndNothingChanges() throws Exception {
        McpSyncClient alice = server.client(HttpTestServer.ALICE_KEY);
        McpSyncClient readOnlyJwt = server.client(server.token(claims -> claims.claim("scope", List.of("files:*:read"))));
        McpSyncClient noScopeJwt = server.client(server.token(claims -> claims.claim("scope", null)));
        try {
            McpSchema.CallToolResult noScope = noScopeJwt.callTool(new McpSchema.CallToolRequest("read_file",
                    Map.of("path", "/ws/a.txt")));
            assertThat(HttpTestServer.text(noScope)).as("a token without scopes grants none")
                    .startsWith("Denied: Context 'carol' lacks scope 'files:file:read' (has: []).");

            McpSchema.CallToolResult byKey = alice.callTool(new McpSchema.CallToolRequest("write_file",
                    Map.of("path", "/ws/by-alice.txt", "content", "x")));
            McpSchema.CallToolResult byToken = readOnlyJwt.callTool(new McpSchema.CallToolRequest("write_file",
                    Map.of("path", "/ws/by-token.txt", "content", "x")));
            McpSchema.CallToolResult outside = alice.callTool(new McpSchema.CallToolRequest("read_file",
                    Map.of("path", "/ws/../secret/key.txt")));

            assertThat(byKey.isError()).isTrue();
            assertThat(HttpTestServer.text(byKey)).startsWith("Denied: Context 'alice' lacks scope 'files:file:write' "
                    + "(has: ['files:*:read']).");
            assertThat(byToken.isError()).isTrue();
            assertThat(HttpTestServer.text(byToken)).startsWith("Denied: Context 'carol' lacks scope 'files:file:write'");
            assertThat(server.files.ws.resolve("by-alice.txt")).doesNotExist();
            assertThat(server.files.ws.resolve("by-token.txt")).doesNotExist();
            assertThat(outside.isError()).isTrue();
            assertThat(HttpTestServer.text(outside)).startsWith("Denied: ").doesNotContain(TestFiles.SECRET)
                    .doesNotContain(server.files.root.toString());
        } finally {
            alice.closeGracefully();
            readOnlyJwt.closeGracefully();
            noScopeJwt.closeGracefully();
        }
    }

    @Test
    void aCallerWithTheApiKeysDefaultScopesGetsThePolicysOwn() {
        McpSyncClient bob = server.client(HttpTestServer.BOB_KEY);
        try {
            McpSchema.CallToolResult write = bob.callTool(new McpSchema.CallToolRequest("write_file",
                    Map.of("path", "/ws/by-bob.txt", "content", "b")));
            assertThat(write.isError()).as(HttpTestServer.text(write)).isFalse();
            assertThat(server.files.ws.resolve("by-bob.txt")).hasContent("b");
        } finally {
            bob.closeGracefully();
        }
    }

    @Test
    void noCredentialIs401WithTheChallengeAndTheAuthFailedEnvelope() throws Exception {
        HttpResponse<String> response = server.post(HttpTestServer.INITIALIZE, null, Map.of());

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).contains("Bearer resource_metadata=\"http://"
                + "127.0.0.1:" + server.server.port() + "/.well-known/oauth-protected-resource\"");
        ToolError error = ToolError.fromJson(response.body());
        assertThat(error.errorCode()).isEqualTo("auth_failed");
        assertThat(error.status()).isEqualTo(401);
        assertThat(error.retry()).isFalse();
    }

    @Test
    void unknownRevokedAndMalformedApiKeysAre401() throws Exception {
        for (String authorization : List.of("Bearer not-a-key", "Bearer " + HttpTestServer.ALICE_KEY + "x",
                "Bearer " + HttpTestServer.sha256(HttpTestServer.ALICE_KEY), "Basic YWxpY2U6a2V5", "Bearer ",
                "Bearer " + "k".repeat(9000))) {
            HttpResponse<String> response = server.post(HttpTestServer.INITIALIZE, authorization, Map.of());

            assertThat(response.statusCode()).as(authorization).isEqualTo(401);
            assertThat(ToolError.fromJson(response.body()).errorCode()).isEqualTo("auth_failed");
            assertThat(response.headers().firstValue("WWW-Authenticate").orElseThrow())
                    .contains("error=\"invalid_token\"");
        }
    }

    @Test
    void forgedTokensAreRefusedEveryKnownWay() throws Exception {
        RSAKey attacker = new RSAKeyGenerator(2048).keyID("k1").generate();
        Map<String, String> forged = new LinkedHashMap<>();
        forged.put("alg none", new PlainJWT(claims(server).build()).serialize());
        forged.put("alg none, signature kept", unsigned(server.token(c -> { })));
        SignedJWT hmac = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims(server).build());
        hmac.sign(new MACSigner(server.signingKey.toPublicKey().getEncoded()));
        forged.put("HS256 keyed with the RSA public key", hmac.serialize());
        SignedJWT hmacJwk = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims(server).build());
        hmacJwk.sign(new MACSigner(server.signingKey.toPublicJWK().toJSONString().getBytes()));
        forged.put("HS256 keyed with the JWK text", hmacJwk.serialize());
        forged.put("wrong issuer", server.token(c -> c.issuer("https://evil.test")));
        forged.put("wrong audience", server.token(c -> c.audience("https://other.test/mcp")));
        forged.put("no audience", server.token(c -> c.audience((String) null)));
        forged.put("expired", server.token(c -> c.expirationTime(Date.from(Instant.now().minusSeconds(3600)))));
        forged.put("no expiry", server.token(c -> c.expirationTime(null)));
        forged.put("not yet valid", server.token(c -> c.notBeforeTime(Date.from(Instant.now().plusSeconds(3600)))));
        forged.put("no caller", server.token(c -> c.subject(null)));
        forged.put("unknown kid", signed(attacker, new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k9").build()));
        forged.put("right kid, other key", signed(attacker, new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1").build()));
        forged.put("jku injected", signed(attacker, new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1")
                .jwkURL(URI.create("https://evil.test/jwks.json")).build()));
        forged.put("x5u injected", signed(attacker, new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1")
                .x509CertURL(URI.create("https://evil.test/cert.pem")).build()));
        forged.put("embedded jwk", signed(attacker, new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1")
                .jwk(attacker.toPublicJWK()).build()));
        forged.put("jku next to the right key", server.token(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1")
                .jwkURL(URI.create("https://evil.test/jwks.json")).build(), c -> { }));
        forged.put("x5c injected", signed(attacker, new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1")
                .x509CertChain(List.of(Base64.encode("not a certificate"))).build()));
        forged.put("typ other than JWT", server.token(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1")
                .type(new JOSEObjectType("secevent+jwt")).build(), c -> { }));
        forged.put("scope claim of numbers", server.token(c -> c.claim("scope", List.of(1, 2))));
        forged.put("truncated", server.token(c -> { }).substring(0, 60) + ".x.y");

        for (Map.Entry<String, String> token : forged.entrySet()) {
            HttpResponse<String> response = server.post(HttpTestServer.INITIALIZE, "Bearer " + token.getValue(),
                    Map.of());

            assertThat(response.statusCode()).as(token.getKey()).isEqualTo(401);
            assertThat(ToolError.fromJson(response.body()).errorCode()).as(token.getKey()).isEqualTo("auth_failed");
            assertThat(response.body()).as(token.getKey()).doesNotContain("Exception").doesNotContain("\tat ");
        }
        assertThat(server.post(HttpTestServer.INITIALIZE, "Bearer " + server.token(c -> { }), Map.of()).statusCode())
                .as("the genuine token").isEqualTo(200);
    }

    @Test
    void aSessionBelongsToThePrincipalThatOpenedIt() throws Exception {
        String aliceSession = server.openSession("Bearer " + HttpTestServer.ALICE_KEY);
        String list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}";

        HttpResponse<String> byBob = server.post(list, "Bearer " + HttpTestServer.BOB_KEY,
                Map.of(HttpGate.SESSION_HEADER, aliceSession));
        HttpResponse<String> byToken = server.post(list, "Bearer " + server.token(c -> c.subject("alice")),
                Map.of(HttpGate.SESSION_HEADER, aliceSession));
        HttpResponse<String> made = server.post(list, "Bearer " + HttpTestServer.ALICE_KEY,
                Map.of(HttpGate.SESSION_HEADER, "made-up-session"));
        HttpResponse<String> byAlice = server.post(list, "Bearer " + HttpTestServer.ALICE_KEY,
                Map.of(HttpGate.SESSION_HEADER, aliceSession));

        assertThat(byBob.statusCode()).isEqualTo(404);
        assertThat(byToken.statusCode()).as("a JWT whose subject has the same name is another principal")
                .isEqualTo(404);
        assertThat(made.statusCode()).isEqualTo(404);
        assertThat(byAlice.statusCode()).isEqualTo(200);
        assertThat(byAlice.body()).contains("read_file");
    }

    @Test
    void aCallInASessionWhoseTokenExpiredIs401AuthFailed() throws Exception {
        String session = server.openSession("Bearer " + server.token(c -> c.subject("erin")));
        String expired = server.token(c -> c.subject("erin").expirationTime(Date.from(Instant.now().minusSeconds(120))));

        HttpResponse<String> call = server.post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"read_file\",\"arguments\":{\"path\":\"/ws/a.txt\"}}}", "Bearer " + expired,
                Map.of(HttpGate.SESSION_HEADER, session));

        assertThat(call.statusCode()).isEqualTo(401);
        ToolError error = ToolError.fromJson(call.body());
        assertThat(error.errorCode()).isEqualTo("auth_failed");
        assertThat(error.message()).isEqualTo("Authentication failed: the token has expired; get a new one.");
        assertThat(call.body()).doesNotContain("alpha");
    }

    @Test
    void aCallerHoldsAtMostItsBoundOfSessionsAndClosingOneFreesIt() throws Exception {
        String bearer = "Bearer " + server.token(c -> c.subject("frank"));
        List<String> sessions = new java.util.ArrayList<>();
        for (int i = 0; i < MeroMcpHttpServer.SESSIONS_PER_CALLER; i++) {
            sessions.add(server.openSession(bearer));
        }

        HttpResponse<String> oneMore = server.post(HttpTestServer.INITIALIZE, bearer, Map.of());
        HttpResponse<String> otherCaller = server.post(HttpTestServer.INITIALIZE, "Bearer " + HttpTestServer.BOB_KEY,
                Map.of());
        HttpResponse<String> closed = server.http.send(HttpRequest.newBuilder(URI.create(server.server.endpoint()))
                .timeout(Duration.ofSeconds(30)).header("Authorization", bearer)
                .header(HttpGate.SESSION_HEADER, sessions.get(0)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> afterClose = server.post(HttpTestServer.INITIALIZE, bearer, Map.of());

        assertThat(oneMore.statusCode()).isEqualTo(429);
        assertThat(ToolError.fromJson(oneMore.body()).errorCode()).isEqualTo("rate_limited");
        assertThat(oneMore.headers().firstValue("Retry-After")).isPresent();
        assertThat(otherCaller.statusCode()).as("another caller's bound is its own").isEqualTo(200);
        assertThat(closed.statusCode()).isLessThan(300);
        assertThat(afterClose.statusCode()).isEqualTo(200);
    }

    @Test
    void aRequestFromAnOriginNotAllowedIs403() throws Exception {
        HttpResponse<String> hostile = server.post(HttpTestServer.INITIALIZE, "Bearer " + HttpTestServer.ALICE_KEY,
                Map.of("Origin", "https://evil.test"));
        HttpResponse<String> allowed = server.post(HttpTestServer.INITIALIZE, "Bearer " + HttpTestServer.ALICE_KEY,
                Map.of("Origin", HttpTestServer.ORIGIN));

        assertThat(hostile.statusCode()).isEqualTo(403);
        assertThat(ToolError.fromJson(hostile.body()).errorCode()).isEqualTo("denied");
        assertThat(allowed.statusCode()).isEqualTo(200);
    }

    @Test
    void oversizedAndMalformedRequestsAre4xxWithoutAStackTrace() throws Exception {
        String key = "Bearer " + HttpTestServer.ALICE_KEY;
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"x\":\""
                + "a".repeat(MeroMcpHttpServer.MAX_BODY_BYTES) + "\"}";
        HttpResponse<String> bigBody = server.post(big, key, Map.of());
        HttpResponse<String> bigChunkedBody = server.http.send(HttpRequest.newBuilder(URI.create(server.server.endpoint()))
                .timeout(Duration.ofSeconds(30)).header("Authorization", key).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big.getBytes())))
                .build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> bigHeader = server.post(HttpTestServer.INITIALIZE, key,
                Map.of("X-Filler", "f".repeat(MeroMcpHttpServer.MAX_HEADER_BYTES + 1)));
        HttpResponse<String> notJson = server.post("{not json", key, Map.of());
        String session = server.openSession(key);
        HttpResponse<String> notJsonInSession = server.post("[1,2", key, Map.of(HttpGate.SESSION_HEADER, session));
        HttpResponse<String> batch = server.post("[" + HttpTestServer.INITIALIZE + "]", key, Map.of());
        HttpResponse<String> noParams = server.post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\"}", key,
                Map.of(HttpGate.SESSION_HEADER, session));
        HttpResponse<String> noSession = server.post("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}", key,
                Map.of());

        assertThat(bigBody.statusCode()).isEqualTo(413);
        assertThat(bigChunkedBody.statusCode()).as("a body without a declared length is bounded too").isEqualTo(413);
        assertThat(bigHeader.statusCode()).isEqualTo(431);
        assertThat(notJson.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,"
                + "\"message\":\"Parse error: the line is not JSON\"}}");
        assertThat(batch.body()).contains("\"code\":-32600");
        assertThat(noParams.body()).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,"
                + "\"message\":\"Invalid params: this request needs a params object\"}}");
        for (HttpResponse<String> response : List.of(bigBody, bigChunkedBody, bigHeader, notJson, notJsonInSession,
                batch, noParams, noSession)) {
            assertThat(response.statusCode()).as(response.body()).isBetween(400, 499);
            assertThat(response.body()).doesNotContain("Exception").doesNotContain("stackTrace")
                    .doesNotContain("className").doesNotContain("\tat ").doesNotContain(".java");
        }
    }

    @Test
    void aToolTheServerDoesNotListIsRefusedWithTheTextOfEveryBinding() {
        McpSyncClient client = server.client(HttpTestServer.BOB_KEY);
        try {
            McpSchema.CallToolResult result = client.callTool(new McpSchema.CallToolRequest("no_such_tool", Map.of()));

            assertThat(result.isError()).isTrue();
            assertThat(HttpTestServer.text(result))
                    .isEqualTo(server.server.tools().operations().unoffered("no_such_tool").text());
        } finally {
            client.closeGracefully();
        }
    }

    @Test
    void theProtectedResourceMetadataNamesTheResourceAndTheIssuer() throws Exception {
        HttpResponse<String> response = server.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + server.server.port() + MeroMcpHttpServer.METADATA_PATH)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        Map<?, ?> metadata = ServerProcess.MAPPER.readValue(response.body(), Map.class);
        assertThat(metadata.get("resource")).isEqualTo(HttpTestServer.AUDIENCE);
        assertThat(metadata.get("authorization_servers")).isEqualTo(List.of(HttpTestServer.ISSUER));
        assertThat(String.valueOf(metadata.get("scopes_supported"))).contains("files:*:read");
    }

    @Test
    void aJwksFileThatCannotBeReadStopsTheStart() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken-jwks.json"), "{\"keys\": [ not json");
        for (Path jwks : List.of(broken, dir.resolve("missing-jwks.json"))) {
            ServerSettings settings = new ServerSettings(List.of(), Optional.of(new ServerSettings.Jwt(
                    HttpTestServer.ISSUER, HttpTestServer.AUDIENCE, Optional.of(jwks), Optional.empty(), "sub",
                    "scope")), List.of());
            MeroMcpHttpServer http = MeroMcpHttpServer.builder(server.server.tools(), settings).port(0).build();

            assertThatThrownBy(http::start).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("JWKS file");
            http.close();
        }
    }

    private static JWTClaimsSet.Builder claims(HttpTestServer server) {
        return new JWTClaimsSet.Builder().issuer(HttpTestServer.ISSUER).audience(HttpTestServer.AUDIENCE)
                .subject("carol").expirationTime(Date.from(Instant.now().plusSeconds(300)));
    }

    private static String signed(RSAKey key, JWSHeader header) throws Exception {
        SignedJWT jwt = new SignedJWT(header, claims(null).claim("scope", "files:*:*").build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    /** A genuine token with its header's algorithm replaced by {@code none}. */
    private static String unsigned(String token) {
        String[] parts = token.split("\\.");
        return Base64URL.encode("{\"alg\":\"none\",\"kid\":\"k1\"}") + "." + parts[1] + "." + parts[2];
    }
}
