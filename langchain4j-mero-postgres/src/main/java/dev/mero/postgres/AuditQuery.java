package dev.mero.postgres;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which audit rows {@link PostgresPolicyStore#audit(AuditQuery)} returns: every criterion is optional, and
 * rows come oldest first, at most {@link #limit()}. Instances are immutable.
 *
 * <pre>{@code
 * List<AuditEvent> refusals = store.audit(AuditQuery.builder()
 *         .contextName("worker_1").outcome("denied").from(Instant.now().minus(Duration.ofHours(1))).build());
 * }</pre>
 */
public final class AuditQuery {

    /** The most rows one query returns. */
    public static final int MAX_LIMIT = 10_000;

    private static final Set<String> OUTCOMES = Set.of("allowed", "denied", "pending", "failed");

    private final String contextName;
    private final String outcome;
    private final String requestId;
    private final Instant from;
    private final Instant to;
    private final int limit;

    private AuditQuery(Builder builder) {
        this.contextName = builder.contextName;
        this.outcome = builder.outcome;
        this.requestId = builder.requestId;
        this.from = builder.from;
        this.to = builder.to;
        this.limit = builder.limit;
    }

    /**
     * Starts a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Only rows of this context.
     *
     * @return the context name, absent for every context
     */
    public Optional<String> contextName() {
        return Optional.ofNullable(contextName);
    }

    /**
     * Only rows with this outcome: {@code allowed}, {@code denied}, {@code pending} or {@code failed}.
     *
     * @return the outcome, absent for every outcome
     */
    public Optional<String> outcome() {
        return Optional.ofNullable(outcome);
    }

    /**
     * Only rows of this approval request.
     *
     * @return the request id, absent for every row
     */
    public Optional<String> requestId() {
        return Optional.ofNullable(requestId);
    }

    /**
     * Only decisions taken at or after this instant.
     *
     * @return the start, absent for no lower bound
     */
    public Optional<Instant> from() {
        return Optional.ofNullable(from);
    }

    /**
     * Only decisions taken before this instant.
     *
     * @return the end, absent for no upper bound
     */
    public Optional<Instant> to() {
        return Optional.ofNullable(to);
    }

    /**
     * The most rows returned.
     *
     * @return 1 to {@value #MAX_LIMIT}
     */
    public int limit() {
        return limit;
    }

    @Override
    public String toString() {
        return "AuditQuery{context=" + contextName + ", outcome=" + outcome + ", requestId=" + requestId
                + ", from=" + from + ", to=" + to + ", limit=" + limit + "}";
    }

    /** Builds an {@link AuditQuery}. */
    public static final class Builder {

        private String contextName;
        private String outcome;
        private String requestId;
        private Instant from;
        private Instant to;
        private int limit = 1000;

        private Builder() {
        }

        /**
         * Keeps rows of one context.
         *
         * @param contextName the context name
         * @return this builder
         */
        public Builder contextName(String contextName) {
            this.contextName = Objects.requireNonNull(contextName, "contextName");
            return this;
        }

        /**
         * Keeps rows with one outcome.
         *
         * @param outcome {@code allowed}, {@code denied}, {@code pending} or {@code failed}
         * @return this builder
         * @throws IllegalArgumentException for another value
         */
        public Builder outcome(String outcome) {
            if (!OUTCOMES.contains(outcome)) {
                throw new IllegalArgumentException("outcome must be one of allowed, denied, pending, failed; was "
                        + outcome);
            }
            this.outcome = outcome;
            return this;
        }

        /**
         * Keeps rows of one approval request.
         *
         * @param requestId the request id
         * @return this builder
         */
        public Builder requestId(String requestId) {
            this.requestId = Objects.requireNonNull(requestId, "requestId");
            return this;
        }

        /**
         * Keeps decisions taken at or after an instant.
         *
         * @param from the start
         * @return this builder
         */
        public Builder from(Instant from) {
            this.from = Objects.requireNonNull(from, "from");
            return this;
        }

        /**
         * Keeps decisions taken before an instant.
         *
         * @param to the end
         * @return this builder
         */
        public Builder to(Instant to) {
            this.to = Objects.requireNonNull(to, "to");
            return this;
        }

        /**
         * Bounds the rows returned (default 1000).
         *
         * @param limit 1 to {@value AuditQuery#MAX_LIMIT}
         * @return this builder
         */
        public Builder limit(int limit) {
            if (limit < 1 || limit > MAX_LIMIT) {
                throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", was " + limit);
            }
            this.limit = limit;
            return this;
        }

        /**
         * Builds the query.
         *
         * @return the query
         */
        public AuditQuery build() {
            return new AuditQuery(this);
        }
    }
}
