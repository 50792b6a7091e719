package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The protocol's Jackson 2 mapper reads and writes as the Jackson 3 one it replaced did: one JSON value per line,
 * nesting bounded at 500, unknown properties ignored, the SDK's messages written in their components' order.
 */
class ProtocolJacksonTest {

    private final McpJsonMapper mapper = new StrictParamsMapper(new JacksonMcpJsonMapper(ProtocolJackson.mapper()));

    @Test
    void aLineWithASecondJsonValueIsAParseErrorNotItsFirstValue() {
        JsonRpcInput input = read("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} {\"jsonrpc\":\"2.0\"}");

        assertThat(input.isError()).isTrue();
        assertThat(input.errorReply()).containsEntry("error", JsonRpcInput.errorReply(null,
                McpSchema.ErrorCodes.PARSE_ERROR, JsonRpcInput.PARSE_ERROR_MESSAGE).get("error"));
    }

    @Test
    void nestingDeeperThan500LevelsIsAParseError() {
        assertThat(read(request(nested(500))).isError()).isFalse();

        JsonRpcInput tooDeep = read(request(nested(501)));

        assertThat(tooDeep.isError()).isTrue();
        assertThat(tooDeep.errorReply().get("error")).isEqualTo(JsonRpcInput.errorReply(null,
                McpSchema.ErrorCodes.PARSE_ERROR, JsonRpcInput.PARSE_ERROR_MESSAGE).get("error"));
    }

    @Test
    void unknownPropertiesOfTheSdksTypesAreIgnored() {
        McpSchema.JSONRPCMessage message = read("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{\"future\":{}},\"clientInfo\":"
                + "{\"name\":\"c\",\"version\":\"1\",\"more\":true},\"later\":1}}").message();

        McpSchema.InitializeRequest initialize = mapper.convertValue(((McpSchema.JSONRPCRequest) message).params(),
                new TypeRef<McpSchema.InitializeRequest>() { });

        assertThat(initialize.clientInfo().name()).isEqualTo("c");
        assertThat(initialize.protocolVersion()).isEqualTo("2025-06-18");
    }

    @Test
    void theSdksMessagesAreWrittenInTheirComponentsOrder() throws Exception {
        McpSchema.JSONRPCResponse answer = McpSchema.JSONRPCResponse.result(7, McpSchema.CallToolResult.builder()
                .addTextContent("text").isError(false).build());

        assertThat(mapper.writeValueAsString(answer)).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":"
                + "{\"content\":[{\"type\":\"text\",\"text\":\"text\"}],\"isError\":false}}");
    }

    private JsonRpcInput read(String line) {
        return JsonRpcInput.read(mapper, line.getBytes(StandardCharsets.UTF_8));
    }

    /** A tools/call whose arguments hold {@code value}. */
    private static String request(String value) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"read_file\","
                + "\"arguments\":{\"deep\":" + value + "}}}";
    }

    /** Arrays in arrays, such that the request holding them is nested {@code depth} levels deep in all. */
    private static String nested(int depth) {
        return "[".repeat(depth - 3) + "1" + "]".repeat(depth - 3);
    }
}
