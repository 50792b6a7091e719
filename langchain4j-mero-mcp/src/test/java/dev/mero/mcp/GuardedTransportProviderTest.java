package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

class GuardedTransportProviderTest {

    @Test
    void anInternalErrorLosesItsMessageAndData() {
        JSONRPCResponse leaky = JSONRPCResponse.error(7, new JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR,
                "java.lang.IllegalStateException: /home/alice/secret/key.txt", "Caused by: java.io.IOException"));

        McpSchema.JSONRPCMessage sent = GuardedTransportProvider.sanitized(leaky);

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

        assertThat(GuardedTransportProvider.sanitized(invalidParams)).isSameAs(invalidParams);
        assertThat(GuardedTransportProvider.sanitized(result)).isSameAs(result);
    }

    @Test
    void theCallOfAnUnlistedToolIsAnsweredByNameOnceTheServerSaysHow() {
        GuardedTransportProvider provider = new GuardedTransportProvider(new OneSessionProvider(new UnicastTransport()));
        JSONRPCResponse unknown = JSONRPCResponse.error(7, new JSONRPCError(
                McpSchema.ErrorCodes.INVALID_PARAMS, "Unknown tool: invalid_tool_name", "Tool not found: rm\nrf"));
        assertThat(provider.outgoing(unknown)).as("no answer configured").isSameAs(unknown);

        provider.answerUnlistedTools(name -> McpSchema.CallToolResult.builder().addTextContent("refused " + name)
                .isError(true).build());

        assertThat(provider.outgoing(unknown)).isInstanceOfSatisfying(JSONRPCResponse.class, response -> {
            assertThat(response.id()).isEqualTo(7);
            assertThat(response.error()).isNull();
            assertThat(response.result()).isEqualTo(McpSchema.CallToolResult.builder().addTextContent("refused rm\nrf")
                    .isError(true).build());
        });
        for (JSONRPCResponse other : java.util.List.of(
                JSONRPCResponse.error(1, new JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS, "Invalid params", null)),
                JSONRPCResponse.error(1, new JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS,
                        "Unknown tool: invalid_tool_name", Map.of("x", 1))),
                JSONRPCResponse.error(1, new JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS,
                        "Unknown tool: invalid_tool_name", "something else")),
                JSONRPCResponse.error(1, new JSONRPCError(McpSchema.ErrorCodes.METHOD_NOT_FOUND,
                        "Unknown tool: invalid_tool_name", "Tool not found: x")),
                JSONRPCResponse.result(1, Map.of()))) {
            assertThat(provider.outgoing(other)).isSameAs(other);
        }
    }

    @Test
    void messagesSentFromManyThreadsAtOnceAreAllDelivered() throws Exception {
        UnicastTransport unicast = new UnicastTransport();
        McpServerTransport guarded = guard(new GuardedTransportProvider(new OneSessionProvider(unicast)));
        int threads = 8;
        int perThread = 2000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> senders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                senders.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        guarded.sendMessage(JSONRPCResponse.result(thread * perThread + i, Map.of())).block();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> sender : senders) {
                sender.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(unicast.received).hasSize(threads * perThread);
        assertThat(unicast.received.stream().map(message -> ((JSONRPCResponse) message).id()).distinct().count())
                .isEqualTo(threads * perThread);
    }

    @Test
    void closingTheSessionsTransportIsSignalled() throws Exception {
        GuardedTransportProvider provider = new GuardedTransportProvider(new OneSessionProvider(new UnicastTransport()));
        McpServerTransport guarded = guard(provider);

        assertThat(provider.awaitClosed(0, TimeUnit.SECONDS)).isFalse();
        guarded.close();
        assertThat(provider.awaitClosed(0, TimeUnit.SECONDS)).isTrue();
    }

    /** The transport the provider hands to a new session. */
    private static McpServerTransport guard(GuardedTransportProvider provider) {
        McpServerTransport[] guarded = new McpServerTransport[1];
        provider.setSessionFactory(transport -> {
            guarded[0] = transport;
            return null;
        });
        return guarded[0];
    }

    /** Emits into a unicast sink the way the SDK's stdio transport does: a concurrent emission fails. */
    private static final class UnicastTransport implements McpServerTransport {
        private final Sinks.Many<McpSchema.JSONRPCMessage> sink = Sinks.many().unicast().onBackpressureBuffer();
        private final List<McpSchema.JSONRPCMessage> received = Collections.synchronizedList(new ArrayList<>());

        UnicastTransport() {
            sink.asFlux().subscribe(received::add);
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.defer(() -> sink.tryEmitNext(message).isSuccess() ? Mono.empty()
                    : Mono.error(new IllegalStateException("Failed to enqueue message")));
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }
    }

    private record OneSessionProvider(McpServerTransport transport) implements McpServerTransportProvider {
        @Override
        public void setSessionFactory(McpServerSession.Factory sessionFactory) {
            sessionFactory.create(transport);
        }

        @Override
        public Mono<Void> notifyClients(String method, Object params) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }
    }
}
