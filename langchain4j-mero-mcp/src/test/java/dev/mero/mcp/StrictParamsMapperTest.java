package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class StrictParamsMapperTest {

    private final StrictParamsMapper mapper = new StrictParamsMapper(new JacksonMcpJsonMapper(JsonMapper.builder().build()));

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
}
