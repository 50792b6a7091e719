package dev.mero.mcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A minimal MCP client over stdio for measuring servers: raw JSON-RPC lines, one thread, no JSON library, so
 * that the client's own cost per call is small next to the server's and the same for every server. It starts
 * the server, initializes the session and sends {@code tools/call} requests with up to a given number in
 * flight, checking each answer by its id and a marker text.
 */
final class LineClient implements AutoCloseable {

    private final Process process;
    private final OutputStream toServer;
    private final InputStream fromServer;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(8192);
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private long nextId = 1;

    private LineClient(Process process) {
        this.process = process;
        this.toServer = process.getOutputStream();
        this.fromServer = process.getInputStream();
    }

    /** Starts {@code command} (stderr discarded) and initializes an MCP session with it. */
    static LineClient start(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        LineClient client = new LineClient(process);
        long id = client.nextId++;
        client.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}}");
        client.awaitAnswer(id, "serverInfo");
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return client;
    }

    /**
     * Makes {@code calls} calls of {@code tool} with {@code {"path": path}}, keeping up to {@code inFlight}
     * unanswered; every answer must be a result (not an error) that contains {@code marker}.
     */
    void call(String tool, String path, int calls, int inFlight, String marker) throws IOException {
        String prefix = ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":{\"path\":\""
                + path + "\"}}}";
        long first = nextId;
        int sent = 0;
        int answered = 0;
        while (answered < calls) {
            while (sent < calls && sent - answered < inFlight) {
                send("{\"jsonrpc\":\"2.0\",\"id\":" + nextId++ + prefix);
                sent++;
            }
            String answer = readLine();
            long id = idOf(answer);
            if (id < first || id >= nextId || !answer.contains(marker) || answer.contains("\"isError\":true")) {
                throw new IllegalStateException("unexpected answer: " + abbreviated(answer));
            }
            answered++;
        }
    }

    /** The server's CPU time so far, user and system. */
    Duration cpu() {
        return process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /** The server process's resident memory in KiB ({@code VmRSS}), 0 where {@code /proc} does not say. */
    long residentKib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc",
                    Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    private void send(String message) throws IOException {
        toServer.write((message + "\n").getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }

    private void awaitAnswer(long id, String marker) throws IOException {
        while (true) {
            String answer = readLine();
            if (idOf(answer) == id) {
                if (!answer.contains(marker)) {
                    throw new IllegalStateException("unexpected answer: " + abbreviated(answer));
                }
                return;
            }
        }
    }

    /** The next line that is a JSON object (a JVM may print a notice before the protocol starts). */
    private String readLine() throws IOException {
        while (true) {
            line.reset();
            while (true) {
                if (position == limit) {
                    limit = fromServer.read(buffer);
                    position = 0;
                    if (limit < 0) {
                        throw new IOException("the server closed its output");
                    }
                }
                int end = position;
                while (end < limit && buffer[end] != '\n') {
                    end++;
                }
                line.write(buffer, position, end - position);
                boolean complete = end < limit;
                position = complete ? end + 1 : end;
                if (complete) {
                    break;
                }
            }
            String text = line.toString(StandardCharsets.UTF_8);
            if (text.startsWith("{")) {
                return text;
            }
        }
    }

    /** The numeric id of an answer, or -1. */
    private static long idOf(String answer) {
        int at = answer.lastIndexOf("\"id\":");
        if (at < 0) {
            return -1;
        }
        int start = at + 5;
        int end = start;
        while (end < answer.length() && Character.isDigit(answer.charAt(end))) {
            end++;
        }
        return end == start ? -1 : Long.parseLong(answer.substring(start, end));
    }

    private static String abbreviated(String text) {
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }

    /** Closes the server's input and waits for it to exit. */
    @Override
    public void close() throws IOException {
        toServer.close();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
