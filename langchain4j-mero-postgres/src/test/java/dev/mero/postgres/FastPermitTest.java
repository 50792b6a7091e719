package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.limit.RateLimit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
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
            DecisionCall.Outcome byStatement = call.take("fast", fast);
            DecisionCall.Outcome byFunction = call.call("function", function, null);
            assertThat(byStatement.taken()).as("permit %d", permit).isEqualTo(byFunction.taken())
                    .isEqualTo(permit < 3);
            assertThat(byStatement.available()).as("permit %d", permit).isEqualTo(byFunction.available())
                    .isEqualTo(Math.max(0, 2 - permit));
            // the refused permit waits for the first one's 20 minutes, on each bucket's own clock
            long twentyMinutes = Duration.ofMinutes(20).toNanos() / 1000;
            assertThat(byStatement.waitMicros()).isBetween(permit < 3 ? 0L : 1L, permit < 3 ? 0L : twentyMinutes);
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
