package dev.mero.postgres;

import dev.mero.core.message.Messages;
import dev.mero.core.replay.ReplayClaim;
import dev.mero.core.replay.ReplayStore;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Replayed tool calls in the table {@code mero_replay}. Claiming is one call of {@code mero_replay_take}
 * (an {@code INSERT ... ON CONFLICT} upsert; one round trip): exactly one instance inserts an id and runs the call; every other caller waits (woken by
 * {@code LISTEN/NOTIFY}, looking at least every poll interval) for the result the owner writes once.
 *
 * <p>At most once holds through failures: an owner whose instance stops before it completes leaves the id
 * claimed without a result, and repeats fail with "already started" instead of running the call again,
 * until the claim's lease ({@link PostgresPolicyStore.Builder#replayLease}) has passed: then the next
 * caller (or a repeat still waiting) takes the claim over and runs the call.
 * Thread-safe.
 */
final class PostgresReplayStore implements ReplayStore {

    private final Sql sql;
    private final Notifications notifications;
    private final long pollNanos;
    private final long leaseMicros;
    private final String takeCall;
    private final String completeCall;

    PostgresReplayStore(Sql sql, Notifications notifications, Duration pollInterval, Duration lease) {
        this.sql = sql;
        this.takeCall = "SELECT " + sql.qualified("mero_replay_take")
                + "(?::pg_catalog.text, ?::pg_catalog.text, ?::pg_catalog.int8)";
        this.completeCall = "SELECT " + sql.qualified("mero_replay_complete")
                + "(?::pg_catalog.text, ?::pg_catalog.text, ?::pg_catalog.text)";
        this.notifications = notifications;
        this.pollNanos = pollInterval.toNanos();
        this.leaseMicros = lease.toNanos() / 1_000L;
    }

    @Override
    public ReplayClaim claim(String scope, String callId, Duration wait) {
        check(scope, callId);
        Objects.requireNonNull(wait, "wait");
        long deadline = System.nanoTime() + wait.toNanos();
        String storedScope = Keys.stored("replay scope", scope);
        String storedId = Keys.stored("call id", callId);
        if (take(storedScope, storedId, callId)) {
            return ReplayClaim.owner();
        }
        ReplayClaim found;
        try {
            // a result, or the claim of an owner whose lease passed without one
            found = notifications.await(Notifications.REPLAY_COMPLETED, storedId, deadline, pollNanos, () -> {
                Optional<String> result = result(storedScope, storedId, callId);
                if (result.isPresent()) {
                    return ReplayClaim.replay(result.get());
                }
                return take(storedScope, storedId, callId) ? ReplayClaim.owner() : null;
            });
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ReplayStore.stillRunning(callId, wait);
        }
        if (found == null) {
            throw ReplayStore.stillRunning(callId, wait);
        }
        return found;
    }

    /**
     * Claims an id nobody claimed, or whose owner's lease passed without a result, in one statement: the
     * row lock of the upsert lets exactly one caller win.
     */
    private boolean take(String storedScope, String storedId, String callId) {
        return sql.call("replay of " + Messages.quote(callId), connection -> {
            try (PreparedStatement statement = sql.prepare(connection, takeCall)) {
                statement.setString(1, storedScope);
                statement.setString(2, storedId);
                statement.setLong(3, leaseMicros);
                try (ResultSet row = statement.executeQuery()) {
                    return row.next() && row.getBoolean(1);
                }
            }
        });
    }

    @Override
    public void complete(String scope, String callId, String result) {
        check(scope, callId);
        Objects.requireNonNull(result, "result");
        String storedScope = Keys.stored("replay scope", scope);
        String storedId = Keys.stored("call id", callId);
        String exact = Keys.storable(result);
        sql.call("replay of " + Messages.quote(callId), connection -> {
            try (PreparedStatement statement = sql.prepare(connection, completeCall)) {
                statement.setString(1, storedScope);
                statement.setString(2, storedId);
                statement.setString(3, exact);
                return statement.execute();
            }
        });
    }

    @Override
    public String toString() {
        return "PostgresReplayStore";
    }

    private Optional<String> result(String scope, String storedId, String callId) {
        return sql.run("replay of " + Messages.quote(callId), connection -> {
            try (PreparedStatement statement = sql.prepare(connection,
                    "SELECT result FROM mero_replay WHERE scope = ?::text AND call_id = ?::text")) {
                statement.setString(1, scope);
                statement.setString(2, storedId);
                try (ResultSet row = statement.executeQuery()) {
                    return row.next() ? Optional.ofNullable(row.getString(1)) : Optional.empty();
                }
            }
        });
    }

    private static void check(String scope, String callId) {
        Objects.requireNonNull(scope, "scope");
        if (callId == null || callId.isBlank()) {
            throw new IllegalArgumentException("A replayed call needs a non-blank call id");
        }
    }
}
