package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimiter;
import dev.mero.core.limit.Ticker;
import dev.mero.core.ops.MeroOperations;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * A bug inside a tool (here a rate limiter whose clock throws, with a host path in its message) reaches the
 * client as a JSON-RPC internal error that says "Internal error" and nothing else, through the real SDK server
 * on in-process pipes.
 */
class InternalErrorTest {

    private static final String LEAK = "/home/alice/very-secret/IllegalStateException";

    @TempDir
    Path dir;

    @Test
    void aBugIsAnInternalErrorThatRevealsNothing() throws Exception {
        MeroOperations operations = MeroOperations.forContext(buggyContext());
        ToolBinding binding = new ToolBinding(operations.availableTools().stream()
                .filter(tool -> tool.name().equals("read_file")).findFirst().orElseThrow(), operations);

        McpError error = org.assertj.core.api.Assertions.catchThrowableOfType(McpError.class,
                () -> binding.call((ApprovalClient) null, Map.of("path", "/ws/a.txt")));

        assertThat(error.getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.INTERNAL_ERROR);
        assertThat(error.getJsonRpcError().message()).isEqualTo("Internal error");
        assertThat(error.getJsonRpcError().data()).isNull();
        assertThat(error.getMessage()).doesNotContain(LEAK);
    }

    @Test
    void throughTheSdkTheClientSeesOnlyInternalError() throws Exception {
        MeroMcpServer server = MeroMcpServer.builder(MeroOperations.forContext(buggyContext())).build();
        PipedOutputStream toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
        PipedInputStream fromServer = new PipedInputStream(1 << 16);
        PipedOutputStream serverOut = new PipedOutputStream(fromServer);
        CompletableFuture<Void> serving = CompletableFuture.runAsync(() -> {
            try {
                server.serveStdio(serverIn, serverOut);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        JsonMapper json = JsonMapper.builder().build();
        try (OutputStream in = toServer;
             BufferedReader out = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))) {
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
            assertThat(json.readTree(out.readLine()).get("id").asInt()).isEqualTo(1);
            send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"read_file\","
                    + "\"arguments\":{\"path\":\"/ws/a.txt\"}}}");
            String line = out.readLine();
            JsonNode response = json.readTree(line);

            assertThat(response.get("id").asInt()).isEqualTo(2);
            assertThat(response.at("/error/code").asInt()).isEqualTo(McpSchema.ErrorCodes.INTERNAL_ERROR);
            assertThat(response.at("/error/message").asText()).isEqualTo("Internal error");
            assertThat(response.at("/error").has("data")).isFalse();
            assertThat(line).doesNotContain(LEAK, "very-secret", "java.", "Exception");
        }
        serving.get(60, TimeUnit.SECONDS);
    }

    private SecurityContext buggyContext() throws Exception {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Files.writeString(ws.resolve("a.txt"), "alpha\n");
        AtomicBoolean broken = new AtomicBoolean();
        Ticker clock = () -> {
            if (broken.get()) {
                throw new IllegalStateException("clock crashed reading " + LEAK);
            }
            return System.nanoTime();
        };
        SecurityContext context = SecurityContext.builder()
                .name("buggy")
                .path(PathEntry.builder().path(ws).slug("ws").allow(Permission.READ).build())
                .rateLimiter(RateLimiter.of(RateLimit.of(1000, Duration.ofSeconds(1)), clock))
                .build();
        broken.set(true);
        return context;
    }

    private static void send(OutputStream in, String line) throws java.io.IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
