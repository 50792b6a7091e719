package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.guard.Operation;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.replay.InMemoryReplayStore;
import dev.mero.core.replay.ReplayStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decisions per second with the PostgreSQL stores against the in-memory defaults, on 1 and 8 threads: a
 * guarded read under a rate limit (in memory; in PostgreSQL; in PostgreSQL plus one audit row per
 * decision) and a replay-protected call (claim and complete). Not a test: run it by hand,
 * <pre>
 * mvn -B -ntp -Pthroughput -pl langchain4j-mero-postgres -am verify -DskipTests
 * </pre>
 * It starts a private server like the tests do ({@link PostgresServer}); figures depend on the machine
 * and its disk, so compare the ratios.
 */
public final class StoreThroughput {

    private static final Duration WARM_UP = Duration.ofSeconds(2);
    private static final Duration MEASURE = Duration.ofSeconds(5);

    private StoreThroughput() {
    }

    /**
     * Runs every scenario and prints one line per scenario and thread count.
     *
     * @param args unused
     * @throws Exception if the server cannot be started
     */
    public static void main(String[] args) throws Exception {
        Path workspace = Files.createTempDirectory("mero-bench");
        Files.writeString(workspace.resolve("a.txt"), "a");
        RateLimit generous = RateLimit.perSecond(1_000_000);
        try (PostgresServer server = PostgresServer.startNew();
             HikariDataSource pool = PostgresServer.pool(server.createDatabase(), 16);
             PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(pool).migrate(true).build()) {
            SecurityContext memory = context(workspace).rateLimit(generous).build();
            SecurityContext shared = context(workspace).rateLimit(generous).rateLimitStore(store.rateLimits()).build();
            SecurityContext audited = context(workspace).rateLimit(generous).rateLimitStore(store.rateLimits())
                    .auditLog(AuditLog.builder().sink(store.auditSink()).build()).build();
            ReplayStore memoryReplays = InMemoryReplayStore.create(1_000_000);
            AtomicLong ids = new AtomicLong();
            System.out.printf(Locale.ROOT, "%-40s %8s %14s%n", "scenario", "threads", "decisions/s");
            for (int threads : new int[] {1, 8}) {
                report("guarded read, rate limit in memory", threads,
                        () -> memory.guard(Operation.FILE_READ, "/ws/a.txt"));
                report("guarded read, rate limit in PostgreSQL", threads,
                        () -> shared.guard(Operation.FILE_READ, "/ws/a.txt"));
                report("... plus one audit row in PostgreSQL", threads,
                        () -> audited.guard(Operation.FILE_READ, "/ws/a.txt"));
                report("replayed call, in memory", threads, () -> memoryReplays.runOnce("bench",
                        "m" + ids.incrementAndGet(), Duration.ofSeconds(5), () -> "result"));
                report("replayed call, in PostgreSQL", threads, () -> store.replays().runOnce("bench",
                        "p" + ids.incrementAndGet(), Duration.ofSeconds(5), () -> "result"));
            }
        }
    }

    private static SecurityContext.Builder context(Path workspace) {
        return SecurityContext.builder().name("bench")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ))
                .auditLog(AuditLog.builder().build());
    }

    private static void report(String scenario, int threads, Runnable decision) throws InterruptedException {
        run(threads, decision, WARM_UP);
        long count = run(threads, decision, MEASURE);
        System.out.printf(Locale.ROOT, "%-40s %8d %14.0f%n", scenario, threads,
                count / (MEASURE.toNanos() / 1e9));
    }

    private static long run(int threads, Runnable decision, Duration duration) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong count = new AtomicLong();
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread worker = new Thread(() -> {
                long mine = 0;
                while (!stop.get()) {
                    decision.run();
                    mine++;
                }
                count.addAndGet(mine);
                done.countDown();
            });
            workers.add(worker);
            worker.start();
        }
        Thread.sleep(duration.toMillis());
        stop.set(true);
        done.await();
        return count.get();
    }
}
