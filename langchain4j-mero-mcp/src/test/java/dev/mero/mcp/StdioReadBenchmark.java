package dev.mero.mcp;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Calls per second of a 4 KiB {@code read_file} over stdio: the packaged jar against a reference stdio MCP
 * server (the Node filesystem server) in the same run, on the same file, driven by the same minimal client
 * ({@link LineClient}: raw JSON-RPC lines, so that the client's own cost is small and equal for both). Not a
 * test: run it by hand after {@code mvn package}, from the module's directory, with the test classpath (the
 * "MCP server over stdio" section of docs/benchmarks.md has the commands):
 * <pre>
 * java -cp target/test-classes:$(cat target/test.cp) dev.mero.mcp.StdioReadBenchmark \
 *     --reference .../server-filesystem/dist/index.js
 * </pre>
 * <ul>
 *   <li>warm: both servers are started and warmed up ({@code --warmup} calls each), then {@code --rounds} rounds
 *       of {@code --calls} sequential calls alternate between them, so a busy machine disturbs both alike;</li>
 *   <li>cold: {@code --cold-rounds} times, each server is started afresh and timed from the start of its
 *       process through initialization and {@code --cold-calls} calls.</li>
 * </ul>
 * Prints each round (calls/s and the server's CPU time per call), then the ratio ours/reference of the median
 * rates and of the best rates, the median time from a cold process start to the {@code initialize} answer, and
 * each server's resident memory (one stdio process is one MCP session) after the warm rounds. {@code --in-flight N} keeps N calls outstanding instead of one. Every answer is
 * checked (a result, not an error, containing the file's marker), so a fast wrong answer does not count.
 */
public final class StdioReadBenchmark {

    private static final String MARKER = "bench-marker";

    private StdioReadBenchmark() {
    }

    /**
     * Runs the benchmark.
     *
     * @param args {@code [--reference index.js] [--reference-command "cmd args {dir}"] [--calls N] [--warmup N]
     *             [--rounds N] [--cold-calls N] [--cold-rounds N] [--in-flight N]
     *             [--jvm-option OPTION]...} (an option for our server's JVM, e.g. a flight recording)
     * @throws Exception if a server fails
     */
    public static void main(String[] args) throws Exception {
        int calls = 5000;
        int warmup = 20000;
        int rounds = 5;
        int coldCalls = 2000;
        int coldRounds = 3;
        int inFlight = 1;
        String referenceCommand = null;
        List<String> jvmOptions = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--reference" -> referenceCommand = "node " + args[++i] + " {dir}";
                case "--reference-command" -> referenceCommand = args[++i];
                case "--calls" -> calls = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--cold-calls" -> coldCalls = Integer.parseInt(args[++i]);
                case "--cold-rounds" -> coldRounds = Integer.parseInt(args[++i]);
                case "--in-flight" -> inFlight = Integer.parseInt(args[++i]);
                case "--jvm-option" -> jvmOptions.add(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        Path dir = Files.createTempDirectory("mero-bench").toRealPath();
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Path file = Files.writeString(ws.resolve("page.txt"), TestFiles.page(MARKER));
        Path policy = Files.writeString(dir.resolve("policy.yaml"),
                "paths:\n  - path: ws\n    slug: ws\n    allow: [READ]\n");
        List<Server> servers = new ArrayList<>();
        List<String> oursCommand = new ArrayList<>(List.of(ServerProcess.java()));
        oursCommand.addAll(jvmOptions);
        oursCommand.addAll(List.of("-jar", ServerProcess.jar().toAbsolutePath().toString(), "--policy", policy.toString()));
        servers.add(new Server("langchain4j-mero-mcp", oursCommand, "read_file", "/ws/page.txt"));
        if (referenceCommand != null) {
            servers.add(new Server("reference", Arrays.stream(referenceCommand.trim().split("\\s+"))
                    .map(arg -> arg.replace("{dir}", ws.toString())).toList(), "read_text_file", file.toString()));
        }
        System.out.printf("4 KiB read, %d call(s) in flight%n", inFlight);
        servers.forEach(server -> System.out.printf("  %s: %s%n", server.name, String.join(" ", server.command)));

        if (rounds > 0) {
            System.out.printf("warm: %d warm-up calls each, then %d alternating rounds of %d calls%n", warmup,
                    rounds, calls);
            List<LineClient> clients = new ArrayList<>();
            try {
                for (Server server : servers) {
                    LineClient client = LineClient.start(server.command);
                    clients.add(client);
                    client.call(server.tool, server.path, warmup, inFlight, MARKER);
                }
                for (int s = 0; s < servers.size(); s++) {
                    servers.get(s).residentKib = clients.get(s).residentKib();
                }
                for (int round = 1; round <= rounds; round++) {
                    for (int s = 0; s < servers.size(); s++) {
                        Server server = servers.get(s);
                        LineClient client = clients.get(s);
                        long cpu = client.cpu().toNanos();
                        long start = System.nanoTime();
                        client.call(server.tool, server.path, calls, inFlight, MARKER);
                        double rate = server.warm.add(calls, System.nanoTime() - start);
                        System.out.printf("  round %d %-22s %6.0f calls/s  server CPU %4.0f us/call%n", round,
                                server.name, rate, (client.cpu().toNanos() - cpu) / 1e3 / calls);
                    }
                }
            } finally {
                for (LineClient client : clients) {
                    client.close();
                }
            }
        }
        if (coldRounds > 0) {
            System.out.printf("cold: %d rounds of process start, initialize and %d calls%n", coldRounds, coldCalls);
            for (int round = 1; round <= coldRounds; round++) {
                for (Server server : servers) {
                    long start = System.nanoTime();
                    try (LineClient client = LineClient.start(server.command)) {
                        server.initialize.add((System.nanoTime() - start) / 1e6);
                        client.call(server.tool, server.path, coldCalls, inFlight, MARKER);
                        double rate = server.cold.add(coldCalls, System.nanoTime() - start);
                        System.out.printf("  round %d %-22s %6.0f calls/s%n", round, server.name, rate);
                    }
                }
            }
        }
        for (Server server : servers) {
            System.out.printf("%-22s warm median %6.0f best %6.0f calls/s | cold median %6.0f best %6.0f calls/s%n",
                    server.name, server.warm.median(), server.warm.best(), server.cold.median(), server.cold.best());
        }
        for (Server server : servers) {
            System.out.printf("%-22s start to the initialize answer: median %.0f ms (%s); resident memory after "
                    + "the warm rounds: %,d KiB%n", server.name, Rates.median(server.initialize),
                    server.initialize.stream().map(ms -> String.format("%.0f", ms)).toList(), server.residentKib);
        }
        if (servers.size() == 2) {
            Server ours = servers.get(0);
            Server reference = servers.get(1);
            System.out.printf("ratio ours/reference: warm median %.2fx best %.2fx | cold median %.2fx best %.2fx%n",
                    ours.warm.median() / reference.warm.median(), ours.warm.best() / reference.warm.best(),
                    ours.cold.median() / reference.cold.median(), ours.cold.best() / reference.cold.best());
        }
        System.exit(0);
    }

    /** A server under test and its measured rates. */
    private static final class Server {
        final String name;
        final List<String> command;
        final String tool;
        final String path;
        final Rates warm = new Rates();
        final Rates cold = new Rates();
        final List<Double> initialize = new ArrayList<>();
        long residentKib;

        Server(String name, List<String> command, String tool, String path) {
            this.name = name;
            this.command = command;
            this.tool = tool;
            this.path = path;
        }
    }

    /** Calls per second of several rounds. */
    private static final class Rates {
        private final List<Double> rates = new ArrayList<>();

        double add(int calls, long nanos) {
            double rate = calls / (nanos / 1e9);
            rates.add(rate);
            return rate;
        }

        double median() {
            return median(rates);
        }

        static double median(List<Double> rates) {
            if (rates.isEmpty()) {
                return Double.NaN;
            }
            List<Double> sorted = rates.stream().sorted().toList();
            int middle = sorted.size() / 2;
            return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
        }

        double best() {
            return rates.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }
    }
}
