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
 * timeout; a migration blocked behind a lock gives up; a pool too small for the listener is refused at start.
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
