package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.guard.Operation;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.RateLimitedException;
import dev.mero.core.RetryBudgetExceededException;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RetryBudget;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two application instances in one JVM, each with its own pool and its own store and contexts, against one
 * real PostgreSQL database: they share one rate limit exactly, one retry budget, pending approvals (decided
 * on the other instance, or by a plain SQL writer) and replayed calls.
 */
class SharedStoresTest {

    private static HikariDataSource poolA;
    private static HikariDataSource poolB;
    private static PostgresPolicyStore storeA;
    private static PostgresPolicyStore storeB;

    @TempDir
    Path workspace;

    @BeforeAll
    static void twoInstances() {
        String url = PostgresServer.shared().createDatabase();
        poolA = PostgresServer.pool(url, 12);
        poolB = PostgresServer.pool(url, 12);
        // a minute between polls: only a notification can wake a waiter within the tests' bounds
        storeA = PostgresPolicyStore.builder().dataSource(poolA).migrate(true).instance("instance-a")
                .pollInterval(Duration.ofMinutes(1)).build();
        storeB = PostgresPolicyStore.builder().dataSource(poolB).migrate(true).instance("instance-b")
                .pollInterval(Duration.ofMinutes(1)).build();
    }

    @AfterAll
    static void close() {
        storeA.close();
        storeB.close();
        poolA.close();
        poolB.close();
    }

    private SecurityContext context(PostgresPolicyStore store, String name, RateLimit limit) throws Exception {
        Files.createDirectories(workspace);
        return SecurityContext.builder().name(name)
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .rateLimit(limit).rateLimitStore(store.rateLimits())
                .build();
    }

    @Test
    void twoInstancesRacingShareOneRateLimitExactly() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "a");
        // 25 calls per hour: no permit flows back during the test, so exactly 25 calls may pass in all
        SecurityContext onA = context(storeA, "shared_limit", RateLimit.perHour(25));
        SecurityContext onB = context(storeB, "shared_limit", RateLimit.perHour(25));
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> calls = new ArrayList<>();
            for (int i = 0; i < 80; i++) {
                SecurityContext context = i % 2 == 0 ? onA : onB;
                calls.add(threads.submit(() -> {
                    go.await();
                    try {
                        context.guard(Operation.FILE_READ, "/ws/a.txt");
                        return true;
                    } catch (RateLimitedException limited) {
                        return false;
                    }
                }));
            }
            go.countDown();
            int allowed = 0;
            for (Future<Boolean> call : calls) {
                allowed += call.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(allowed).isEqualTo(25);
            assertThat(onA.rateLimiter().orElseThrow().availablePermits()).isZero();
        } finally {
            threads.shutdownNow();
        }
        assertThatThrownBy(() -> onB.guard(Operation.FILE_READ, "/ws/a.txt"))
                .isInstanceOf(RateLimitedException.class)
                .hasMessageContaining("exceeded its rate limit of 25 calls per hour");
    }

    @Test
    void permitsFlowBackOnTheDatabaseClock() throws Exception {
        // one permit per 200 ms, burst 1: after a refusal, waiting for the next permit lets one call through
        RateLimit limit = RateLimit.of(1, Duration.ofMillis(200));
        SecurityContext onA = context(storeA, "refill", limit);
        SecurityContext onB = context(storeB, "refill", limit);
        Files.writeString(workspace.resolve("b.txt"), "b");
        onA.guard(Operation.FILE_READ, "/ws/b.txt");
        long waitNanos = storeB.rateLimits().tryTake("refill", limit);
        assertThat(waitNanos).isPositive().isLessThanOrEqualTo(Duration.ofMillis(200).toNanos());
        awaitTrue(() -> onB.rateLimiter().orElseThrow().availablePermits() == 1);
        onB.guard(Operation.FILE_READ, "/ws/b.txt");
    }

    @Test
    void aRetryBudgetIsCountedOnceAcrossInstances() {
        RetryBudget onA = RetryBudget.builder().maxFailures(3).store(storeA.retryBudgets(), "budget").build();
        RetryBudget onB = RetryBudget.builder().maxFailures(3).store(storeB.retryBudgets(), "budget").build();
        CallKey key = CallKey.ofJson("read_file", "{\"path\":\"/ws/missing.txt\"}");
        CallKey sameArgumentsReordered = CallKey.ofJson("read_file", "{ \"path\" : \"/ws/missing.txt\" }");

        onA.recordFailure(key);
        onB.recordFailure(sameArgumentsReordered);
        assertThat(onA.failures(key)).isEqualTo(2);
        onA.recordFailure(key);
        assertThatThrownBy(() -> onB.check(key)).isInstanceOf(RetryBudgetExceededException.class);
        onB.recordFailure(key); // saturates at the ceiling
        assertThat(onA.failures(key)).isEqualTo(3);

        onB.recordSuccess(key);
        assertThat(onA.failures(key)).isZero();
        onA.check(key);
    }

    @Test
    void concurrentFailuresAreEachCountedOnce() throws Exception {
        CallKey key = CallKey.of("flaky", "same");
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> counts = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                PostgresPolicyStore store = i % 2 == 0 ? storeA : storeB;
                counts.add(threads.submit(() -> store.retryBudgets().recordFailure("concurrent", key,
                        Duration.ofMinutes(10), 100)));
            }
            List<Integer> seen = new ArrayList<>();
            for (Future<Integer> count : counts) {
                seen.add(count.get(60, TimeUnit.SECONDS));
            }
            // each increment returned a distinct count: none lost, none doubled
            assertThat(seen).containsExactlyInAnyOrderElementsOf(range(1, 40));
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void anApprovalRequestedOnOneInstanceIsDecidedOnTheOtherAndWakesTheWaiter() throws Exception {
        Files.writeString(workspace.resolve("plan.md"), "old");
        SecurityContext onA = SecurityContext.builder().name("approver_test")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .requireApproval(Permission.WRITE)
                .approval(storeA.approvals(Duration.ofMinutes(5)))
                .build();
        ApprovalStore onB = storeB.approvals(Duration.ofMinutes(5));
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<?> waiting = thread.submit(() -> onA.guard(Operation.FILE_WRITE, "/ws/plan.md", "diff"));
            ApprovalRequest seen = awaitValue(() -> onB.pending().stream()
                    .filter(request -> request.contextName().equals("approver_test")).findFirst().orElse(null));
            assertThat(seen.action()).isEqualTo("WRITE: /ws/plan.md");
            assertThat(seen.details()).contains("diff");
            assertThat(seen.target()).contains(workspace.resolve("plan.md").toRealPath());

            assertThat(onB.complete(seen.id(), ApprovalDecision.APPROVED)).isTrue();
            assertThat(onB.complete(seen.id(), ApprovalDecision.DENIED)).as("one decision only").isFalse();
            // the waiter polls once a minute: returning well within that means the notification woke it
            waiting.get(30, TimeUnit.SECONDS);
            assertThat(onB.pending(seen.id())).isEmpty();
            assertThat(row(seen.id())).isEqualTo("APPROVED by instance-b");
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void anyWriterToTheTableCanRefuseAndTheWaiterIsWoken() throws Exception {
        ApprovalStore onA = storeA.approvals(Duration.ofMinutes(5));
        ApprovalRequest request = ApprovalRequest.builder().contextName("web_page").permissions(Permission.DELETE)
                .subject("/ws/old.log").build();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<ApprovalDecision> decision = thread.submit(() -> onA.decide(request));
            awaitTrue(() -> storeB.approvals(Duration.ofMinutes(1)).pending(request.id()).isPresent());
            try (Connection connection = poolB.getConnection();
                 PreparedStatement refuse = connection.prepareStatement("UPDATE mero_approval SET decision ="
                         + " 'DENIED', decided_by = 'alice@web' WHERE id = ? AND decision IS NULL")) {
                refuse.setString(1, request.id());
                assertThat(refuse.executeUpdate()).isEqualTo(1);
            }
            assertThat(decision.get(30, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.DENIED);
            // a second writer cannot overturn the recorded decision
            try (Connection connection = poolB.getConnection();
                 PreparedStatement overturn = connection.prepareStatement(
                         "UPDATE mero_approval SET decision = 'APPROVED' WHERE id = ?")) {
                overturn.setString(1, request.id());
                assertThatThrownBy(overturn::executeUpdate).isInstanceOf(SQLException.class)
                        .hasMessageContaining("already decided");
            }
            assertThat(row(request.id())).isEqualTo("DENIED by alice@web");
        } finally {
            thread.shutdownNow();
        }
    }

    @Test
    void aTimedOutRequestTimesOutAndCanNoLongerBeApproved() throws Exception {
        ApprovalStore shortWait = storeA.approvals(Duration.ofMillis(300));
        ApprovalRequest request = ApprovalRequest.builder().contextName("nobody_answers")
                .permissions(Permission.WRITE).subject("/ws/x").build();

        assertThatThrownBy(() -> shortWait.decide(request)).isInstanceOf(ApprovalTimeoutException.class)
                .hasMessage("Approval of 'WRITE: /ws/x' timed out in context 'nobody_answers': nobody decided "
                        + "within 0.3s, so the action was not run.");
        assertThat(storeB.approvals(Duration.ofMinutes(1)).complete(request.id(), ApprovalDecision.APPROVED))
                .isFalse();
        assertThat(row(request.id())).isEqualTo("TIMED_OUT by instance-a");
    }

    @Test
    void aReplayedCallRunsOnceUnderARaceOfTwoInstances() throws Exception {
        AtomicInteger sideEffects = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(16);
        try {
            for (int round = 0; round < 5; round++) {
                String callId = "call_" + round;
                CountDownLatch go = new CountDownLatch(1);
                List<Future<String>> results = new ArrayList<>();
                int before = sideEffects.get();
                for (int i = 0; i < 16; i++) {
                    PostgresPolicyStore store = i % 2 == 0 ? storeA : storeB;
                    results.add(threads.submit(() -> {
                        go.await();
                        return store.replays().runOnce("worker_1", callId, Duration.ofSeconds(60),
                                () -> "wrote 3 bytes, run " + sideEffects.incrementAndGet());
                    }));
                }
                go.countDown();
                List<String> seen = new ArrayList<>();
                for (Future<String> result : results) {
                    seen.add(result.get(90, TimeUnit.SECONDS));
                }
                assertThat(sideEffects.get()).isEqualTo(before + 1);
                assertThat(seen).containsOnly("wrote 3 bytes, run " + (before + 1));
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aFailedFirstRunIsReplayedAsItsErrorText() {
        AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> storeA.replays().runOnce("worker_1", "failing", Duration.ofSeconds(5), () -> {
            runs.incrementAndGet();
            throw new dev.mero.core.OperationFailedException("File '/ws/x' does not exist.");
        })).hasMessage("File '/ws/x' does not exist.");
        assertThat(storeB.replays().runOnce("worker_1", "failing", Duration.ofSeconds(5), () -> {
            runs.incrementAndGet();
            return "second";
        })).isEqualTo("Error: File '/ws/x' does not exist.");
        assertThat(runs).hasValue(1);
        // ids are per scope
        assertThat(storeB.replays().runOnce("worker_2", "failing", Duration.ofSeconds(5), () -> "other scope"))
                .isEqualTo("other scope");
    }

    @Test
    void aRepeatWhoseFirstRunNeverCompletesFailsInsteadOfRunningAgain() {
        assertThat(storeA.replays().claim("worker_1", "lost_owner", Duration.ofSeconds(1)).isOwner()).isTrue();
        AtomicInteger runs = new AtomicInteger();
        assertThatThrownBy(() -> storeB.replays().runOnce("worker_1", "lost_owner", Duration.ofMillis(200),
                () -> "ran " + runs.incrementAndGet()))
                .isInstanceOf(dev.mero.core.OperationFailedException.class)
                .hasMessageContaining("already started");
        assertThat(runs).hasValue(0);
    }

    @Test
    void theSchemaIsCheckedAndNeverAlteredWithoutBeingAsked() throws Exception {
        // migrating again is a no-op; a store that does not migrate checks the version
        assertThat(SchemaMigrations.migrate(new Sql(poolA, Duration.ofSeconds(5), "public"))).isZero();
        PostgresPolicyStore.builder().dataSource(poolB).build().close();

        String emptyUrl = PostgresServer.shared().createDatabase();
        try (HikariDataSource empty = PostgresServer.pool(emptyUrl, 2)) {
            assertThatThrownBy(() -> PostgresPolicyStore.builder().dataSource(empty).build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("schema is at version 0 but this library needs version " + SchemaMigrations.latest());
            try (Connection connection = empty.getConnection();
                 ResultSet tables = connection.getMetaData().getTables(null, null, "mero_%", null)) {
                assertThat(tables.next()).as("nothing was created").isFalse();
            }
        }
    }

    @Test
    void purgeDeletesOnlyWhatIsOldAndNoLongerNeeded() throws Exception {
        String url = PostgresServer.shared().createDatabase();
        try (HikariDataSource pool = PostgresServer.pool(url, 4);
             PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(pool).migrate(true).build()) {
            store.replays().runOnce("w", "old_call", Duration.ofSeconds(5), () -> "done");
            store.retryBudgets().recordFailure("w", CallKey.of("read_file", "{}"), Duration.ofMinutes(10), 3);
            assertThatThrownBy(() -> store.approvals(Duration.ofMillis(10)).decide(ApprovalRequest.builder()
                    .contextName("w").permissions(Permission.WRITE).subject("/ws/x").build()))
                    .isInstanceOf(ApprovalTimeoutException.class);
            try (Connection connection = pool.getConnection();
                 java.sql.Statement age = connection.createStatement()) {
                age.execute("UPDATE mero_replay SET claimed_at = claimed_at - interval '2 hours'");
                age.execute("UPDATE mero_retry_budget SET last_failure = last_failure - interval '2 hours'");
                age.execute("UPDATE mero_approval SET requested_at = requested_at - interval '2 hours'");
            }
            store.replays().claim("w", "recent_call", Duration.ofSeconds(1));

            assertThat(store.purge(Duration.ofHours(1))).isEqualTo(3);
            assertThat(store.replays().claim("w", "old_call", Duration.ofSeconds(1)).isOwner())
                    .as("a purged id runs again").isTrue();
            assertThatThrownBy(() -> store.replays().claim("w", "recent_call", Duration.ofMillis(10)))
                    .hasMessageContaining("already started");
            assertThatThrownBy(() -> store.purge(Duration.ofSeconds(59))).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private static String row(String id) throws SQLException {
        try (Connection connection = poolA.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT decision, decided_by FROM mero_approval WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet row = select.executeQuery()) {
                assertThat(row.next()).isTrue();
                return row.getString(1) + " by " + row.getString(2);
            }
        }
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> values = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            values.add(i);
        }
        return values;
    }

    static void awaitTrue(Callable<Boolean> condition) throws Exception {
        awaitValue(() -> condition.call() ? Boolean.TRUE : null);
    }

    /** Waits (up to a minute) until the condition gives a value: a condition, never a fixed sleep. */
    static <T> T awaitValue(Callable<T> condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Map<String, Object> lock = new ConcurrentHashMap<>();
        while (true) {
            T value = condition.call();
            if (value != null) {
                return value;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 60 s");
            }
            synchronized (lock) {
                lock.wait(20);
            }
        }
    }
}
