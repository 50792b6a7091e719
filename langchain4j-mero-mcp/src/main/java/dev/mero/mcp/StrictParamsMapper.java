package dev.mero.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.lang.reflect.Type;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A JSON mapper that reports request params of the wrong shape (a {@code tools/call} whose {@code arguments}
 * is an array, a {@code name} that is an object, ...) as a JSON-RPC "invalid params" error with a fixed
 * message, instead of the mapper's own failure, whose text names Java types. The params of {@code initialize}
 * and {@code tools/call} must be an object: missing ({@code null}) or of another kind they are invalid params
 * too (the mapper would pass {@code null} on, and the SDK would answer with an internal error).
 */
final class StrictParamsMapper extends ForwardingJsonMapper {

    /** The message of a params conversion failure. */
    static final String INVALID_PARAMS_MESSAGE = "Invalid params: they do not match the MCP schema of this "
            + "request (tools/call takes {\"name\": string, \"arguments\": object})";

    /** The message of a request that needs a params object and has none. */
    static final String PARAMS_REQUIRED_MESSAGE = "Invalid params: this request needs a params object";

    /** The requests whose params must be an object. */
    private static final Set<Type> PARAMS_REQUIRED = Set.of(McpSchema.InitializeRequest.class,
            McpSchema.CallToolRequest.class);

    StrictParamsMapper(McpJsonMapper delegate) {
        super(delegate);
    }

    @Override
    public <T> T convertValue(Object fromValue, Class<T> type) {
        requireObject(fromValue, type);
        return converted(() -> delegate.convertValue(fromValue, type));
    }

    @Override
    public <T> T convertValue(Object fromValue, TypeRef<T> type) {
        requireObject(fromValue, type.getType());
        if (type.getType() == McpSchema.CallToolRequest.class) {
            McpSchema.CallToolRequest call = plainCall(fromValue);
            if (call != null) {
                @SuppressWarnings("unchecked")
                T converted = (T) call;
                return converted;
            }
        }
        return converted(() -> delegate.convertValue(fromValue, type));
    }

    /**
     * The params of a {@code tools/call} as the SDK's type without a second pass through the JSON library, when
     * they hold nothing but a string {@code name}, an object {@code arguments} and an object {@code _meta} (as
     * read from JSON, so already of the types the conversion would give); null for any other shape, which the
     * conversion then judges as before.
     */
    @SuppressWarnings("unchecked")
    static McpSchema.CallToolRequest plainCall(Object params) {
        if (!(params instanceof Map<?, ?> map) || !(map.get("name") instanceof String name)) {
            return null;
        }
        Object arguments = map.get("arguments");
        Object meta = map.get("_meta");
        int known = 1 + (map.containsKey("arguments") ? 1 : 0) + (map.containsKey("_meta") ? 1 : 0);
        if (map.size() != known || arguments != null && !(arguments instanceof Map)
                || meta != null && !(meta instanceof Map)) {
            return null;
        }
        return new McpSchema.CallToolRequest(name, (Map<String, Object>) arguments, (Map<String, Object>) meta);
    }

    private static void requireObject(Object params, Type type) {
        if (!(params instanceof Map) && PARAMS_REQUIRED.contains(type)) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(PARAMS_REQUIRED_MESSAGE).build();
        }
    }

    private static <T> T converted(Supplier<T> conversion) {
        try {
            return conversion.get();
        } catch (McpError e) {
            throw e;
        } catch (RuntimeException e) {
            throw McpError.builder(McpSchema.ErrorCodes.INVALID_PARAMS).message(INVALID_PARAMS_MESSAGE).build();
        }
    }
}
