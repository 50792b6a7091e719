package dev.mero.postgres;

import dev.mero.core.PolicyStoreUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Runs a unit of work on a pooled connection with every statement time-limited, and turns any SQL failure
 * into {@link PolicyStoreUnavailableException} (fail closed). A unit is one statement in auto-commit mode or
 * one transaction, so a connection that drops mid-call leaves either all of it or none of it.
 */
final class Sql {

    private static final Logger LOG = LoggerFactory.getLogger(Sql.class);

    private final DataSource dataSource;
    private final int queryTimeoutSeconds;

    Sql(DataSource dataSource, Duration timeout) {
        this.dataSource = dataSource;
        // JDBC counts whole seconds; round up so that the bound is never shorter than asked
        this.queryTimeoutSeconds = (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
    }

    /** Work on a connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs the work in auto-commit mode: each statement commits on its own. */
    <T> T run(String what, Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw unavailable(what, e);
        }
    }

    /** Runs the work in one transaction, committed at the end and rolled back on any failure. */
    <T> T transaction(String what, Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollback(connection);
                throw e;
            } finally {
                restore(connection, autoCommit);
            }
        } catch (SQLException e) {
            throw unavailable(what, e);
        }
    }

    /** A prepared statement bounded by the query timeout. */
    PreparedStatement prepare(Connection connection, String sql) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setQueryTimeout(queryTimeoutSeconds);
        return statement;
    }

    static PolicyStoreUnavailableException unavailable(String what, SQLException e) {
        LOG.warn("Policy store failed ({}): SQLState {}; refusing (fail closed)", what, e.getSQLState(), e);
        return PolicyStoreUnavailableException.of(what, e);
    }

    private static void rollback(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            LOG.debug("Rollback failed; the connection is broken and the server discards the transaction", e);
        }
    }

    private static void restore(Connection connection, boolean autoCommit) {
        try {
            connection.setAutoCommit(autoCommit);
        } catch (SQLException e) {
            LOG.debug("Could not restore auto-commit on a broken connection", e);
        }
    }
}
