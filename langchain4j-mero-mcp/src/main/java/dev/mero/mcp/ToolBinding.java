package dev.mero.mcp;

import dev.mero.core.MeroToolsException;
import dev.mero.core.ops.CallerNarrowing;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolHints;
import dev.mero.core.ops.ToolResponse;
import dev.mero.core.replay.ReplayStore;
import dev.mero.core.replay.ToolCallReplays;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One catalogue tool as an MCP tool: name, description and input schema from the descriptor, its hints as
 * MCP tool annotations, and a call handler that runs the operation and maps the outcome. A call whose transport
 * names a caller ({@link CallerNarrowing#CALLER} and {@link CallerNarrowing#SCOPES} in the transport context, as
 * the HTTP transport puts them there for an authenticated caller) runs in the context narrowed to that caller.
 */
final class ToolBinding {

    private static final Logger LOG = LoggerFactory.getLogger(ToolBinding.class);

    /**
     * The {@code _meta} key under which a client may name the model's tool-call id: MCP itself has none (a
     * JSON-RPC request id is per session and per attempt), so only a client that passes the model's id gets
     * replays. A repeated id returns the first result on any instance sharing the context's replay store.
     */
    static final String CALL_ID = "dev.mero/toolCallId";

    private final ToolDescriptor descriptor;
    private final CallerNarrowing callers;

    ToolBinding(ToolDescriptor descriptor, MeroOperations operations) {
        this(operations == null ? null : new CallerNarrowing(operations), descriptor);
    }

    /** The tool, each call run with the operations of the caller its transport names. */
    ToolBinding(CallerNarrowing callers, ToolDescriptor descriptor) {
        this.descriptor = descriptor;
        this.callers = callers;
    }

    /** The MCP tool definition. */
    McpSchema.Tool tool(McpJsonMapper mapper) {
        ToolHints hints = descriptor.hints();
        return McpSchema.Tool.builder(descriptor.name(), mapper, descriptor.jsonSchema())
                .description(descriptor.description())
                .annotations(McpSchema.ToolAnnotations.builder()
                        .readOnlyHint(hints.readOnly())
                        .destructiveHint(hints.destructive())
                        .idempotentHint(hints.idempotent())
                        .openWorldHint(hints.openWorld())
                        .build())
                .build();
    }

    /** The tool with its call handler, ready for the server. */
    SyncToolSpecification specification(McpJsonMapper mapper) {
        return SyncToolSpecification.builder().tool(tool(mapper)).callHandler(this::call).build();
    }

    /**
     * Runs one call through the core's one response path: a denial, an invalid input or an ordinary failure is
     * a tool result with {@code isError: true} and its model text, untrusted output is marked as data; anything
     * else is a bug: logged for the operator, and answered with an internal error that says nothing.
     */
    CallToolResult call(McpSyncServerExchange exchange, CallToolRequest request) {
        ApprovalClient client = exchange == null ? null : ApprovalClient.of(exchange);
        MeroOperations operations;
        try {
            operations = callers.operationsFor(exchange == null ? null : caller(exchange.transportContext()));
        } catch (MeroToolsException refused) {
            return result(ToolResponse.failure(refused)); // a caller whose scopes the policy does not have
        }
        Object id = request.meta() == null ? null : request.meta().get(CALL_ID);
        Optional<ReplayStore> store = !(id instanceof String callId) || callId.isBlank()
                || descriptor.hints().readOnly() ? Optional.empty() : operations.context().replayStore();
        if (store.isEmpty()) {
            return call(operations, client, request.arguments());
        }
        // MCP has no tool-call id of its own; a client that knows the model's names it in _meta
        String scope = ToolCallReplays.scope(operations.context().lineage(), null, null, descriptor.name(),
                String.valueOf(canonical(request.arguments())));
        return failClosed(() -> {
            ToolCallReplays.Result result;
            try {
                result = ToolCallReplays.run(store.get(), scope, (String) id, ToolCallReplays.DEFAULT_WAIT, () -> {
                    ToolResponse response = respond(operations, client, request.arguments());
                    return new ToolCallReplays.Result(response.text(), response.isError());
                });
            } catch (MeroToolsException e) {
                return result(ToolResponse.failure(e)); // the store refused or did not answer: nothing ran
            }
            return CallToolResult.builder().addTextContent(result.text()).isError(result.error()).build();
        });
    }

    CallToolResult call(ApprovalClient client, Map<String, Object> arguments) {
        return call(callers.base(), client, arguments);
    }

    private CallToolResult call(MeroOperations operations, ApprovalClient client, Map<String, Object> arguments) {
        return failClosed(() -> result(respond(operations, client, arguments)));
    }

    /** The caller entries of a transport context, or {@code null} when it names no caller. */
    static Map<String, Object> caller(McpTransportContext context) {
        if (context == null || context.get(CallerNarrowing.CALLER) == null) {
            return null;
        }
        Map<String, Object> entries = new HashMap<>();
        entries.put(CallerNarrowing.CALLER, context.get(CallerNarrowing.CALLER));
        if (context.get(CallerNarrowing.SCOPES) != null) {
            entries.put(CallerNarrowing.SCOPES, context.get(CallerNarrowing.SCOPES));
        }
        return entries;
    }

    private ToolResponse respond(MeroOperations operations, ApprovalClient client, Map<String, Object> arguments) {
        return CallingClient.during(client, () -> operations.respond(descriptor.name(),
                arguments == null ? Map.of() : arguments));
    }

    /** The arguments with every object's keys sorted: the same call spelled in another key order is the same. */
    private static Object canonical(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new TreeMap<>();
            map.forEach((key, item) -> sorted.put(String.valueOf(key), canonical(item)));
            return sorted;
        }
        if (value instanceof List<?> list) {
            return list.stream().map(ToolBinding::canonical).toList();
        }
        return value;
    }

    private CallToolResult failClosed(Supplier<CallToolResult> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            LOG.error("Tool {} failed with an unexpected exception; the client gets an internal error",
                    descriptor.name(), e);
            throw McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR)
                    .message(GuardedTransportProvider.INTERNAL_ERROR_MESSAGE).build();
        }
    }

    /** The MCP result of the core's response: its text, and its error flag as {@code isError}. */
    static CallToolResult result(ToolResponse response) {
        return CallToolResult.builder().addTextContent(response.text()).isError(response.isError()).build();
    }
}
