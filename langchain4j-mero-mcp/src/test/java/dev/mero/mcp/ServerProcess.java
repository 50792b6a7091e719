package dev.mero.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The packaged server jar started as a subprocess and driven by the SDK's own client over stdio, the way an
 * MCP host runs it.
 */
final class ServerProcess implements AutoCloseable {

    static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(JsonMapper.builder().build());

    private final McpSyncClient client;
    private final List<String> stderr = Collections.synchronizedList(new ArrayList<>());

    private ServerProcess(Path policy, UnaryOperator<McpClient.SyncSpec> customizer, List<String> extraArgs) {
        List<String> args = new ArrayList<>(List.of("-jar", jar().toString(), "--policy", policy.toString()));
        args.addAll(extraArgs);
        StdioClientTransport transport = new SerialStdioClientTransport(
                ServerParameters.builder(java()).args(args).build(), MAPPER);
        transport.setStdErrorHandler(stderr::add);
        McpClient.SyncSpec spec = McpClient.sync(transport)
                .clientInfo(McpSchema.Implementation.builder("mero-mcp-it", "1").build())
                .requestTimeout(Duration.ofSeconds(120))
                .initializationTimeout(Duration.ofSeconds(120));
        this.client = customizer.apply(spec).build();
        client.initialize();
    }

    /** Starts the server for a policy with a plain client (no elicitation, no roots). */
    static ServerProcess start(Path policy) {
        return new ServerProcess(policy, UnaryOperator.identity(), List.of());
    }

    /** Starts the server for a policy with a client set up by {@code customizer}. */
    static ServerProcess start(Path policy, UnaryOperator<McpClient.SyncSpec> customizer, String... extraArgs) {
        return new ServerProcess(policy, customizer, List.of(extraArgs));
    }

    /** The packaged jar the build made (failsafe passes its path). */
    static Path jar() {
        Path jar = Path.of(System.getProperty("mero.mcp.jar", "target/langchain4j-mero-mcp.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("Build the jar first (mvn package): " + jar.toAbsolutePath());
        }
        return jar;
    }

    /** The java launcher of the running JVM. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    McpSyncClient client() {
        return client;
    }

    CallToolResult call(String tool, Map<String, Object> arguments) {
        return client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(arguments).build());
    }

    /** The text of a result's single text content. */
    static String text(CallToolResult result) {
        return result.content().stream()
                .map(content -> ((McpSchema.TextContent) content).text())
                .collect(Collectors.joining());
    }

    /** What the server wrote to stderr so far. */
    String stderr() {
        synchronized (stderr) {
            return String.join("\n", stderr);
        }
    }

    @Override
    public void close() {
        client.closeGracefully();
    }
}
