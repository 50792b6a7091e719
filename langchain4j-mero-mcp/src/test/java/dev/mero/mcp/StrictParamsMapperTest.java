package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StrictParamsMapperTest {

    private final StrictParamsMapper mapper = new StrictParamsMapper(new JacksonMcpJsonMapper(ProtocolJackson.mapper()));

    @Test
    void wellFormedParamsConvert() {
        CallToolRequest request = mapper.convertValue(Map.of("name", "read_file", "arguments", Map.of("path", "a")),
                new TypeRef<CallToolRequest>() {
                });

        assertThat(request.name()).isEqualTo("read_file");
        assertThat(request.arguments()).containsEntry("path", "a");
    }

    @Test
    void argumentsThatAreNoObjectAreInvalidParamsNamingNoJavaType() {
        McpError error = catchThrowableOfType(McpError.class, () -> mapper.convertValue(
                Map.of("name", "read_file", "arguments", List.of("a", "b")), new TypeRef<CallToolRequest>() {
                }));

        assertThat(error.getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
        assertThat(error.getJsonRpcError().message()).isEqualTo(StrictParamsMapper.INVALID_PARAMS_MESSAGE)
                .doesNotContain("java.", "LinkedHashMap", "Cannot deserialize");
        assertThat(error.getJsonRpcError().data()).isNull();
    }

    @Test
    void aWrongShapeIsInvalidParamsForClassTargetsToo() {
        McpError error = catchThrowableOfType(McpError.class,
                () -> mapper.convertValue(List.of(1, 2), McpSchema.InitializeRequest.class));

        assertThat(error.getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
    }

    @Test
    void aPlainCallIsBuiltAsTheConversionBuildsIt() throws Exception {
        JacksonMcpJsonMapper plain = new JacksonMcpJsonMapper(ProtocolJackson.mapper());
        for (String params : List.of("{\"name\":\"read_file\",\"arguments\":{\"path\":\"/ws/a\",\"n\":[1,2.5,null,true]}}",
                "{\"name\":\"list_roots\"}", "{\"name\":\"x\",\"arguments\":null,\"_meta\":{\"progressToken\":7}}")) {
            Object read = plain.readValue(params, Object.class);

            CallToolRequest fast = StrictParamsMapper.plainCall(read);

            assertThat(fast).isNotNull().isEqualTo(plain.convertValue(read, new TypeRef<CallToolRequest>() {
            }));
            assertThat(mapper.convertValue(read, new TypeRef<CallToolRequest>() {
            })).isEqualTo(fast);
        }
    }

    @Test
    void anyOtherShapeIsLeftToTheConversion() {
        assertThat(StrictParamsMapper.plainCall(Map.of("name", 7, "arguments", Map.of()))).isNull();
        assertThat(StrictParamsMapper.plainCall(Map.of("arguments", Map.of()))).isNull();
        assertThat(StrictParamsMapper.plainCall(Map.of("name", "a", "arguments", List.of()))).isNull();
        assertThat(StrictParamsMapper.plainCall(Map.of("name", "a", "_meta", "m"))).isNull();
        assertThat(StrictParamsMapper.plainCall(Map.of("name", "a", "task", Map.of()))).isNull();
        assertThat(StrictParamsMapper.plainCall(List.of("a"))).isNull();
        // a number as the name is still converted (to its text) as before
        assertThat(mapper.convertValue(Map.of("name", 7), new TypeRef<CallToolRequest>() {
        }).name()).isEqualTo("7");
    }

    @Test
    void requestsAndNotificationsAreReadAsTheSdkReadsThem() throws Exception {
        for (String line : List.of(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"read_file\",\"arguments\":{\"path\":\"/a\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":12345678901234,\"method\":\"ping\",\"extra\":1}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}")) {
            JsonRpcInput in = JsonRpcInput.read(mapper, line.getBytes(java.nio.charset.StandardCharsets.UTF_8));

            assertThat(in.isError()).isFalse();
            assertThat(in.message()).isEqualTo(McpSchema.deserializeJsonRpcMessage(mapper, line));
        }
    }
}
