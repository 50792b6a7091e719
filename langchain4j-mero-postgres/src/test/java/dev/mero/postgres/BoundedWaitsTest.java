package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.limit.RateLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.postgresql.ds.PGSimpleDataSource;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Every wait is bounded by the store's timeout, whatever the pool or driver allow: a backend that stops
 * answering mid-statement (the driver's socket timeout is off here) fails the call within the store's
 * timeout; a permit whose bucket row or table another transaction holds fails closed, the server giving the
 * wait up (the driver's query timeout cancels it) and taking no permit after; a migration blocked behind a lock gives up; a pool too small for the listener is refused at start.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class BoundedWaitsTest {

    @Test
    void aPoolOfOneConnectionIsRefusedAtStartWithTheReason() {
        try (HikariDataSource pool = PostgresServer.pool(PostgresServer.shared().createDatabase(), 1)) {
            assertThatThrownBy(() -> PostgresPolicyStore.builder().dataSource(pool).migrate(true).build())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("allows 1 connection(s) but needs at least 2")
                    .hasMessageContaining("listener")
                    .hasMessageContaining("maximumPoolSize");
        }
    }

    @Test
    void aStalledBackendFailsTheCallWithinTheStoresTimeout() throws Exception {
        String url = PostgresServer.shared().createDatabase();
        URI address = URI.create(url.substring("jdbc:".length()));
        try (StallingProxy proxy = new StallingProxy(address.getPort());
             Connection real = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + proxy.port()
                     + address.getPath() + "?socketTimeout=0", PostgresServer.USER, PostgresServer.PASSWORD)) {
            PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(oneConnection(real))
                    .timeout(Duration.ofSeconds(1)).migrate(true).build();
            assertThat(store.rateLimits().tryTake("stalled", RateLimit.perMinute(10))).isZero();

            proxy.stall();
            // without a network timeout the driver would wait for the frozen backend forever
            assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                    assertThatThrownBy(() -> store.rateLimits().tryTake("stalled", RateLimit.perMinute(10)))
                            .isInstanceOf(PolicyStoreUnavailableException.class));
        }
    }

    @Test
    void aPermitWaitingForTheBucketsRowFailsClosedAndTheServerGivesTheWaitUp() throws Exception {
        String url = PostgresServer.shared().createDatabase();
        RateLimit tenPerHour = RateLimit.perHour(10);
        try (HikariDataSource pool = PostgresServer.pool(url, 4);
             PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(pool)
                     .timeout(Duration.ofSeconds(1)).migrate(true).build();
             Connection holder = DriverManager.getConnection(url, PostgresServer.USER, PostgresServer.PASSWORD);
             Statement statement = holder.createStatement()) {
            // the bucket exists and has permits: the next one is the permit's UPDATE, waiting for the row
            assertThat(store.rateLimits().tryTake("held", tenPerHour)).isZero();
            holder.setAutoCommit(false);
            statement.execute("SELECT 1 FROM public.mero_rate_limit WHERE bucket = 'held' FOR UPDATE");

            assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                    assertThatThrownBy(() -> store.rateLimits().tryTake("held", tenPerHour))
                            .isInstanceOf(PolicyStoreUnavailableException.class)
                            // the server gave the wait up (cancelled), not only the client its socket
                            .cause().isInstanceOf(SQLException.class)
                            .extracting(cause -> ((SQLException) cause).getSQLState()).isEqualTo("57014"));
            assertThat(waitingForALock(pool)).as("no backend still waits for the row").isZero();
            holder.rollback();
            assertThat(store.rateLimits().availablePermits("held", tenPerHour)).as("the refused call took no permit")
                    .isEqualTo(9);
        }
    }

    @Test
    void aPermitWaitingForALockOnTheTableFailsClosedAndTheServerGivesTheWaitUp() throws Exception {
        String url = PostgresServer.shared().createDatabase();
        RateLimit tenPerHour = RateLimit.perHour(10);
        try (HikariDataSource pool = PostgresServer.pool(url, 4);
             PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(pool)
                     .timeout(Duration.ofSeconds(1)).migrate(true).build();
             Connection holder = DriverManager.getConnection(url, PostgresServer.USER, PostgresServer.PASSWORD);
             Statement statement = holder.createStatement()) {
            assertThat(store.rateLimits().tryTake("locked", tenPerHour)).isZero();
            holder.setAutoCommit(false);
            // DDL or LOCK TABLE: the UPDATE waits for the table before it evaluates anything
            statement.execute("LOCK TABLE public.mero_rate_limit IN ACCESS EXCLUSIVE MODE");

            assertTimeoutPreemptively(Duration.ofSeconds(30), () ->
                    assertThatThrownBy(() -> store.rateLimits().tryTake("locked", tenPerHour))
                            .isInstanceOf(PolicyStoreUnavailableException.class));
            // the driver's cancel request ends the backend's wait (polled: the server handles it asynchronously)
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (waitingForALock(pool) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10); // polling, until the deadline
            }
            assertThat(waitingForALock(pool)).as("no backend still waits for the table").isZero();
            holder.rollback();
            assertThat(store.rateLimits().availablePermits("locked", tenPerHour))
                    .as("the abandoned statement took no permit once the lock was released").isEqualTo(9);
        }
    }

    private static int waitingForALock(DataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT count(*) FROM pg_catalog.pg_stat_activity"
                     + " WHERE datname = pg_catalog.current_database() AND wait_event_type = 'Lock'")) {
            row.next();
            return row.getInt(1);
        }
    }

    @Test
    void aMigrationWaitingForAnotherInstancesMigrationGivesUpWithinTheTimeout() throws Exception {
        String url = PostgresServer.shared().createDatabase();
        try (HikariDataSource pool = PostgresServer.pool(url, 4);
             Connection holder = DriverManager.getConnection(url, PostgresServer.USER, PostgresServer.PASSWORD);
             Statement statement = holder.createStatement()) {
            holder.setAutoCommit(false);
            // another instance is migrating and does not finish
            statement.execute("SELECT pg_advisory_xact_lock(" + SchemaMigrations.LOCK_KEY + ")");
            assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
                    assertThatThrownBy(() -> PostgresPolicyStore.builder().dataSource(pool)
                            .timeout(Duration.ofSeconds(1)).migrate(true).build())
                            .isInstanceOf(PolicyStoreUnavailableException.class));
            holder.rollback();
            PostgresPolicyStore.builder().dataSource(pool).migrate(true).build().close();
        }
    }

    /** A data source that lends the same connection every time and never closes it. */
    private static DataSource oneConnection(Connection real) {
        Connection lent = (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return new PGSimpleDataSource() {
            @Override
            public Connection getConnection() {
                return lent;
            }

            @Override
            public PrintWriter getLogWriter() {
                return null;
            }

            @Override
            public Logger getParentLogger() {
                return Logger.getGlobal();
            }

            @Override
            public boolean isWrapperFor(Class<?> type) throws SQLException {
                return false;
            }
        };
    }
}
