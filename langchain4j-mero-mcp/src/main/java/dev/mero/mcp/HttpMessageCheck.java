package dev.mero.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Set;

/**
 * Checks the body of an HTTP POST before the SDK's servlet reads it, with the same rules as the stdio transport
 * ({@link JsonRpcInput}): no JSON is a parse error, no single valid message an invalid request, an
 * {@code initialize} or {@code tools/call} without a params object invalid params. The servlet would answer the
 * first two with the exception object it caught and the last with an empty stream.
 */
final class HttpMessageCheck {

    private static final Set<String> PARAMS_REQUIRED = Set.of(McpSchema.METHOD_INITIALIZE,
            McpSchema.METHOD_TOOLS_CALL);

    private final McpJsonMapper mapper;

    HttpMessageCheck(McpJsonMapper mapper) {
        this.mapper = mapper;
    }

    /** The JSON-RPC error answering {@code body}, or {@code null} if the body is a message the SDK may have. */
    Map<String, Object> invalid(byte[] body) {
        JsonRpcInput in = JsonRpcInput.read(mapper, body);
        if (in.isError()) {
            return in.errorReply();
        }
        if (in.message() instanceof McpSchema.JSONRPCRequest request && PARAMS_REQUIRED.contains(request.method())
                && !(request.params() instanceof Map)) {
            return JsonRpcInput.errorReply(request.id(), McpSchema.ErrorCodes.INVALID_PARAMS,
                    StrictParamsMapper.PARAMS_REQUIRED_MESSAGE);
        }
        return null;
    }

    String json(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
