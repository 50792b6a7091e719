package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.limit.RateLimit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A permit the bucket has is taken by {@code mero_decide}'s own {@code UPDATE} sent as one statement, without the
 * function call: it moves the bucket exactly as {@code mero_decide} does, {@code mero_decide} still decides
 * every other case (a new bucket, another limit held, no permit left), and two instances racing on the fast path
 * take exactly the limit.
 */
class FastPermitTest {

    private static String url;
    private static HikariDataSource poolA;
    private static HikariDataSource poolB;
    private static PostgresPolicyStore storeA;
    private static PostgresPolicyStore storeB;

    @BeforeAll
    static void twoInstances() {
        url = PostgresServer.shared().createDatabase();
        poolA = PostgresServer.pool(url, 4);
        poolB = PostgresServer.pool(url, 4);
        storeA = PostgresPolicyStore.builder().dataSource(poolA).migrate(true).build();
        storeB = PostgresPolicyStore.builder().dataSource(poolB).build();
    }

    @AfterAll
    static void close() throws Exception {
        for (AutoCloseable each : new AutoCloseable[] {storeA, storeB, poolA, poolB}) {
            each.close();
        }
    }

    @Test
    void theStatementMovesTheBucketAsMeroDecideDoes() {
        DecisionCall call = new DecisionCall(new Sql(poolA, Duration.ofSeconds(5), "public"));
        RateLimit threePerHour = RateLimit.perHour(3);
        DecisionCall.Permit fast = new DecisionCall.Permit("fast", threePerHour, 0);
        DecisionCall.Permit function = new DecisionCall.Permit("function", threePerHour, 0);
        for (int permit = 0; permit < 4; permit++) {
            long byStatement = call.take("fast", fast);
            DecisionCall.Outcome byFunction = call.call("function", function, null);
            assertThat(byStatement == 0).as("permit %d", permit).isEqualTo(byFunction.taken())
                    .isEqualTo(permit < 3);
            // the statement returns no count: the bucket it left has as many as the function's
            assertThat(storeA.rateLimits().availablePermits("fast", threePerHour)).as("permit %d", permit)
                    .isEqualTo(byFunction.available()).isEqualTo(Math.max(0, 2 - permit));
            // the refused permit waits for the first one's 20 minutes, on each bucket's own clock
            long twentyMinutes = Duration.ofMinutes(20).toNanos();
            assertThat(byStatement).isBetween(permit < 3 ? 0L : 1L, permit < 3 ? 0L : twentyMinutes);
        }
    }

    @Test
    void aSequenceOfTakesMovesTheBucketExactlyAsMeroDecideDoes() throws Exception {
        DecisionCall call = new DecisionCall(new Sql(poolA, Duration.ofSeconds(5), "public"));
        // an interval with no exact decimal (3600 s / 7) and a burst of 4: four permits at once, then refusals
        RateLimit limit = RateLimit.perHour(7).withBurst(4);
        DecisionCall.Permit fast = new DecisionCall.Permit("sequence-fast", limit, 0);
        DecisionCall.Permit function = new DecisionCall.Permit("sequence-function", limit, 0);
        BigDecimal fastStart = null;
        BigDecimal functionStart = null;
        BigDecimal[] moved = new BigDecimal[6];
        for (int permit = 0; permit < 6; permit++) {
            long byStatement = call.take("fast", fast);
            DecisionCall.Outcome byFunction = call.call("function", function, null);
            assertThat(byStatement == 0).as("permit %d", permit).isEqualTo(byFunction.taken()).isEqualTo(permit < 4);
            BigDecimal fastFull = fullAt(fast.bucket());
            BigDecimal functionFull = fullAt(function.bucket());
            if (permit == 0) { // a new bucket: both through mero_decide, each on its own clock
                fastStart = fastFull;
                functionStart = functionFull;
            }
            // while the bucket is busy each permit moves it by exactly one interval: the same numeric on both paths
            moved[permit] = fastFull.subtract(fastStart);
            assertThat(moved[permit]).as("permit %d", permit).isEqualByComparingTo(functionFull.subtract(functionStart));
        }
        assertThat(moved[1]).as("one interval").isPositive();
        assertThat(moved[3]).as("three intervals").isEqualByComparingTo(moved[1].multiply(BigDecimal.valueOf(3)));
        assertThat(moved[5]).as("the refusals moved nothing").isEqualByComparingTo(moved[3]);
    }

    @Test
    void theLimitColumnsStillRefuseANonPositiveLimitFromAnyWriter() throws Exception {
        assertThat(storeA.rateLimits().tryTake("positive", RateLimit.perHour(3))).isZero();
        try (Connection connection = poolA.getConnection(); Statement statement = connection.createStatement()) {
            for (String write : new String[] {
                    "UPDATE public.mero_rate_limit SET permits = 0 WHERE bucket = 'positive'",
                    "UPDATE public.mero_rate_limit SET per_us = -1 WHERE bucket = 'positive'",
                    "UPDATE public.mero_rate_limit SET burst = 0 WHERE bucket = 'positive'",
                    "INSERT INTO public.mero_rate_limit VALUES ('zero', 0, 1000000, 0, 1, 0)",
                    "SELECT * FROM public.mero_rate_take('zero', 1000000, 1, 0, 0, true)"}) {
                assertThatThrownBy(() -> statement.execute(write)).as(write).isInstanceOf(SQLException.class)
                        .extracting(e -> ((SQLException) e).getSQLState()).as(write).isEqualTo("23514");
            }
        }
        assertThat(storeA.rateLimits().availablePermits("positive", RateLimit.perHour(3))).isEqualTo(2);
    }

    private static BigDecimal fullAt(String bucket) throws Exception {
        try (Connection connection = poolA.getConnection();
             PreparedStatement read = connection.prepareStatement(
                     "SELECT full_at FROM public.mero_rate_limit WHERE bucket = ?")) {
            read.setString(1, bucket);
            try (ResultSet row = read.executeQuery()) {
                assertThat(row.next()).as("the bucket %s", bucket).isTrue();
                return row.getBigDecimal(1);
            }
        }
    }

    @Test
    void onlyWhatTheStatementCannotDecideCallsMeroDecide() throws Exception {
        String database = PostgresServer.shared().createDatabase();
        try (HikariDataSource pool = PostgresServer.pool(database, 2);
             PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(pool).migrate(true).build()) {
            RateLimit twoPerHour = RateLimit.perHour(2);
            assertThat(store.rateLimits().tryTake("bucket", twoPerHour)).isZero();
            try (Connection owner = DriverManager.getConnection(database, PostgresServer.USER, PostgresServer.PASSWORD);
                 Statement statement = owner.createStatement()) {
                // from here on, a call of mero_decide fails
                statement.execute("ALTER FUNCTION public.mero_decide(text, bigint, bigint, bigint, bigint, text, text,"
                        + " text, bigint, bigint, integer, text, bigint) RENAME TO mero_decide_gone");
            }
            assertThat(store.rateLimits().tryTake("bucket", twoPerHour)).as("the bucket's second permit").isZero();
            assertThatThrownBy(() -> store.rateLimits().tryTake("bucket", twoPerHour)).as("no permit left")
                    .isInstanceOf(PolicyStoreUnavailableException.class);
            assertThatThrownBy(() -> store.rateLimits().tryTake("bucket", RateLimit.perHour(1)))
                    .as("a stricter limit").isInstanceOf(PolicyStoreUnavailableException.class);
            assertThatThrownBy(() -> store.rateLimits().tryTake("new bucket", twoPerHour))
                    .isInstanceOf(PolicyStoreUnavailableException.class);
        }
    }

    @Test
    void twoInstancesRacingOnTheStatementTakeExactlyTheLimit() throws Exception {
        RateLimit sevenPerHour = RateLimit.perHour(7);
        assertThat(storeA.rateLimits().tryTake("race", sevenPerHour)).as("the bucket exists").isZero();
        int passed = TwoInstances.race(40, i -> {
            PostgresPolicyStore store = i % 2 == 0 ? storeA : storeB;
            return () -> store.rateLimits().tryTake("race", sevenPerHour) == 0;
        });
        assertThat(passed).as("six more after the first").isEqualTo(6);
        assertThat(storeB.rateLimits().availablePermits("race", sevenPerHour)).isZero();
    }
}
