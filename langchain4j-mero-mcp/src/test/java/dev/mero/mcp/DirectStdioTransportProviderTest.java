package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpNotificationHandler;
import io.modelcontextprotocol.server.McpRequestHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The stdio transport with a real SDK session on in-process pipes, and two request methods: {@code block},
 * which holds its thread until the test releases it, and {@code echo}, which answers at once.
 */
class DirectStdioTransportProviderTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final CountDownLatch blocking = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch closed = new CountDownLatch(1);
    private PipedOutputStream toServer;
    private BufferedReader fromServer;

    @AfterEach
    void releaseAndClose() throws IOException {
        release.countDown();
        if (toServer != null) {
            toServer.close();
        }
    }

    @Test
    void aRequestThatBlocksTheReadingThreadDoesNotHoldUpTheNextOne() throws Exception {
        start();
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"block\"}");
        assertThat(blocking.await(60, TimeUnit.SECONDS)).isTrue(); // the thread that read it is held now
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"echo\",\"params\":{\"word\":\"second\"}}");

        JsonNode first = JSON.readTree(fromServer.readLine()); // arrives while request 1 still blocks
        release.countDown();
        JsonNode second = JSON.readTree(fromServer.readLine());

        assertThat(first.get("id").asInt()).isEqualTo(2);
        assertThat(first.at("/result/word").asText()).isEqualTo("second");
        assertThat(second.get("id").asInt()).isEqualTo(1);
        assertThat(second.at("/result/released").asBoolean()).isTrue();
    }

    @Test
    void aRequestSentTogetherWithABlockingOneIsNotHeldUpEither() throws Exception {
        start();
        send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"block\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"echo\",\"params\":{\"word\":\"b\"}}");

        JsonNode first = JSON.readTree(fromServer.readLine());
        release.countDown();

        assertThat(first.get("id").asInt()).isEqualTo(2);
        assertThat(JSON.readTree(fromServer.readLine()).get("id").asInt()).isEqualTo(1);
    }

    @Test
    void aLineThatIsNotJsonRpcIsAnsweredAndTheEndOfInputClosesTheSession() throws Exception {
        start();
        send("this is not json");
        send("");
        send("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"echo\",\"params\":{\"word\":\"still here\"}}");

        JsonNode parseError = JSON.readTree(fromServer.readLine()); // the empty line is skipped without an answer
        assertThat(parseError.get("id").isNull()).isTrue();
        assertThat(parseError.at("/error/code").asInt()).isEqualTo(McpSchema.ErrorCodes.PARSE_ERROR);
        JsonNode answer = JSON.readTree(fromServer.readLine());
        assertThat(answer.get("id").asText()).isEqualTo("a");
        assertThat(answer.at("/result/word").asText()).isEqualTo("still here");

        toServer.close();
        assertThat(closed.await(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void requestsBeyondTheRunningAndWaitingOnesAreRefusedAtOnceAndTheWaitingOnesRunLater() throws Exception {
        start();
        int queued = DirectStdioTransportProvider.MAX_CALLS_IN_FLIGHT + DirectStdioTransportProvider.MAX_CALLS_WAITING;
        StringBuilder lines = new StringBuilder();
        for (int id = 1; id <= queued; id++) {
            lines.append("{\"jsonrpc\":\"2.0\",\"id\":").append(id).append(",\"method\":\"block\"}\n");
        }
        lines.append("{\"jsonrpc\":\"2.0\",\"id\":\"over\",\"method\":\"echo\",\"params\":{}}");
        send(lines.toString());

        JsonNode refused = JSON.readTree(fromServer.readLine()); // every slot is held, and the waiting room is full
        assertThat(refused.get("id").asText()).isEqualTo("over");
        assertThat(refused.at("/error/code").asInt()).isEqualTo(DirectStdioTransportProvider.BUSY_CODE);
        release.countDown();
        Set<Integer> answered = new HashSet<>();
        for (int i = 0; i < queued; i++) {
            JsonNode answer = JSON.readTree(fromServer.readLine());
            assertThat(answer.at("/result/released").asBoolean()).isTrue();
            answered.add(answer.get("id").asInt());
        }
        assertThat(answered).hasSize(queued);
    }

    private void start() throws IOException {
        toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
        PipedInputStream out = new PipedInputStream(1 << 16);
        PipedOutputStream serverOut = new PipedOutputStream(out);
        fromServer = new BufferedReader(new InputStreamReader(out, StandardCharsets.UTF_8));
        McpJsonMapper mapper = ServerProcess.MAPPER;
        McpRequestHandler<Object> block = (exchange, params) -> Mono.fromCallable(() -> {
            blocking.countDown();
            assertThat(release.await(60, TimeUnit.SECONDS)).isTrue();
            return Map.of("released", true);
        });
        McpRequestHandler<Object> echo = (exchange, params) -> Mono.just(params);
        McpNotificationHandler initialized = (exchange, params) -> Mono.empty();
        new DirectStdioTransportProvider(mapper, serverIn, serverOut).setSessionFactory(transport ->
                new McpServerSession("test", Duration.ofSeconds(30), transport,
                        request -> Mono.error(new IllegalStateException("not used")),
                        Map.of("block", block, "echo", echo),
                        Map.of(McpSchema.METHOD_NOTIFICATION_INITIALIZED, initialized),
                        () -> Mono.fromRunnable(closed::countDown)));
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    private void send(String line) throws IOException {
        OutputStream in = toServer;
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }
}
