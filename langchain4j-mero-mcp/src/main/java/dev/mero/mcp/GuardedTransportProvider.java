package dev.mero.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Wraps a server transport provider at the one place every outgoing message passes:
 * <ul>
 *   <li>no internal error tells the client more than {@value #INTERNAL_ERROR_MESSAGE}: the SDK turns any
 *       exception a handler throws into a JSON-RPC internal error carrying the exception's message and the
 *       messages of its causes (class names, host paths); every error response with code
 *       {@link McpSchema.ErrorCodes#INTERNAL_ERROR} is rewritten, and the original logged for the operator;</li>
 *   <li>messages are handed to the transport one at a time: the SDK's stdio transport puts them into a unicast
 *       sink that refuses (and so loses) a message emitted while another thread emits, which happens as soon as
 *       two tool calls finish together; the client then waits forever for the lost answer;</li>
 *   <li>a call of a tool the server does not list is answered with the server's own refusal, a tool result
 *       with {@code isError: true} that names the tool (the SDK answers every such call with the fixed JSON-RPC
 *       error {@value #UNKNOWN_TOOL_MESSAGE} and the name only in its data);</li>
 *   <li>it tells when the session's transport closed.</li>
 * </ul>
 */
final class GuardedTransportProvider implements McpServerTransportProvider {

    /** The only message an internal error carries to the client. */
    static final String INTERNAL_ERROR_MESSAGE = "Internal error";

    /** The SDK's error message for a call of a tool it has no handler for. */
    static final String UNKNOWN_TOOL_MESSAGE = "Unknown tool: invalid_tool_name";
    /** What the SDK puts before the called name in that error's data. */
    private static final String UNKNOWN_TOOL_DATA = "Tool not found: ";

    private static final Logger LOG = LoggerFactory.getLogger(GuardedTransportProvider.class);

    private final McpServerTransportProvider delegate;
    private final CountDownLatch closed = new CountDownLatch(1);
    /** The answer to a call of an unlisted tool, by its name; {@code null} leaves the SDK's error as it is. */
    private volatile Function<String, CallToolResult> unlistedTool;

    GuardedTransportProvider(McpServerTransportProvider delegate) {
        this.delegate = delegate;
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        delegate.setSessionFactory(transport -> sessionFactory.create(new GuardedTransport(transport)));
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return delegate.notifyClients(method, params);
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return delegate.notifyClient(sessionId, method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }

    /** Answers calls of unlisted tools with {@code answer} instead of the SDK's anonymous error. */
    void answerUnlistedTools(Function<String, CallToolResult> answer) {
        this.unlistedTool = answer;
    }

    /** The message to send instead of {@code message}: the call of an unlisted tool answered, then sanitized. */
    McpSchema.JSONRPCMessage outgoing(McpSchema.JSONRPCMessage message) {
        return outgoing(message, unlistedTool);
    }

    /**
     * The message to send instead of {@code message}: the call of an unlisted tool answered with {@code answer}
     * (unless {@code null}), then sanitized.
     */
    static McpSchema.JSONRPCMessage outgoing(McpSchema.JSONRPCMessage message, Function<String, CallToolResult> answer) {
        if (answer != null && message instanceof JSONRPCResponse response && response.error() != null
                && Integer.valueOf(McpSchema.ErrorCodes.INVALID_PARAMS).equals(response.error().code())
                && UNKNOWN_TOOL_MESSAGE.equals(response.error().message())
                && response.error().data() instanceof String data && data.startsWith(UNKNOWN_TOOL_DATA)) {
            return JSONRPCResponse.result(response.id(), answer.apply(data.substring(UNKNOWN_TOOL_DATA.length())));
        }
        return sanitized(message);
    }

    /** Waits until a session's transport has closed (for stdio: the client closed stdin). */
    boolean awaitClosed(long timeout, TimeUnit unit) throws InterruptedException {
        return closed.await(timeout, unit);
    }

    /** The response to send instead of {@code message}: the same, except for internal errors. */
    static McpSchema.JSONRPCMessage sanitized(McpSchema.JSONRPCMessage message) {
        if (message instanceof JSONRPCResponse response && response.error() != null
                && Integer.valueOf(McpSchema.ErrorCodes.INTERNAL_ERROR).equals(response.error().code())
                && (!INTERNAL_ERROR_MESSAGE.equals(response.error().message()) || response.error().data() != null)) {
            LOG.warn("Internal error answered to request {} without its details: {} {}", response.id(),
                    response.error().message(), response.error().data());
            return JSONRPCResponse.error(response.id(), new JSONRPCResponse.JSONRPCError(
                    McpSchema.ErrorCodes.INTERNAL_ERROR, INTERNAL_ERROR_MESSAGE, null));
        }
        return message;
    }

    private final class GuardedTransport implements McpServerTransport {

        private final McpServerTransport transport;
        private final Object sending = new Object();

        GuardedTransport(McpServerTransport transport) {
            this.transport = transport;
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            McpSchema.JSONRPCMessage safe = outgoing(message);
            // Subscribing emits synchronously once the transport is ready, so the lock serialises emissions.
            return Mono.create(sink -> {
                synchronized (sending) {
                    transport.sendMessage(safe).subscribe(null, sink::error, sink::success);
                }
            });
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return transport.unmarshalFrom(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return transport.closeGracefully().doFinally(signal -> closed.countDown());
        }

        @Override
        public void close() {
            try {
                transport.close();
            } finally {
                closed.countDown();
            }
        }

        @Override
        public List<String> protocolVersions() {
            return transport.protocolVersions();
        }
    }
}
