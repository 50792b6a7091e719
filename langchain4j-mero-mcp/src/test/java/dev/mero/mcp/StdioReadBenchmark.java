package dev.mero.mcp;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Calls per second of a 4 KiB {@code read_file} over stdio, through the SDK's client, against the packaged jar
 * or any other stdio MCP server (the reference filesystem server, for a comparison on identical work). Not a
 * test: run it by hand after {@code mvn package}, from the module's directory, with the test classpath (the
 * README's "Benchmarks" section has the commands):
 * <pre>
 * java -cp target/test-classes:$(cat target/test.cp) dev.mero.mcp.StdioReadBenchmark --calls 5000 --rounds 4
 * # another server: {dir} is the directory holding page.txt, {file} the file's absolute path
 * java -cp ... dev.mero.mcp.StdioReadBenchmark --tool read_text_file --path {file} -- node .../index.js {dir}
 * </pre>
 * Prints one line per round: calls, seconds, calls per second, and the server's CPU time per call (which a
 * busy machine disturbs less than the rate). Every answer is checked (not an error, the
 * file's marker in it), so a fast wrong answer does not count.
 */
public final class StdioReadBenchmark {

    private StdioReadBenchmark() {
    }

    /**
     * Runs the benchmark.
     *
     * @param args {@code [--calls N] [--warmup N] [--rounds N] [--concurrency N] [--tool NAME] [--path TEMPLATE]
     *             [-- command args...]}
     * @throws Exception if the server fails
     */
    public static void main(String[] args) throws Exception {
        int calls = 3000;
        int warmup = 2000;
        int rounds = 3;
        int concurrency = 1;
        String tool = "read_file";
        String pathTemplate = "/ws/page.txt";
        List<String> command = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--calls" -> calls = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
                case "--tool" -> tool = args[++i];
                case "--path" -> pathTemplate = args[++i];
                case "--" -> {
                    command.addAll(Arrays.asList(args).subList(i + 1, args.length));
                    i = args.length;
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory("mero-bench").toRealPath();
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Path file = Files.writeString(ws.resolve("page.txt"), TestFiles.page("bench-marker"));
        Path policy = Files.writeString(dir.resolve("policy.yaml"),
                "paths:\n  - path: ws\n    slug: ws\n    allow: [READ]\n");
        if (command.isEmpty()) {
            command = List.of(ServerProcess.java(), "-jar",
                    ServerProcess.jar().toString(), "--policy", policy.toString());
        } else {
            command = command.stream().map(arg -> arg.replace("{dir}", ws.toString())
                    .replace("{file}", file.toString())).toList();
        }
        String path = pathTemplate.replace("{dir}", ws.toString()).replace("{file}", file.toString());
        StdioClientTransport transport = new SerialStdioClientTransport(ServerParameters.builder(command.get(0))
                .args(command.subList(1, command.size())).build(), ServerProcess.MAPPER);
        transport.setStdErrorHandler(line -> { });
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(60)).build();
        client.initialize();
        McpSchema.CallToolRequest request = McpSchema.CallToolRequest.builder(tool).arguments(Map.of("path", path)).build();
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        try {
            System.out.printf("server: %s%ntool: %s %s, concurrency %d%n", String.join(" ", command), tool, path,
                    concurrency);
            run(client, request, warmup, pool, concurrency);
            for (int round = 1; round <= rounds; round++) {
                long serverCpu = serverCpuNanos();
                long start = System.nanoTime();
                run(client, request, calls, pool, concurrency);
                double seconds = (System.nanoTime() - start) / 1e9;
                double cpuMicros = (serverCpuNanos() - serverCpu) / 1e3 / calls;
                System.out.printf("round %d: %d calls in %.2f s = %.0f calls/s; server CPU %.0f us/call%n", round,
                        calls, seconds, calls / seconds, cpuMicros);
            }
        } finally {
            pool.shutdownNow();
            client.closeGracefully();
        }
        System.exit(0);
    }

    /** CPU time of the server process (the only child of this JVM), user and system. */
    private static long serverCpuNanos() {
        return ProcessHandle.current().children()
                .mapToLong(child -> child.info().totalCpuDuration().map(Duration::toNanos).orElse(0L))
                .sum();
    }

    private static void run(McpSyncClient client, McpSchema.CallToolRequest request, int calls, ExecutorService pool,
                            int concurrency) throws Exception {
        List<Future<?>> workers = new ArrayList<>();
        for (int worker = 0; worker < concurrency; worker++) {
            int share = calls / concurrency + (worker < calls % concurrency ? 1 : 0);
            workers.add(pool.submit(() -> {
                for (int call = 0; call < share; call++) {
                    CallToolResult result = client.callTool(request);
                    String text = ServerProcess.text(result);
                    if (Boolean.TRUE.equals(result.isError()) || !text.contains("bench-marker")) {
                        throw new IllegalStateException("unexpected answer: " + text);
                    }
                }
                return null;
            }));
        }
        for (Future<?> worker : workers) {
            worker.get(10, TimeUnit.MINUTES);
        }
    }
}
