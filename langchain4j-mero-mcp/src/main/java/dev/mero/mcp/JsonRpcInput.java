package dev.mero.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import java.io.IOException;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads one input line as a JSON-RPC 2.0 message, or names the error that answers it: a line that is not JSON
 * is a parse error ({@value ErrorCodes#PARSE_ERROR}); JSON that is not a single message object with
 * {@code "jsonrpc": "2.0"}, a string {@code method} and an {@code id} that is a string or an integer (never
 * {@code null}, an object or an array, as MCP requires) is an invalid request ({@value ErrorCodes#INVALID_REQUEST}).
 * Both are answered with {@code "id": null}, as JSON-RPC requires when the request's id cannot be known. The
 * SDK's own parser only throws for these, and its transports skip the line without an answer, so the client
 * waits for ever.
 *
 * <p>A response whose id is not valid cannot be answered (an answer to an answer could loop): it is only skipped.
 */
final class JsonRpcInput {

    /** The message of a parse error. */
    static final String PARSE_ERROR_MESSAGE = "Parse error: the line is not JSON";

    /** The message of an invalid request. */
    static final String INVALID_REQUEST_MESSAGE = "Invalid Request: a message is one JSON object with \"jsonrpc\": "
            + "\"2.0\", a string \"method\" and, for a request, an \"id\" that is a string or an integer";

    private final McpSchema.JSONRPCMessage message;
    private final int errorCode;

    private JsonRpcInput(McpSchema.JSONRPCMessage message, int errorCode) {
        this.message = message;
        this.errorCode = errorCode;
    }

    /**
     * Reads a line.
     *
     * @param mapper the protocol's JSON mapper
     * @param line   one input line, without its terminator
     * @return the message, or the error to answer, or neither (a response that is skipped)
     */
    static JsonRpcInput read(McpJsonMapper mapper, byte[] line) {
        Object json;
        try {
            json = mapper.readValue(line, Object.class);
        } catch (IOException | RuntimeException e) {
            return new JsonRpcInput(null, ErrorCodes.PARSE_ERROR);
        }
        if (!(json instanceof Map<?, ?> map) || !"2.0".equals(map.get("jsonrpc"))) {
            return invalid();
        }
        try {
            if (map.containsKey("method")) {
                if (!(map.get("method") instanceof String)) {
                    return invalid();
                }
                // built from the map read, as the conversion would build them, without a second pass through
                // the JSON library: the fields are already of their types (checked above), params stays as read
                String method = (String) map.get("method");
                if (!map.containsKey("id")) {
                    return new JsonRpcInput(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, method,
                            map.get("params")), 0);
                }
                return validId(map.get("id")) ? new JsonRpcInput(new McpSchema.JSONRPCRequest(
                        McpSchema.JSONRPC_VERSION, method, map.get("id"), map.get("params")), 0) : invalid();
            }
            if (map.containsKey("result") || map.containsKey("error")) {
                return new JsonRpcInput(validId(map.get("id"))
                        ? mapper.convertValue(map, McpSchema.JSONRPCResponse.class) : null, 0);
            }
        } catch (RuntimeException e) {
            return invalid(); // an envelope the SDK's types cannot hold (an error that is not an object, ...)
        }
        return invalid();
    }

    private static JsonRpcInput invalid() {
        return new JsonRpcInput(null, ErrorCodes.INVALID_REQUEST);
    }

    private static boolean validId(Object id) {
        return id instanceof String || id instanceof Integer || id instanceof Long || id instanceof BigInteger;
    }

    /** The message read, or {@code null}. */
    McpSchema.JSONRPCMessage message() {
        return message;
    }

    /** Whether the line is answered with an error (and has no message). */
    boolean isError() {
        return errorCode != 0;
    }

    /** The error answer, with {@code "id": null} (the SDK's response type leaves a null id out). */
    Map<String, Object> errorReply() {
        return errorReply(null, errorCode, errorCode == ErrorCodes.PARSE_ERROR ? PARSE_ERROR_MESSAGE
                : INVALID_REQUEST_MESSAGE);
    }

    /** A JSON-RPC error response; {@code id} may be {@code null}, which the SDK's response type cannot write. */
    static Map<String, Object> errorReply(Object id, int code, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", message);
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("jsonrpc", McpSchema.JSONRPC_VERSION);
        reply.put("id", id);
        reply.put("error", error);
        return reply;
    }
}
