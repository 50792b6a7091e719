package dev.mero.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.Function;

/**
 * The JSON mapper of the HTTP transport: the server's mapper, with what the SDK's servlet writes made safe, at the
 * one place every body passes:
 * <ul>
 *   <li>an {@link McpError} the servlet answers a bad request with (a body that is no JSON, a missing session) is
 *       written as a JSON-RPC error response with its code and message only: the SDK would serialize the
 *       exception object itself, stack trace and class names included;</li>
 *   <li>every JSON-RPC message goes through {@link GuardedTransportProvider#outgoing}: internal errors say only
 *       {@value GuardedTransportProvider#INTERNAL_ERROR_MESSAGE}, and the call of an unlisted tool gets the same
 *       refusal as over stdio.</li>
 * </ul>
 */
final class HttpMessageMapper extends ForwardingJsonMapper {

    private final Function<String, CallToolResult> unlistedTool;

    HttpMessageMapper(McpJsonMapper delegate, Function<String, CallToolResult> unlistedTool) {
        super(delegate);
        this.unlistedTool = unlistedTool;
    }

    @Override
    public String writeValueAsString(Object value) throws IOException {
        return delegate.writeValueAsString(safe(value));
    }

    @Override
    public byte[] writeValueAsBytes(Object value) throws IOException {
        return delegate.writeValueAsBytes(safe(value));
    }

    @Override
    void writeValue(OutputStream out, Object value) throws IOException {
        writeValue(delegate, out, safe(value));
    }

    private Object safe(Object value) {
        if (value instanceof McpError error) {
            McpSchema.JSONRPCResponse.JSONRPCError rpc = error.getJsonRpcError();
            int code = rpc != null && rpc.code() != null ? rpc.code() : McpSchema.ErrorCodes.INTERNAL_ERROR;
            String message = rpc != null && rpc.message() != null && code != McpSchema.ErrorCodes.INTERNAL_ERROR
                    ? rpc.message() : GuardedTransportProvider.INTERNAL_ERROR_MESSAGE;
            return JsonRpcInput.errorReply(null, code, message);
        }
        if (value instanceof Throwable) {
            return JsonRpcInput.errorReply(null, McpSchema.ErrorCodes.INTERNAL_ERROR,
                    GuardedTransportProvider.INTERNAL_ERROR_MESSAGE);
        }
        if (value instanceof McpSchema.JSONRPCMessage message) {
            return GuardedTransportProvider.outgoing(message, unlistedTool);
        }
        return value;
    }
}
