package dev.mero.postgres;

import dev.mero.core.limit.RateLimit;

import java.math.RoundingMode;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;

/**
 * One call of the function {@code mero_decide} (schema version 8): a rate-limit permit, a retry-budget
 * attempt's reservation, or both for one guarded decision, in one round trip and one transaction whose commit
 * does not wait for the WAL flush. The statement text is the same for every call, so the driver prepares it
 * once per pooled connection and reuses it.
 */
final class DecisionCall {

    private static final long NANOS_PER_MICRO = 1_000L;

    private final Sql sql;
    private final String statement;

    DecisionCall(Sql sql) {
        this.sql = sql;
        String text = "?::pg_catalog.text";
        String int8 = "?::pg_catalog.int8";
        this.statement = "SELECT taken, wait_us, available, reserved, failures, running FROM "
                + sql.qualified("mero_decide") + "(" + String.join(", ", text, int8, int8, int8, int8, text, text,
                text, int8, int8, "?::pg_catalog.int4", text, int8) + ")";
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

    /** Takes the permit (none when {@code null}) and, if taken, reserves the attempt (none when {@code null}). */
    Outcome call(String what, Permit permit, Reservation reservation) {
        return sql.call(what, connection -> {
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
        });
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
        call.setLong(2, permit.limit().per().toNanos() / NANOS_PER_MICRO);
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
