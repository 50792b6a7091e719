package dev.mero.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.mcp.McpToolUtils;

/** The callbacks as Spring AI's MCP server exposes them (McpToolUtils never consults an exception processor). */
class McpExposureTest {

    @TempDir
    Path root;

    private MeroToolCallbacks tools;

    @BeforeEach
    void mount() throws IOException {
        Path workspace = Files.createDirectories(root.resolve("workspace"));
        Files.writeString(workspace.resolve("notes.md"), "Ship on Friday.\n");
        tools = MeroToolCallbacks.forContext(SecurityContext.builder()
                .name("mcp-test")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ))
                .build());
    }

    private CallToolResult call(String tool, Map<String, Object> arguments) {
        SyncToolSpecification specification = McpToolUtils.toSyncToolSpecification(tools.find(tool).orElseThrow());
        // the server hands every call its exchange with the client
        CallToolRequest request = CallToolRequest.builder(tool).arguments(arguments).build();
        return specification.callHandler().apply(mock(McpSyncServerExchange.class), request);
    }

    private static String text(CallToolResult result) {
        assertThat(result.content()).singleElement().isInstanceOf(TextContent.class);
        return ((TextContent) result.content().get(0)).text();
    }

    @Test
    void aDenialIsTheDeniedTextOverMcpToo() {
        CallToolResult denied = call("read_file", Map.of("path", "/etc/passwd"));

        assertThat(denied.isError()).isFalse();
        assertThat(text(denied)).startsWith("Denied: Path '/etc/passwd'").doesNotContain("Exception");
    }

    @Test
    void anAllowedCallIsTheToolTextOverMcp() {
        CallToolResult read = call("read_file", Map.of("path", "/ws/notes.md"));

        assertThat(read.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(text(read)).contains("Ship on Friday.");
    }

    @Test
    void theMcpToolCarriesTheCatalogueNameAndDescription() {
        MeroToolCallback readFile = tools.find("read_file").orElseThrow();

        SyncToolSpecification specification = McpToolUtils.toSyncToolSpecification(readFile);

        assertThat(specification.tool().name()).isEqualTo("read_file");
        assertThat(specification.tool().description()).isEqualTo(readFile.descriptor().description());
        assertThat(specification.tool().inputSchema()).containsKey("properties");
        assertThat(specification.tool().inputSchema().get("properties").toString()).contains("path");
    }
}
