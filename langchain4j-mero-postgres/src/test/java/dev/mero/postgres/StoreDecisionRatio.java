package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.guard.Operation;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RetryBudget;
import dev.mero.core.replay.ToolCallReplays;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * One guarded decision with each shared PostgreSQL store against a bare {@code SELECT 1} on the same pool, in
 * one run: interleaved rounds (every scenario once per round, the round's {@code SELECT 1} as its floor), the
 * median of the rounds' ratios (to {@code SELECT 1} and to a bare one-row upsert, the floor of any decision that
 * must write), the connections borrowed per decision (each borrow is one round trip for the
 * store's function calls), and the machine's load before and after. Single-threaded: the ratio of two
 * latencies. Not a test: {@code langchain4j-mero-benchmarks/run-benchmarks.sh} runs it (profile
 * {@code decision-ratio}), or by hand:
 * <pre>
 * mvn -B -ntp -Pdecision-ratio -pl langchain4j-mero-postgres -am verify -DskipTests
 * </pre>
 * It starts a private server as the tests do ({@link PostgresServer}), once with fsync off (a commit costs no disk
 * flush) and once with fsync on (every durable commit waits for the disk, which {@code SELECT 1} never does);
 * {@code -Dmero.fsync=off} or {@code on} runs one of them. The row "the same as version 7 did" calls the functions
 * of schema version 7 (permit, reservation, end: three round trips) for a comparison in the same run, and "the
 * same through mero_decide" takes a permit as the store did before it sent {@code mero_decide}'s fast path as one
 * statement (the function call, without the guard).
 */
public final class StoreDecisionRatio {

    private static final int ROUNDS = Integer.getInteger("mero.rounds", 9);
    private static final Duration SLICE = Duration.ofMillis(Long.getLong("mero.sliceMillis", 300));

    private StoreDecisionRatio() {
    }

    /**
     * Runs the rounds and prints one line per scenario.
     *
     * @param args unused
     * @throws Exception if the server cannot be started
     */
    public static void main(String[] args) throws Exception {
        Path workspace = Files.createTempDirectory("mero-ratio");
        Files.writeString(workspace.resolve("a.txt"), "a");
        for (String fsync : System.getProperty("mero.fsync", "off,on").split(",")) {
            measure(workspace, "on".equals(fsync.trim()));
        }
    }

    /** The rounds on a private server whose commits wait for the disk ({@code fsync}) or not. */
    private static void measure(Path workspace, boolean fsync) {
        String loadBefore = load();
        try (PostgresServer server = PostgresServer.startNew(fsync);
             HikariDataSource pool = PostgresServer.pool(server.createDatabase(), 4);
             PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(counting(pool, BORROWS)).migrate(true)
                     .build()) {
            RateLimit generous = RateLimit.perSecond(1_000_000);
            SecurityContext plain = context(workspace).build();
            SecurityContext limited = context(workspace).rateLimit(generous).rateLimitStore(store.rateLimits())
                    .build();
            SecurityContext budgeted = context(workspace).retryBudget(RetryBudget.builder()
                    .store(store.retryBudgets(), "bench").build()).build();
            SecurityContext decided = context(workspace).rateLimit(generous).rateLimitStore(store.rateLimits())
                    .retryBudget(RetryBudget.builder().store(store.retryBudgets(), "bench").build()).build();
            SecurityContext audited = context(workspace).auditLog(AuditLog.builder().sink(store.auditSink()).build())
                    .build();
            ApprovalStore approvals = store.approvals(Duration.ofMinutes(1), "bench");
            AtomicLong ids = new AtomicLong();

            Map<String, Runnable> scenarios = new LinkedHashMap<>();
            scenarios.put(SELECT_1, () -> execute(pool, "SELECT 1"));
            execute(pool, "CREATE TABLE public.bench_row (id integer PRIMARY KEY, n bigint NOT NULL)");
            scenarios.put(UPSERT, () -> execute(pool,
                    "INSERT INTO public.bench_row AS b VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET n = b.n + 1"));
            scenarios.put("guard, no store (path decision only)", () -> plain.guard(Operation.FILE_READ, "/ws/a.txt"));
            scenarios.put("guard + rate limit", () -> limited.guard(Operation.FILE_READ, "/ws/a.txt"));
            scenarios.put("  the same through mero_decide (no UPDATE)", () -> execute(pool, "SELECT taken FROM"
                    + " public.mero_decide('v8', 1, 1000000, 1000000, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)"));
            scenarios.put("guard + retry budget", () -> budgeted.guard(Operation.FILE_READ, "/ws/a.txt"));
            scenarios.put("guard + rate limit + retry budget", () -> decided.guard(Operation.FILE_READ, "/ws/a.txt"));
            scenarios.put("  the same as version 7 did (3 calls)", () -> {
                String attempt = "a" + ids.incrementAndGet(); // one row per attempt, as the store's own ids
                execute(pool, "SELECT taken FROM public.mero_rate_take('v7', 1, 1000000, 1000000, 0, true)");
                execute(pool, "SELECT reserved FROM public.mero_retry_begin('v7', 'read_file', 'd', 7, 600000000, 3,"
                        + " ?, 600000000)", attempt);
                execute(pool, "SELECT public.mero_retry_end('v7', 'read_file', 'd', 7, ?, 'RELEASED', 600000000, 3)",
                        attempt);
            });
            scenarios.put("guard + audit row", () -> audited.guard(Operation.FILE_READ, "/ws/a.txt"));
            scenarios.put("replayed call (claim + complete)", () -> ToolCallReplays.run(store.replays(), "bench/s",
                    "c" + ids.incrementAndGet(), Duration.ofSeconds(5), () -> new ToolCallReplays.Result("ok", false)));
            scenarios.put("approval lookup (pending(id))", () -> approvals.pending("no-such-request"));

            Map<String, long[]> nanos = new LinkedHashMap<>();
            Map<String, Double> borrows = new LinkedHashMap<>();
            scenarios.keySet().forEach(name -> nanos.put(name, new long[ROUNDS]));
            for (Map.Entry<String, Runnable> scenario : scenarios.entrySet()) {
                measure(scenario.getValue(), SLICE); // warm-up: JIT, prepared statements, pool
                long before = BORROWS.get();
                long ops = measure(scenario.getValue(), SLICE)[0];
                borrows.put(scenario.getKey(), (BORROWS.get() - before) / (double) ops);
            }
            for (int round = 0; round < ROUNDS; round++) {
                for (Map.Entry<String, Runnable> scenario : scenarios.entrySet()) {
                    long[] result = measure(scenario.getValue(), SLICE);
                    nanos.get(scenario.getKey())[round] = result[1] / result[0];
                }
            }
            print(nanos, borrows, fsync);
            System.out.println("server-side prepared on one pooled connection: " + prepared(pool));
            System.out.printf(Locale.ROOT, "%d rounds of %d ms per scenario, interleaved; load average before: %s,"
                    + " after: %s; %d cores%n%n", ROUNDS, SLICE.toMillis(), loadBefore, load(),
                    Runtime.getRuntime().availableProcessors());
        }
    }

    private static final String SELECT_1 = "SELECT 1 (bare, same pool)";
    private static final String UPSERT = "bare one-row upsert (a write's floor)";

    private static void print(Map<String, long[]> nanos, Map<String, Double> borrows, boolean fsync) {
        long[] floor = nanos.get(SELECT_1);
        long[] write = nanos.get(UPSERT);
        System.out.println(fsync ? "fsync on: every durable commit waits for the disk"
                : "fsync off: a commit costs no disk flush");
        System.out.printf(Locale.ROOT, "%-40s %10s %10s %10s %10s%n", "scenario (1 thread)", "median us",
                "x SELECT 1", "x upsert", "borrows");
        for (Map.Entry<String, long[]> row : nanos.entrySet()) {
            double[] ratios = new double[ROUNDS];
            double[] writes = new double[ROUNDS];
            for (int round = 0; round < ROUNDS; round++) {
                ratios[round] = row.getValue()[round] / (double) floor[round];
                writes[round] = row.getValue()[round] / (double) write[round];
            }
            System.out.printf(Locale.ROOT, "%-40s %10.1f %10.2f %10.2f %10s%n", row.getKey(),
                    median(row.getValue()) / 1_000.0, median(ratios), median(writes),
                    borrows.containsKey(row.getKey()) && !row.getKey().startsWith("  ")
                            ? String.format(Locale.ROOT, "%.2f", borrows.get(row.getKey())) : "");
        }
    }

    private static SecurityContext.Builder context(Path workspace) {
        return SecurityContext.builder().name("bench").path(PathEntry.of(workspace.toString(), "ws", Permission.READ));
    }

    /** The store's statements this session prepared on the server (the driver does after 5 executions). */
    private static List<String> prepared(DataSource pool) {
        List<String> found = new java.util.ArrayList<>();
        try (Connection connection = pool.getConnection();
             PreparedStatement statement = connection.prepareStatement("SELECT pg_catalog.substring(statement,"
                     + " 'mero_[a-z_]+') FROM pg_catalog.pg_prepared_statements WHERE statement LIKE '%mero_%'"
                     + " ORDER BY 1");
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                found.add(rows.getString(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return found;
    }

    private static void execute(DataSource pool, String sql, String... parameters) {
        try (Connection connection = pool.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setString(i + 1, parameters[i]);
            }
            statement.execute();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs the operation for about the slice; returns {operations, nanoseconds}. */
    private static long[] measure(Runnable operation, Duration slice) {
        long start = System.nanoTime();
        long end = start + slice.toNanos();
        long ops = 0;
        long now;
        do {
            operation.run();
            ops++;
            now = System.nanoTime();
        } while (now < end);
        return new long[] {ops, now - start};
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2.0;
    }

    private static String load() {
        try {
            return String.join(" ", List.of(Files.readString(Path.of("/proc/loadavg")).split(" ")).subList(0, 3));
        } catch (java.io.IOException | RuntimeException e) {
            return "unknown";
        }
    }

    private static final AtomicLong BORROWS = new AtomicLong();

    /** The pool, counting in {@code borrows} the connections borrowed through it (the store's, not the baseline's). */
    static DataSource counting(HikariDataSource pool, AtomicLong borrows) {
        return new DataSource() {
            @Override
            public Connection getConnection() throws SQLException {
                borrows.incrementAndGet();
                return pool.getConnection();
            }

            @Override
            public Connection getConnection(String user, String password) throws SQLException {
                borrows.incrementAndGet();
                return pool.getConnection(user, password);
            }

            @Override
            public PrintWriter getLogWriter() throws SQLException {
                return pool.getLogWriter();
            }

            @Override
            public void setLogWriter(PrintWriter out) throws SQLException {
                pool.setLogWriter(out);
            }

            @Override
            public void setLoginTimeout(int seconds) throws SQLException {
                pool.setLoginTimeout(seconds);
            }

            @Override
            public int getLoginTimeout() throws SQLException {
                return pool.getLoginTimeout();
            }

            @Override
            public Logger getParentLogger() {
                return Logger.getGlobal();
            }

            @Override
            public <T> T unwrap(Class<T> type) throws SQLException {
                return pool.unwrap(type);
            }

            @Override
            public boolean isWrapperFor(Class<?> type) throws SQLException {
                return pool.isWrapperFor(type);
            }
        };
    }
}
