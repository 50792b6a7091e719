package dev.mero.mcp;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.mero.core.policy.SecurityPolicy;
import dev.mero.core.ops.MeroOperations;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * An HTTP MCP server on an ephemeral loopback port over a {@link TestFiles} workspace, with a policy whose
 * {@code server:} section accepts two API keys (alice: read scopes only; bob: the policy's scopes) and JWTs
 * signed by a generated RSA key, and raw HTTP plus SDK-client helpers to talk to it.
 */
final class HttpTestServer implements AutoCloseable {

    static final String ISSUER = "https://idp.test";
    static final String AUDIENCE = "https://mcp.test/mcp";
    static final String ALICE_KEY = "alice-key-0123456789abcdef";
    static final String BOB_KEY = "bob-key-0123456789abcdef";
    static final String ORIGIN = "https://app.test";
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    final TestFiles files;
    final RSAKey signingKey;
    final MeroMcpHttpServer server;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    HttpTestServer(Path dir) throws Exception {
        files = TestFiles.create(dir);
        signingKey = new RSAKeyGenerator(2048).keyID("k1").generate();
        Files.writeString(files.root.resolve("jwks.json"), new JWKSet(signingKey.toPublicJWK()).toString());
        Path policy = Files.writeString(files.root.resolve("policy.yaml"), """
                name: team
                paths:
                  - {path: ws, slug: ws, allow: [READ, WRITE]}
                scopes: ["files:*:*"]
                server:
                  auth:
                    api_keys:
                      - {caller: alice, sha256: "%s", scopes: ["files:*:read"]}
                      - {caller: bob, sha256: "%s"}
                    jwt:
                      issuer: "%s"
                      audience: "%s"
                      jwks_file: jwks.json
                  allowed_origins: ["%s"]
                """.formatted(sha256(ALICE_KEY), sha256(BOB_KEY), ISSUER, AUDIENCE, ORIGIN));
        MeroMcpServer tools = MeroMcpServer.builder(MeroOperations.forContext(MeroMcpServer.loadPolicy(policy)))
                .build();
        server = MeroMcpHttpServer.builder(tools, SecurityPolicy.serverSettings(policy).orElseThrow()).port(0).build();
        server.start();
    }

    static String sha256(String key) {
        return HexFormat.of().formatHex(ApiKeyAuthenticator.sha256(key));
    }

    /** A token signed with the server's key, claims as given after the valid defaults. */
    String token(Consumer<JWTClaimsSet.Builder> claims) throws Exception {
        return token(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1").type(JOSEObjectType.JWT).build(), claims);
    }

    String token(JWSHeader header, Consumer<JWTClaimsSet.Builder> claims) throws Exception {
        JWTClaimsSet.Builder builder = new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("carol")
                .claim("scope", "files:*:read files:*:write")
                .expirationTime(Date.from(Instant.now().plusSeconds(300)));
        claims.accept(builder);
        SignedJWT jwt = new SignedJWT(header, builder.build());
        jwt.sign(new RSASSASigner(signingKey));
        return jwt.serialize();
    }

    /** A raw POST to the endpoint. */
    HttpResponse<String> post(String body, String authorization, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.endpoint()))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        headers.forEach(request::header);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Opens a session with a raw initialize and returns its id. */
    String openSession(String authorization) throws Exception {
        HttpResponse<String> response = post(INITIALIZE, authorization, Map.of());
        if (response.statusCode() != 200) {
            throw new AssertionError("initialize answered " + response.statusCode() + ": " + response.body());
        }
        String session = response.headers().firstValue(HttpGate.SESSION_HEADER).orElseThrow();
        post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", authorization,
                Map.of(HttpGate.SESSION_HEADER, session));
        return session;
    }

    /** An MCP client of the SDK over its Streamable HTTP transport, sending the credential on every request. */
    McpSyncClient client(String bearer) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                .builder("http://127.0.0.1:" + server.port())
                .endpoint(MeroMcpHttpServer.ENDPOINT)
                .jsonMapper(ServerProcess.MAPPER)
                .httpRequestCustomizer((request, method, uri, body, context) ->
                        request.header("Authorization", "Bearer " + bearer))
                .build();
        McpSyncClient client = McpClient.sync(transport)
                .clientInfo(McpSchema.Implementation.builder("mero-http-test", "1").build())
                .requestTimeout(Duration.ofSeconds(30))
                .initializationTimeout(Duration.ofSeconds(30))
                .build();
        client.initialize();
        return client;
    }

    static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    static List<String> lines(String text) {
        return text.lines().toList();
    }

    @Override
    public void close() {
        server.close();
    }
}
