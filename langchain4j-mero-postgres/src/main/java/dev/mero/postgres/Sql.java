package dev.mero.postgres;

import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.message.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * Runs a unit of work on a pooled connection with every statement time-limited, and turns any SQL failure
 * into {@link PolicyStoreUnavailableException} (fail closed). A unit is one statement in auto-commit mode or
 * one transaction, so a connection that drops mid-call leaves either all of it or none of it.
 *
 * <p>Every borrowed connection gets two bounds and one pin before any work: a network timeout (a stalled
 * backend or a lost packet cannot hold a call past the store's timeout, whatever the pool's socket timeout),
 * and {@code search_path = pg_catalog, <store schema>}, so that no name the store uses can be taken over by an
 * object another role created in some other schema, and built-in operators and functions always come first.
 * The statements also cast every string parameter to {@code text}: the driver sends {@code varchar}, and an
 * overload for {@code varchar} in the store's schema would otherwise win.
 */
final class Sql {

    private static final Logger LOG = LoggerFactory.getLogger(Sql.class);

    /**
     * A bigint parameter as that many microseconds. The operator is named with its schema: {@code bigint *
     * interval} is no built-in, so an operator for exactly those types in the store's schema would win.
     */
    static final String MICROS = "(? OPERATOR(pg_catalog.*) interval '1 microsecond')";

    /** setNetworkTimeout wants an executor for aborting; the PostgreSQL driver does not use it. */
    private static final Executor DIRECT = Runnable::run;

    private final DataSource dataSource;
    private final int queryTimeoutSeconds;
    private final int networkTimeoutMillis;
    private final String schema;
    private final String pinPath;

    Sql(DataSource dataSource, Duration timeout, String schema) {
        this.dataSource = dataSource;
        // JDBC counts whole seconds; round up so that the bound is never shorter than asked
        this.queryTimeoutSeconds = (int) Math.max(1, (timeout.toMillis() + 999) / 1000);
        // the socket gives up at the store's timeout plus a little, after the server had its chance to cancel
        this.networkTimeoutMillis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis() + 250);
        this.schema = schema;
        this.pinPath = "SET search_path TO pg_catalog, " + identifier(schema);
    }

    /** The schema that holds the store's tables and functions. */
    String schema() {
        return schema;
    }

    /** The statement bound in whole seconds (at least 1). */
    int timeoutSeconds() {
        return queryTimeoutSeconds;
    }

    /** The schema a connection of the data source creates objects in by default, for a store given none. */
    static String defaultSchema(DataSource dataSource, Duration timeout) {
        Sql probe = new Sql(dataSource, timeout, "public");
        String found = probe.borrowed("schema lookup", false, connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.setQueryTimeout(probe.queryTimeoutSeconds);
                // the first schema of the connection's path other than pg_catalog, even on a pinned connection
                try (ResultSet row = statement.executeQuery("SELECT s FROM pg_catalog.unnest("
                        + "pg_catalog.current_schemas(false)) WITH ORDINALITY AS p (s, n)"
                        + " WHERE s OPERATOR(pg_catalog.<>) 'pg_catalog'::name ORDER BY n LIMIT 1")) {
                    return row.next() ? row.getString(1) : null;
                }
            }
        });
        if (found == null) {
            throw new IllegalStateException("The database user has no schema to keep the policy store in: "
                    + "create one, or name it with PostgresPolicyStore.builder().schema(...)");
        }
        return found;
    }

    /** Quotes an SQL identifier: {@code a"b} becomes {@code "a""b"}. */
    static String identifier(String name) {
        if (name == null || name.isEmpty() || name.indexOf('\u0000') >= 0) {
            throw new IllegalArgumentException("A schema name must be non-empty and free of NUL");
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** Work on a connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs the work in auto-commit mode: each statement commits on its own. */
    <T> T run(String what, Work<T> work) {
        return borrowed(what, true, work);
    }

    /**
     * Runs one statement in auto-commit mode on a connection whose {@code search_path} is not pinned: one round
     * trip instead of two. Only for statements that name nothing the path could resolve: a
     * {@linkplain #qualified(String) schema-qualified} function (which runs under its own {@code SET
     * search_path}) called with every parameter cast to a {@code pg_catalog} type, an {@code INSERT} into a
     * qualified table of plain parameters (no operator, function or type name), or a statement on a qualified
     * table whose every operator, function and type is named with {@code pg_catalog} (the permit's {@code UPDATE},
     * {@link DecisionCall#take}).
     */
    <T> T call(String what, Work<T> work) {
        return borrowed(what, false, work);
    }

    /** A function or table of the store's schema by its qualified name, for {@link #call}. */
    String qualified(String name) {
        return identifier(schema) + "." + name;
    }

    private <T> T borrowed(String what, boolean pin, Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setNetworkTimeout(DIRECT, networkTimeoutMillis);
            if (pin) {
                pin(connection);
            }
            return work.run(connection);
        } catch (SQLException e) {
            throw unavailable(what, e);
        }
    }

    private void pin(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(queryTimeoutSeconds);
            statement.execute(pinPath);
        }
    }

    /** Runs the work in one transaction, committed at the end and rolled back on any failure. */
    <T> T transaction(String what, Work<T> work) {
        return borrowed(what, true, connection -> {
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
        });
    }

    /** A prepared statement bounded by the query timeout. */
    PreparedStatement prepare(Connection connection, String sql) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        statement.setQueryTimeout(queryTimeoutSeconds);
        return statement;
    }

    static PolicyStoreUnavailableException unavailable(String what, SQLException e) {
        // the server's message may quote a stored id (a trigger's), control characters and all: quoted, escaped
        LOG.warn("Policy store failed ({}): SQLState {}: {}; refusing (fail closed)", what, e.getSQLState(),
                Messages.quote(String.valueOf(e.getMessage())));
        LOG.debug("Policy store failure ({})", what, e);
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
