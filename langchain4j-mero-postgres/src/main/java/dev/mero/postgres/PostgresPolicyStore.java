package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditSink;
import dev.mero.core.limit.RateLimitStore;
import dev.mero.core.limit.RetryBudgetStore;
import dev.mero.core.replay.ReplayStore;
import dev.mero.core.store.PolicyStore;

import javax.sql.DataSource;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The policy state several application instances share, in one PostgreSQL database reached through a
 * {@link DataSource} the application supplies (its connection pool).
 *
 * <pre>{@code
 * HikariDataSource pool = new HikariDataSource(config);      // connectionTimeout bounds the wait for a connection
 * PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(pool).migrate(true).build();
 * SecurityContext context = SecurityContext.builder()
 *         .name("worker_1")
 *         .rateLimit(RateLimit.perMinute(60)).rateLimitStore(store.rateLimits())   // one bucket for all instances
 *         .retryBudget(RetryBudget.builder().store(store.retryBudgets(), "worker_1").build())
 *         .requireApproval(Permission.WRITE).approval(store.approvals(Duration.ofMinutes(5), "worker_1"))
 *         .replayStore(store.replays())
 *         .auditLog(AuditLog.builder().sink(store.auditSink()).build())
 *         .build();
 * }</pre>
 *
 * <p>Every statement is bounded by the {@linkplain Builder#timeout(Duration) timeout}; the pool's own
 * connection timeout bounds the wait for a connection. Whatever fails (the database down, slow, a connection
 * dropped mid-call) fails closed with {@link dev.mero.core.PolicyStoreUnavailableException}: no action runs
 * unlimited, unapproved or twice. Each decision is one statement or one transaction, so a dropped connection
 * leaves it whole or absent, never half-counted.
 *
 * <p>Pending approvals and replays are woken by {@code LISTEN/NOTIFY} through one connection of the pool,
 * held by a listener thread started on first use; size the pool for it. {@link #close()} stops that thread
 * (and closes the pool if the store opened it). Thread-safe.
 */
public final class PostgresPolicyStore implements PolicyStore {

    /** The smallest pool that works: the listener's connection and one for statements. */
    static final int MIN_POOL_SIZE = 2;

    private final Sql sql;
    private final Duration pollInterval;
    private final String instance;
    private final Notifications notifications;
    private final PostgresRateLimitStore rateLimits;
    private final PostgresRetryBudgetStore retryBudgets;
    private final PostgresReplayStore replays;
    private final PostgresAuditSink auditSink;
    private final AutoCloseable owned;

    private PostgresPolicyStore(Builder builder) {
        if (builder.dataSource == null) {
            throw new IllegalArgumentException("PostgresPolicyStore needs a DataSource; call dataSource(...)");
        }
        refuseTooSmallPool(builder.dataSource);
        this.sql = new Sql(builder.dataSource, builder.timeout, builder.schema != null ? builder.schema
                : Sql.defaultSchema(builder.dataSource, builder.timeout));
        this.pollInterval = builder.pollInterval;
        this.instance = builder.instance;
        this.notifications = new Notifications(builder.dataSource);
        DecisionCall decide = new DecisionCall(sql);
        this.rateLimits = new PostgresRateLimitStore(sql, builder.limitHold, decide);
        this.retryBudgets = new PostgresRetryBudgetStore(sql, rateLimits, decide);
        this.replays = new PostgresReplayStore(sql, notifications, pollInterval, builder.replayLease);
        this.auditSink = new PostgresAuditSink(sql, instance);
        this.owned = builder.owned;
    }

    /**
     * The listener holds one connection for as long as the store is open: a pool of one would leave every
     * approval and replay waiting for a connection that never comes back.
     */
    private static void refuseTooSmallPool(DataSource dataSource) {
        try {
            if (dataSource.isWrapperFor(HikariDataSource.class)
                    && dataSource.unwrap(HikariDataSource.class).getMaximumPoolSize() < MIN_POOL_SIZE) {
                throw new IllegalArgumentException("The policy store's connection pool allows "
                        + dataSource.unwrap(HikariDataSource.class).getMaximumPoolSize() + " connection(s) but "
                        + "needs at least " + MIN_POOL_SIZE + ": one is held by the listener that wakes waiting "
                        + "approvals and replays, the others run the statements (set maximumPoolSize)");
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalArgumentException("The policy store's DataSource cannot be inspected", e);
        }
    }

    /**
     * Starts a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public RateLimitStore rateLimits() {
        return rateLimits;
    }

    @Override
    public RetryBudgetStore retryBudgets() {
        return retryBudgets;
    }

    /**
     * The operators' view of every approval queue: it lists and decides the requests of every context. Give
     * a context {@link #approvals(Duration, String)} instead, so that its operators see only its own.
     *
     * @param timeout how long a request made through it waits before it abstains
     * @return the store-wide approval store
     */
    @Override
    public ApprovalStore approvals(Duration timeout) {
        return new PostgresApprovals(sql, notifications, positive(timeout), pollInterval, instance, null);
    }

    /**
     * The approval queue of one context (tenant): it lists and decides only the requests made through the same
     * queue, so one tenant's operator never sees or answers another's. A policy file's {@code backend: store}
     * uses the queue of its context's name; a narrowed child that keeps its parent's backend asks through the
     * parent's queue. {@link #approvals(Duration)} is the operators' view of every queue.
     *
     * @param timeout how long a request waits before it abstains
     * @param queue   the queue's name, usually the context's name
     * @return the queue's approval store
     * @throws dev.mero.core.InvalidInputException if the name holds NUL or an unpaired surrogate
     */
    @Override
    public ApprovalStore approvals(Duration timeout, String queue) {
        Objects.requireNonNull(queue, "queue");
        return new PostgresApprovals(sql, notifications, positive(timeout), pollInterval, instance,
                Keys.stored("approval queue", queue));
    }

    private static Duration positive(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("The approval timeout must be positive, was " + timeout);
        }
        return timeout;
    }

    @Override
    public ReplayStore replays() {
        return replays;
    }

    @Override
    public AuditSink auditSink() {
        return auditSink;
    }

    /**
     * Reads audit rows back, oldest first.
     *
     * @param query which rows
     * @return the events, at most {@link AuditQuery#limit()}
     * @throws dev.mero.core.PolicyStoreUnavailableException if the database did not answer in time
     */
    public List<AuditEvent> audit(AuditQuery query) {
        return auditSink.query(Objects.requireNonNull(query, "query"));
    }

    /**
     * Deletes the state no decision needs any more, older than {@code age}: approval requests that were
     * decided or expired, replayed calls claimed that long ago (a repeat of such an id runs again), and
     * retry counts whose last failure is that old (their window should be shorter). Audit rows are kept:
     * their retention is the operator's decision. Run it from time to time on one instance.
     *
     * @param age how old a row must be, at least 1 minute
     * @return how many rows were deleted
     * @throws dev.mero.core.PolicyStoreUnavailableException if the database did not answer in time
     */
    public int purge(Duration age) {
        Objects.requireNonNull(age, "age");
        if (age.compareTo(Duration.ofMinutes(1)) < 0) {
            throw new IllegalArgumentException("purge age must be at least 1 minute, was " + age);
        }
        long micros = age.toNanos() / 1_000L;
        return sql.transaction("purge", connection -> {
            int deleted = 0;
            for (String delete : List.of(
                    "DELETE FROM mero_approval WHERE (decision IS NOT NULL OR expires_at < clock_timestamp())"
                            + " AND requested_at < clock_timestamp() - " + Sql.MICROS,
                    "DELETE FROM mero_replay WHERE claimed_at < clock_timestamp() - " + Sql.MICROS,
                    "DELETE FROM mero_retry_budget"
                            + " WHERE last_failure < clock_timestamp() - " + Sql.MICROS,
                    "DELETE FROM mero_retry_attempt WHERE lease_until < clock_timestamp() - " + Sql.MICROS)) {
                try (java.sql.PreparedStatement statement = sql.prepare(connection, delete)) {
                    statement.setLong(1, micros);
                    deleted += statement.executeUpdate();
                }
            }
            return deleted;
        });
    }

    /**
     * The schema that holds the store's tables and functions.
     *
     * @return the schema's name
     */
    public String schema() {
        return sql.schema();
    }

    /**
     * The name this instance writes into audit rows and approval decisions ({@code decided_by}).
     *
     * @return the instance name
     */
    public String instance() {
        return instance;
    }

    @Override
    public void close() {
        notifications.close();
        if (owned != null) {
            try {
                owned.close();
            } catch (Exception e) {
                throw new IllegalStateException("Closing the policy store's connection pool failed", e);
            }
        }
    }

    @Override
    public String toString() {
        return "PostgresPolicyStore{instance=" + instance + "}";
    }

    /** Builds a {@link PostgresPolicyStore}; a data source is required. */
    public static final class Builder {

        private DataSource dataSource;
        private Duration timeout = Duration.ofSeconds(5);
        private Duration pollInterval = Duration.ofSeconds(1);
        private Duration replayLease = Duration.ofMinutes(15);
        private Duration limitHold = Duration.ofMinutes(10);
        private boolean migrate;
        private String schema;
        private String instance = ManagementFactory.getRuntimeMXBean().getName();
        private AutoCloseable owned;

        private Builder() {
        }

        /**
         * Sets the connection pool. Give it a connection timeout (HikariCP's {@code connectionTimeout}) as
         * short as the store's timeout, so that an exhausted pool or an unreachable database fails fast.
         *
         * @param dataSource the pool
         * @return this builder
         */
        public Builder dataSource(DataSource dataSource) {
            this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
            return this;
        }

        /**
         * Sets the bound on every statement (default 5 seconds; JDBC counts whole seconds, so it is rounded up).
         *
         * @param timeout 1 millisecond to 10 minutes
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = bounded(timeout, Duration.ofMinutes(10), "timeout");
            return this;
        }

        /**
         * Sets how often a waiting approval or replay looks at its row even without a notification
         * (default 1 second).
         *
         * @param pollInterval 1 millisecond to 1 minute
         * @return this builder
         */
        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = bounded(pollInterval, Duration.ofMinutes(1), "pollInterval");
            return this;
        }

        /**
         * Sets how long a claim of a replayed tool call holds without a result (default 15 minutes). An
         * instance that dies while it runs a call leaves the claim: repeats of the id are refused as still
         * running until the lease has passed, then the next one runs the call. Make it longer than the
         * longest call, approval waits included: a call still running when its lease passes may run twice.
         *
         * @param lease 1 millisecond to 1 day
         * @return this builder
         */
        public Builder replayLease(Duration lease) {
            this.replayLease = bounded(lease, Duration.ofDays(1), "replayLease");
            return this;
        }

        /**
         * Sets how long a rate-limit bucket keeps a stricter limit than the caller's after the last use by an
         * instance configured with it (default 10 minutes). Instances configured with different limits for one
         * context (a rolling deploy) share one bucket under the stricter limit (the lower rate, then the smaller
         * burst); once the instances with the stricter limit have not used the bucket for this long, the looser
         * one applies.
         *
         * @param hold 1 millisecond to 1 day
         * @return this builder
         */
        public Builder limitHold(Duration hold) {
            this.limitHold = bounded(hold, Duration.ofDays(1), "limitHold");
            return this;
        }

        /**
         * Sets whether {@link #build()} applies the schema migrations the database lacks (default
         * {@code false}: the schema must already be current, or building fails).
         *
         * @param migrate {@code true} to migrate
         * @return this builder
         */
        public Builder migrate(boolean migrate) {
            this.migrate = migrate;
            return this;
        }

        /**
         * Sets the schema that holds the store's tables and functions (default: the database user's current
         * schema, usually {@code public}). Every statement runs with {@code search_path = pg_catalog, <schema>},
         * so objects other roles create in other schemas are never used; name a schema only the owner role
         * may create in (see docs/several-instances.md for the two-role setup).
         *
         * @param schema the schema's name, as stored (case-sensitive, not quoted)
         * @return this builder
         */
        public Builder schema(String schema) {
            if (schema == null || schema.isBlank() || schema.indexOf('\u0000') >= 0) {
                throw new IllegalArgumentException("The schema name must be non-blank and free of NUL");
            }
            this.schema = schema;
            return this;
        }

        /**
         * Sets the name written into audit rows and approval decisions (default: the JVM's {@code pid@host}).
         *
         * @param instance a non-blank name
         * @return this builder
         */
        public Builder instance(String instance) {
            if (instance == null || instance.isBlank()) {
                throw new IllegalArgumentException("The instance name must be non-blank");
            }
            this.instance = instance;
            return this;
        }

        /** A pool the store opened itself and closes with it. */
        Builder owned(AutoCloseable owned) {
            this.owned = owned;
            return this;
        }

        /**
         * Migrates or checks the schema, then builds the store.
         *
         * @return the store
         * @throws IllegalStateException                         if the schema is not the version this library
         *                                                       needs and migrating was not asked for
         * @throws dev.mero.core.PolicyStoreUnavailableException if the database did not answer in time
         */
        public PostgresPolicyStore build() {
            PostgresPolicyStore store = new PostgresPolicyStore(this);
            if (migrate) {
                SchemaMigrations.migrate(store.sql);
            } else {
                SchemaMigrations.verify(store.sql);
            }
            return store;
        }

        private static Duration bounded(Duration value, Duration max, String name) {
            Objects.requireNonNull(value, name);
            if (value.compareTo(Duration.ofMillis(1)) < 0 || value.compareTo(max) > 0) {
                throw new IllegalArgumentException(name + " must be between 1 ms and " + max + ", was " + value);
            }
            return value;
        }
    }
}
