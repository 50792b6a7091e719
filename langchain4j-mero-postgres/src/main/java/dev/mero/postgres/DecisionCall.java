package dev.mero.postgres;

import dev.mero.core.limit.RateLimit;

import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

/**
 * One call of the function {@code mero_decide} (schema version 8): a rate-limit permit, a retry-budget
 * attempt's reservation, or both for one guarded decision, in one round trip and one transaction whose commit
 * does not wait for the WAL flush. The statement text is the same for every call, so the driver prepares it
 * once per pooled connection and reuses it.
 *
 * <p>A permit alone ({@link #take}) is first asked of one plain {@code UPDATE}: the fast path of {@code
 * mero_decide} itself, sent as a statement, so that the common case pays no function call (a PL/pgSQL call with
 * its pinned {@code search_path} cost about as much as the write it wraps). Its names are all qualified with
 * their schema ({@code OPERATOR(pg_catalog.*)} for every operator), so nothing resolves through the
 * connection's path. A condition of its {@code WHERE} clause turns {@code synchronous_commit} off for the
 * statement's own transaction where fsync is on, as {@code mero_decide} does. It returns no row: the update count
 * says whether a permit was taken. When it updates no row (a new bucket, another limit held, no permit left)
 * {@code mero_decide} decides on the same connection.
 */
final class DecisionCall {

    private static final long NANOS_PER_MICRO = 1_000L;

    private final Sql sql;
    private final String statement;
    private final String fastTake;

    DecisionCall(Sql sql) {
        this.sql = sql;
        String text = "?::pg_catalog.text";
        String int8 = "?::pg_catalog.int8";
        this.statement = "SELECT taken, wait_us, available, reserved, failures, running FROM "
                + sql.qualified("mero_decide") + "(" + String.join(", ", text, int8, int8, int8, int8, text, text,
                text, int8, int8, "?::pg_catalog.int4", text, int8) + ")";
        this.fastTake = fastTake(sql.qualified("mero_rate_limit"));
    }

    /**
     * The fast path of {@code mero_decide} as one statement: {@code mero_decide}'s own {@code UPDATE}, with the
     * bucket's interval {@code per_us / permits} and the microseconds of {@code clock_timestamp()} written out,
     * every operator qualified and parenthesised ({@code OPERATOR(...)} has one precedence for all). The clock is
     * read in the row's own expressions (three readings), so that a statement that waited for the row lock
     * evaluates them again after it. The setting is a condition that always holds ({@code set_config} returns the
     * value set, and the {@code ELSE} branch an empty string), evaluated on the row the statement updates.
     *
     * @param table the qualified table
     */
    static String fastTake(String table) {
        String now = "(EXTRACT(EPOCH FROM pg_catalog.clock_timestamp())::pg_catalog.numeric OPERATOR(pg_catalog.*)"
                + " 1000000)";
        String interval = "(r.per_us::pg_catalog.numeric OPERATOR(pg_catalog./) r.permits)";
        return "UPDATE " + table + " AS r SET full_at = (GREATEST(r.full_at, " + now + ") OPERATOR(pg_catalog.+) "
                + interval + "), limit_used_at = " + now
                + " WHERE r.bucket OPERATOR(pg_catalog.=) ?::pg_catalog.text"
                + " AND r.per_us OPERATOR(pg_catalog.=) ?::pg_catalog.int8"
                + " AND r.permits OPERATOR(pg_catalog.=) ?::pg_catalog.int8"
                + " AND r.burst OPERATOR(pg_catalog.=) ?::pg_catalog.int8"
                + " AND r.full_at OPERATOR(pg_catalog.<=) (" + now + " OPERATOR(pg_catalog.+) (" + interval
                + " OPERATOR(pg_catalog.*) (r.burst OPERATOR(pg_catalog.-) 1)))"
                + " AND (CASE WHEN pg_catalog.current_setting('fsync') OPERATOR(pg_catalog.=) 'on'::pg_catalog.text"
                + " THEN pg_catalog.set_config('synchronous_commit', 'off', true) ELSE '' END) IS NOT NULL";
    }

    /** A permit to take: the stored bucket key, its limit, and how long a held stricter limit lasts. */
    record Permit(String bucket, RateLimit limit, long holdMicros) {
    }

    /** An attempt to reserve: the stored scope, the call, its advisory lock key, window, budget, id and lease. */
    record Reservation(String scope, String operation, String digest, long lock, long windowMicros, int maxFailures,
                       String attempt, long leaseMicros) {
    }

    /** What the call did; {@code reserved}, {@code failures} and {@code running} are only set for a reservation. */
    record Outcome(boolean taken, long waitMicros, long available, boolean reserved, int failures, int running) {
    }

    /**
     * Takes a permit: one {@code UPDATE} when the bucket exists, holds the caller's limit and has a permit, otherwise
     * {@code mero_decide} on the same connection.
     *
     * @return 0 if the permit was taken, otherwise how long to wait for one, in nanoseconds (at least 1)
     */
    long take(String what, Permit permit) {
        return sql.call(what, connection -> {
            try (PreparedStatement update = sql.prepare(connection, fastTake)) {
                update.setString(1, permit.bucket());
                update.setLong(2, micros(permit.limit()));
                update.setLong(3, permit.limit().permits());
                update.setLong(4, permit.limit().burst());
                if (update.executeUpdate() == 1) {
                    return 0L;
                }
            }
            return PostgresRateLimitStore.waitNanos(decide(connection, permit, null));
        });
    }

    /** Takes the permit (none when {@code null}) and, if taken, reserves the attempt (none when {@code null}). */
    Outcome call(String what, Permit permit, Reservation reservation) {
        return sql.call(what, connection -> decide(connection, permit, reservation));
    }

    private Outcome decide(Connection connection, Permit permit, Reservation reservation) throws SQLException {
        try (PreparedStatement call = sql.prepare(connection, statement)) {
            bind(call, permit);
            bind(call, reservation);
            try (ResultSet row = call.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException("mero_decide returned no row");
                }
                // round the wait up to whole microseconds: waiting that long is always enough
                long wait = row.getBigDecimal(2).setScale(0, RoundingMode.CEILING).longValueExact();
                return new Outcome(row.getBoolean(1), wait, row.getLong(3), row.getBoolean(4), row.getInt(5),
                        row.getInt(6));
            }
        }
    }

    private static long micros(RateLimit limit) {
        return limit.per().toNanos() / NANOS_PER_MICRO;
    }

    private static void bind(PreparedStatement call, Permit permit) throws SQLException {
        if (permit == null) {
            call.setNull(1, Types.VARCHAR);
            for (int index = 2; index <= 5; index++) {
                call.setNull(index, Types.BIGINT);
            }
            return;
        }
        call.setString(1, permit.bucket());
        call.setLong(2, micros(permit.limit()));
        call.setLong(3, permit.limit().permits());
        call.setLong(4, permit.limit().burst());
        call.setLong(5, permit.holdMicros());
    }

    private static void bind(PreparedStatement call, Reservation reservation) throws SQLException {
        if (reservation == null) {
            for (int index : new int[] {6, 7, 8, 12}) {
                call.setNull(index, Types.VARCHAR);
            }
            for (int index : new int[] {9, 10, 13}) {
                call.setNull(index, Types.BIGINT);
            }
            call.setNull(11, Types.INTEGER);
            return;
        }
        call.setString(6, reservation.scope());
        call.setString(7, reservation.operation());
        call.setString(8, reservation.digest());
        call.setLong(9, reservation.lock());
        call.setLong(10, reservation.windowMicros());
        call.setInt(11, reservation.maxFailures());
        call.setString(12, reservation.attempt());
        call.setLong(13, reservation.leaseMicros());
    }
}
