package dev.mero.benchmarks;

import dev.mero.core.ops.MeroOperations;
import dev.mero.core.policy.SecurityPolicy;
import dev.mero.mcp.MeroMcpHttpServer;
import dev.mero.mcp.MeroMcpServer;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/**
 * The heap one MCP session over Streamable HTTP holds in the server: opens sessions in steps (each initialized,
 * {@code notifications/initialized} sent and one 4 KiB {@code read_file} served, so that it is a session a client
 * has used) and prints, after each step, the used heap after full collections minus the used heap before the
 * first session, divided by the live sessions. The client side is plain {@link HttpClient} requests whose only
 * state is the session ids, so what grows is the server's. Callers own at most
 * {@value MeroMcpHttpServer#SESSIONS_PER_CALLER} sessions each, so the sessions are spread over enough API keys.
 * Not a JMH benchmark and not run by the tests.
 *
 * <p>Run: {@code java -Xmx1g -cp langchain4j-mero-benchmarks/target/benchmarks.jar
 * dev.mero.benchmarks.HttpSessionMemory [sessions per step...]} (default 100 1000 5000, cumulative).
 */
public final class HttpSessionMemory {

    private static final int SESSIONS_PER_KEY = 16;
    private static final String ACCEPT = "application/json, text/event-stream";

    private HttpSessionMemory() {
    }

    /**
     * Measures and prints a Markdown table.
     *
     * @param args the live session counts to measure at, ascending (default 100 1000 5000)
     * @throws Exception if the server cannot start or a request fails
     */
    public static void main(String[] args) throws Exception {
        int[] steps = args.length == 0 ? new int[] {100, 1000, 5000}
                : Stream.of(args).mapToInt(Integer::parseInt).toArray();
        int keys = steps[steps.length - 1] / SESSIONS_PER_KEY + 1;
        Path root = Files.createTempDirectory("mero-http-sessions");
        try {
            Path ws = Files.createDirectories(root.resolve("ws"));
            Files.writeString(ws.resolve("page.txt"), "x".repeat(4095) + "\n");
            StringBuilder policy = new StringBuilder("name: sessions\npaths:\n"
                    + "  - {path: ws, slug: ws, allow: [READ]}\nserver:\n  auth:\n    api_keys:\n");
            for (int i = 0; i < keys; i++) {
                policy.append("      - {caller: c").append(i).append(", sha256: \"").append(sha256(key(i)))
                        .append("\", scopes: [\"files:*:read\"]}\n");
            }
            Path policyFile = Files.writeString(root.resolve("policy.yaml"), policy);
            MeroMcpServer tools = MeroMcpServer.builder(
                    MeroOperations.forContext(MeroMcpServer.loadPolicy(policyFile))).build();
            try (MeroMcpHttpServer server = MeroMcpHttpServer.builder(tools,
                    SecurityPolicy.serverSettings(policyFile).orElseThrow()).port(0).build()) {
                server.start();
                measure(URI.create("http://127.0.0.1:" + server.port() + MeroMcpHttpServer.ENDPOINT), steps);
            }
        } finally {
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        System.exit(0); // the SDK's and the HTTP client's threads would keep the JVM alive
    }

    private static void measure(URI endpoint, int[] steps) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        // one session opened, used and deleted first: classes loaded, pools and caches filled, not counted
        String first = open(http, endpoint, 0);
        http.send(request(endpoint, 0, first).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        long base = usedHeap();
        List<String> sessions = new ArrayList<>();
        System.out.println("| live sessions | heap held per session | used heap after GC |");
        System.out.println("|---:|---:|---:|");
        for (int step : steps) {
            while (sessions.size() < step) {
                sessions.add(open(http, endpoint, sessions.size() / SESSIONS_PER_KEY));
            }
            long used = usedHeap();
            System.out.printf("| %,d | %,.1f KiB | %,.1f MiB |%n", step, (used - base) / 1024.0 / step,
                    used / 1024.0 / 1024);
        }
        for (int i = 0; i < sessions.size(); i++) {
            http.send(request(endpoint, i / SESSIONS_PER_KEY, sessions.get(i)).DELETE().build(),
                    HttpResponse.BodyHandlers.discarding());
        }
    }

    /** Opens a session as caller {@code key}: initialize, initialized, one read; returns its id. */
    private static String open(HttpClient http, URI endpoint, int key) throws Exception {
        HttpResponse<String> init = http.send(request(endpoint, key, null).POST(body("{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"sessions\",\"version\":\"1\"}}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        String session = init.headers().firstValue("Mcp-Session-Id")
                .orElseThrow(() -> new IllegalStateException("no session: " + init.statusCode() + " " + init.body()));
        expect(http.send(request(endpoint, key, session).POST(body(
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).build(),
                HttpResponse.BodyHandlers.ofString()), "");
        expect(http.send(request(endpoint, key, session).POST(body("{\"jsonrpc\":\"2.0\",\"id\":2,"
                + "\"method\":\"tools/call\",\"params\":{\"name\":\"read_file\",\"arguments\":{\"path\":"
                + "\"/ws/page.txt\"}}}")).build(), HttpResponse.BodyHandlers.ofString()), "xxxx");
        return session;
    }

    private static void expect(HttpResponse<String> response, String text) {
        if (response.statusCode() / 100 != 2 || !response.body().contains(text)
                || response.body().contains("\"isError\":true")) {
            throw new IllegalStateException("unexpected answer " + response.statusCode() + ": " + response.body());
        }
    }

    private static HttpRequest.Builder request(URI endpoint, int key, String session) {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint).header("Authorization", "Bearer " + key(key))
                .header("Accept", ACCEPT).header("Content-Type", "application/json");
        if (session != null) {
            request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18");
        }
        return request;
    }

    private static HttpRequest.BodyPublisher body(String json) {
        return HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8);
    }

    private static long usedHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    private static String key(int i) {
        return "session-test-key-" + i + "-0123456789abcdef";
    }

    private static String sha256(String key) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(
                key.getBytes(StandardCharsets.UTF_8)));
    }
}
