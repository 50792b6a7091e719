package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.RateLimitedException;
import dev.mero.core.SecurityContext;
import dev.mero.core.guard.Operation;
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
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A guarded decision with the rate limit and the retry budget in PostgreSQL is one call of {@code mero_decide}:
 * one round trip for the permit and the reservation, a refused permit reserves nothing, the limit holds across
 * two instances racing, and the counts commit without waiting for the WAL flush (on a server whose commits wait for
 * the disk), for their own transaction only.
 */
class OneDecisionTest {

    private static HikariDataSource poolA;
    private static HikariDataSource poolB;
    private static PostgresPolicyStore storeA;
    private static PostgresPolicyStore storeB;
    private static final AtomicLong BORROWS = new AtomicLong();

    @TempDir
    static Path workspace;

    @BeforeAll
    static void twoInstances() throws Exception {
        String url = PostgresServer.shared().createDatabase();
        poolA = PostgresServer.pool(url, 6);
        poolB = PostgresServer.pool(url, 6);
        storeA = PostgresPolicyStore.builder().dataSource(StoreDecisionRatio.counting(poolA, BORROWS)).migrate(true)
                .build();
        storeB = PostgresPolicyStore.builder().dataSource(poolB).build();
        Files.writeString(workspace.resolve("a.txt"), "a");
    }

    @AfterAll
    static void close() {
        storeA.close();
        storeB.close();
        poolA.close();
        poolB.close();
    }

    private static SecurityContext context(PostgresPolicyStore store, String name, RateLimit limit) {
        return SecurityContext.builder().name(name).path(PathEntry.of(workspace.toString(), "ws", Permission.READ))
                .rateLimit(limit).rateLimitStore(store.rateLimits())
                .retryBudget(RetryBudget.builder().maxFailures(40).store(store.retryBudgets(), name).build()).build();
    }

    @Test
    void thePermitAndTheReservationAreOneRoundTripAndARefusedPermitReservesNothing() throws Exception {
        SecurityContext context = context(storeA, "one-trip", RateLimit.perHour(2));

        long before = BORROWS.get();
        String read = context.run(Operation.FILE_READ, "/ws/a.txt", null, null, target -> "ok");
        assertThat(read).isEqualTo("ok");
        assertThat(BORROWS.get() - before).as("mero_decide, then the attempt's end").isEqualTo(2);

        assertThatThrownBy(() -> context.run(Operation.FILE_READ, "/ws/a.txt", null, null, target -> {
            throw new IllegalStateException("the action failed");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(count("mero_retry_budget WHERE scope = 'one-trip'")).as("the failure is counted").isEqualTo(1);

        before = BORROWS.get();
        assertThatThrownBy(() -> context.run(Operation.FILE_READ, "/ws/a.txt", null, null, target -> "ok"))
                .isInstanceOf(RateLimitedException.class);
        assertThat(BORROWS.get() - before).as("one call, no attempt to end").isEqualTo(1);
        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "/ws/a.txt"))
                .as("a refused check over the limit sees the limit").isInstanceOf(RateLimitedException.class);
        assertThat(count("mero_retry_attempt WHERE scope = 'one-trip'")).isZero();
        assertThat(count("mero_retry_budget WHERE scope = 'one-trip' AND failures = 1"))
                .as("calls over the limit count no failure").isEqualTo(1);
    }

    @Test
    void twoInstancesRacingTakeExactlyTheLimit() throws Exception {
        List<SecurityContext> contexts = List.of(context(storeA, "race", RateLimit.perHour(5)),
                context(storeB, "race", RateLimit.perHour(8)));
        // the store learns the stricter limit (A's 5 an hour) from A's first decision; before that B's 8 is the only
        // limit it has seen, and how many of B's calls the scheduler lets in first is luck (6 at load 9), so A
        // decides once before the race
        contexts.get(0).guard(Operation.FILE_READ, "/ws/a.txt");
        int passed = 1 + TwoInstances.race(39, i -> {
            SecurityContext context = contexts.get(i % 2);
            return () -> {
                try {
                    context.guard(Operation.FILE_READ, "/ws/a.txt");
                    return true;
                } catch (RateLimitedException limited) {
                    return false;
                }
            };
        });
        assertThat(passed).isEqualTo(5);
        assertThat(count("mero_retry_attempt WHERE scope = 'race'")).as("every reservation ended").isZero();
    }

    @Test
    void theCountsCommitAsynchronouslyForTheirOwnTransactionOnlyWhereCommitsWaitForTheDisk() throws Exception {
        try (PostgresServer durable = PostgresServer.startNew(true);
             HikariDataSource pool = PostgresServer.pool(durable.createDatabase(), 2)) {
            PostgresPolicyStore.builder().dataSource(pool).migrate(true).build().close();
            assertThat(synchronousCommitDuringDecision(pool)).as("fsync on").isEqualTo("off");
            assertThat(synchronousCommitDuringStatement(pool)).as("fsync on, the permit's UPDATE").isEqualTo("off");
        }
        assertThat(synchronousCommitDuringDecision(poolA)).as("fsync off: nothing to wait for").isEqualTo("on");
        assertThat(synchronousCommitDuringStatement(poolA)).as("fsync off, the permit's UPDATE").isEqualTo("on");
    }

    /** synchronous_commit within a transaction that took a permit with the UPDATE the store sends first. */
    private static String synchronousCommitDuringStatement(HikariDataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
             PreparedStatement update = connection.prepareStatement(DecisionCall.fastTake("public.mero_rate_limit"))) {
            assertThat(single(statement, "SELECT taken FROM public.mero_decide('async-fast', 3600000000, 2, 2, 0, NULL,"
                    + " NULL, NULL, NULL, NULL, NULL, NULL, NULL)")).as("the bucket exists").isEqualTo("t");
            connection.setAutoCommit(false);
            update.setString(1, "async-fast");
            update.setLong(2, 3_600_000_000L);
            update.setLong(3, 2);
            update.setLong(4, 2);
            assertThat(update.executeUpdate()).as("the second permit").isOne();
            String during = single(statement, "SHOW synchronous_commit");
            connection.commit();
            assertThat(single(statement, "SHOW synchronous_commit")).as("the next transaction").isEqualTo("on");
            connection.setAutoCommit(true);
            assertThat(single(statement, "SELECT available FROM public.mero_rate_take('async-fast', 3600000000, 2, 2,"
                    + " 0, false)")).as("permits left").isEqualTo("0");
            return during;
        }
    }

    /** synchronous_commit within a transaction that called mero_decide; checks it is back after the commit. */
    private static String synchronousCommitDuringDecision(HikariDataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            String decide = "SELECT taken FROM public.mero_decide('async', 3600000000, 1, 1, 0, NULL, NULL, NULL,"
                    + " NULL, NULL, NULL, NULL, NULL)";
            connection.setAutoCommit(false);
            assertThat(single(statement, "SHOW synchronous_commit")).isEqualTo("on");
            assertThat(single(statement, decide)).isEqualTo("t");
            String during = single(statement, "SHOW synchronous_commit");
            connection.commit();
            assertThat(single(statement, "SHOW synchronous_commit")).as("the next transaction").isEqualTo("on");
            connection.setAutoCommit(true);
            assertThat(single(statement, decide)).as("the permit was committed").isEqualTo("f");
            assertThat(single(statement, "SHOW synchronous_commit")).as("an audit row's insert after it").isEqualTo("on");
            return during;
        }
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet row = statement.executeQuery(sql)) {
            return row.next() ? row.getString(1) : null;
        }
    }

    private static long count(String from) throws SQLException {
        try (Connection connection = poolA.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT count(*) FROM public." + from)) {
            row.next();
            return row.getLong(1);
        }
    }
}
