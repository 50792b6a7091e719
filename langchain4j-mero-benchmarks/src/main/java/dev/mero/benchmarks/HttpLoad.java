package dev.mero.benchmarks;

import dev.mero.core.policy.SecurityPolicy;
import dev.mero.core.ops.MeroOperations;
import dev.mero.mcp.MeroMcpHttpServer;
import dev.mero.mcp.MeroMcpServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A bounded loopback load test of the MCP server over Streamable HTTP: {@code clients} concurrent SDK clients
 * (default 32), each authenticated by its own API key and so running as its own caller, call {@code read_file} on
 * 4 KiB files for a fixed time after a warm-up; prints calls per second and the p50/p99/max latency of one call.
 * Not a JMH benchmark (it measures a server under concurrent load, not one operation) and not run by the tests.
 *
 * <p>Run: {@code java -cp langchain4j-mero-benchmarks/target/benchmarks.jar dev.mero.benchmarks.HttpLoad
 * [seconds] [clients] [warm-up seconds]} (defaults 10, 32, 5).
 */
public final class HttpLoad {

    private static final int FILES = 64;
    private static final int FILE_BYTES = 4096;

    private HttpLoad() {
    }

    /**
     * Measures and prints.
     *
     * @param args optionally the measured seconds, the number of clients and the warm-up seconds
     * @throws Exception if the server cannot start or a call fails
     */
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int clients = args.length > 1 ? Integer.parseInt(args[1]) : 32;
        int warmUp = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Path root = Files.createTempDirectory("mero-http-load");
        try {
            Path ws = Files.createDirectories(root.resolve("ws"));
            byte[] content = new byte[FILE_BYTES];
            Arrays.fill(content, (byte) 'x');
            for (int i = 0; i < FILES; i++) {
                Files.write(ws.resolve("f" + i + ".txt"), content);
            }
            StringBuilder keys = new StringBuilder();
            for (int i = 0; i < clients; i++) {
                keys.append("      - {caller: c").append(i).append(", sha256: \"").append(sha256(key(i)))
                        .append("\", scopes: [\"files:*:read\"]}\n");
            }
            Path policy = Files.writeString(root.resolve("policy.yaml"), "name: load\npaths:\n"
                    + "  - {path: ws, slug: ws, allow: [READ]}\nserver:\n  auth:\n    api_keys:\n" + keys);
            MeroMcpServer tools = MeroMcpServer.builder(MeroOperations.forContext(MeroMcpServer.loadPolicy(policy)))
                    .build();
            try (MeroMcpHttpServer server = MeroMcpHttpServer.builder(tools,
                    SecurityPolicy.serverSettings(policy).orElseThrow()).port(0).build()) {
                server.start();
                run(server, clients, warmUp, seconds);
            }
        } finally {
            try (var paths = Files.walk(root)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
        // a safeguard: no thread the SDK's clients may leave behind keeps the run waiting
        System.exit(0);
    }

    private static void run(MeroMcpHttpServer server, int clients, int warmUp, int seconds) throws Exception {
        List<McpSyncClient> sessions = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            String bearer = "Bearer " + key(i);
            HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport
                    .builder("http://127.0.0.1:" + server.port())
                    .endpoint(MeroMcpHttpServer.ENDPOINT)
                    .httpRequestCustomizer((request, method, uri, body, context) -> request.header("Authorization", bearer))
                    .build();
            McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
            client.initialize();
            sessions.add(client);
        }
        long[][] latencies = new long[clients][];
        int[] counts = new int[clients];
        AtomicBoolean measuring = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(clients);
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < clients; i++) {
            int client = i;
            latencies[i] = new long[1 << 20];
            Thread thread = new Thread(() -> {
                try {
                    int n = 0;
                    while (!stop.get()) {
                        long start = System.nanoTime();
                        McpSchema.CallToolResult result = sessions.get(client).callTool(new McpSchema.CallToolRequest(
                                "read_file", Map.of("path", "/ws/f" + (n++ % FILES) + ".txt")));
                        long took = System.nanoTime() - start;
                        if (Boolean.TRUE.equals(result.isError())) {
                            throw new IllegalStateException(((McpSchema.TextContent) result.content().get(0)).text());
                        }
                        if (measuring.get() && counts[client] < latencies[client].length) {
                            latencies[client][counts[client]++] = took;
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                } finally {
                    done.countDown();
                }
            }, "load-" + i);
            thread.start();
        }
        Thread.sleep(warmUp * 1000L);
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        measuring.set(true);
        long begin = System.nanoTime();
        long cpuBegin = os.getProcessCpuTime();
        Thread.sleep(seconds * 1000L);
        measuring.set(false);
        long elapsed = System.nanoTime() - begin;
        long cpu = os.getProcessCpuTime() - cpuBegin;
        stop.set(true);
        done.await();
        sessions.forEach(McpSyncClient::closeGracefully);
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a call failed", failures.get(0));
        }
        int total = Arrays.stream(counts).sum();
        long[] all = new long[total];
        int at = 0;
        for (int i = 0; i < clients; i++) {
            System.arraycopy(latencies[i], 0, all, at, counts[i]);
            at += counts[i];
        }
        Arrays.sort(all);
        System.out.printf("HTTP read_file, %d clients (one API key each), 4 KiB files, %d s after %d s warm-up:%n",
                clients, seconds, warmUp);
        System.out.printf("  %d calls, %.0f calls/s, latency p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", total,
                total / (elapsed / 1e9), percentile(all, 0.50), percentile(all, 0.99), all[all.length - 1] / 1e6);
        System.out.printf("  CPU per call (server and clients, one JVM): %.0f µs%n", cpu / 1e3 / Math.max(1, total));
        System.out.printf("  load average at the end: %s%n",
                Files.readString(Path.of("/proc/loadavg")).trim());
    }

    private static double percentile(long[] sorted, double p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
    }

    private static String key(int i) {
        return "load-test-key-" + i + "-0123456789abcdef";
    }

    private static String sha256(String key) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
    }
}
