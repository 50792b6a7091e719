package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A bug inside a tool (here a command argument guard that throws, with a host path in its message) reaches the
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
                .filter(tool -> tool.name().equals("run_command")).findFirst().orElseThrow(), operations);

        McpError error = org.assertj.core.api.Assertions.catchThrowableOfType(McpError.class,
                () -> binding.call((ApprovalClient) null, Map.of("command", "ls")));

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
            send(in, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"run_command\","
                    + "\"arguments\":{\"command\":\"ls\"}}}");
            String line = out.readLine();
            JsonNode response = json.readTree(line);

            assertThat(response.get("id").asInt()).isEqualTo(2);
            assertThat(response.at("/error/code").asInt()).isEqualTo(McpSchema.ErrorCodes.INTERNAL_ERROR);
            assertThat(response.at("/error/message").asString()).isEqualTo("Internal error");
            assertThat(response.at("/error").has("data")).isFalse();
            assertThat(line).doesNotContain(LEAK, "very-secret", "java.", "Exception");
        }
        serving.get(60, TimeUnit.SECONDS);
    }

    private SecurityContext buggyContext() throws Exception {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        return SecurityContext.builder()
                .name("buggy")
                .path(PathEntry.builder().path(ws).slug("ws").allow(Permission.READ, Permission.EXECUTE).build())
                .allowCommand("ls")
                .argumentGuard((program, arguments) -> {
                    throw new IllegalStateException("guard crashed reading " + LEAK);
                })
                .build();
    }

    private static void send(OutputStream in, String line) throws java.io.IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
