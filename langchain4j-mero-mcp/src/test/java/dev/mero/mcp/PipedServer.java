package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * A {@link MeroMcpServer} serving stdio on in-process pipes, spoken to line by line as a client would: the
 * real SDK server without a child process.
 */
final class PipedServer implements AutoCloseable {

    static final JsonMapper JSON = JsonMapper.builder().build();

    private final OutputStream in;
    private final BufferedReader out;
    private final CompletableFuture<Void> serving;

    private PipedServer(MeroMcpServer server) throws IOException {
        PipedOutputStream toServer = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(toServer, 1 << 16);
        PipedInputStream fromServer = new PipedInputStream(1 << 16);
        PipedOutputStream serverOut = new PipedOutputStream(fromServer);
        this.in = toServer;
        this.out = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8));
        this.serving = CompletableFuture.runAsync(() -> {
            try {
                server.serveStdio(serverIn, serverOut);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /** Starts serving without any handshake: the client's first line is the test's to send. */
    static PipedServer started(MeroMcpServer server) throws IOException {
        return new PipedServer(server);
    }

    /**
     * Starts serving and completes the initialisation handshake.
     *
     * @param server       the server
     * @param capabilities the client's capabilities as a JSON object text, e.g. {@code {}}
     */
    static PipedServer initialized(MeroMcpServer server, String capabilities) throws IOException {
        PipedServer piped = new PipedServer(server);
        piped.send("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":" + capabilities + ",\"clientInfo\":{\"name\":\"t\",\"version\":"
                + "\"1\"}}}");
        assertThat(piped.receive().get("id").asInt()).isZero();
        piped.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return piped;
    }

    /** Sends a {@code tools/call} request. */
    void callTool(int id, String name, String jsonArguments) throws IOException {
        send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                + JSON.writeValueAsString(name) + ",\"arguments\":" + jsonArguments + "}}");
    }

    void send(String line) throws IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    /** The next message the server writes. */
    JsonNode receive() throws IOException {
        String line = out.readLine();
        assertThat(line).as("the server closed the stream").isNotNull();
        return JSON.readTree(line);
    }

    @Override
    public void close() throws Exception {
        try (OutputStream closing = in; BufferedReader reading = out) {
            // closing the input ends the session
        }
        serving.get(60, TimeUnit.SECONDS);
    }
}
