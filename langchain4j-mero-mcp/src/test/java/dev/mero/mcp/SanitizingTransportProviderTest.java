package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SanitizingTransportProviderTest {

    @Test
    void anInternalErrorLosesItsMessageAndData() {
        JSONRPCResponse leaky = JSONRPCResponse.error(7, new JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR,
                "java.lang.IllegalStateException: /home/alice/secret/key.txt", "Caused by: java.io.IOException"));

        McpSchema.JSONRPCMessage sent = SanitizingTransportProvider.sanitized(leaky);

        assertThat(sent).isInstanceOfSatisfying(JSONRPCResponse.class, response -> {
            assertThat(response.id()).isEqualTo(7);
            assertThat(response.result()).isNull();
            assertThat(response.error().code()).isEqualTo(McpSchema.ErrorCodes.INTERNAL_ERROR);
            assertThat(response.error().message()).isEqualTo("Internal error");
            assertThat(response.error().data()).isNull();
        });
    }

    @Test
    void otherErrorsAndResultsPassUnchanged() {
        JSONRPCResponse invalidParams = JSONRPCResponse.error("a", new JSONRPCError(
                McpSchema.ErrorCodes.INVALID_PARAMS, "Unknown tool: invalid_tool_name", "Tool not found: x"));
        JSONRPCResponse result = JSONRPCResponse.result(1, Map.of("tools", java.util.List.of()));

        assertThat(SanitizingTransportProvider.sanitized(invalidParams)).isSameAs(invalidParams);
        assertThat(SanitizingTransportProvider.sanitized(result)).isSameAs(result);
    }
}
