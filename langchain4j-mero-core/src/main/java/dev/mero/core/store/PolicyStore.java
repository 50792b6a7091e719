package dev.mero.core.store;

import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.audit.AuditSink;
import dev.mero.core.limit.RateLimitStore;
import dev.mero.core.limit.RetryBudgetStore;
import dev.mero.core.replay.ReplayStore;

import java.time.Duration;
import java.util.Objects;

/**
 * The state several application instances share, in one place (a database): rate-limit buckets, retry
 * budgets, pending approvals, replayed tool calls and the audit trail. Every store it hands out fails
 * closed with {@link dev.mero.core.PolicyStoreUnavailableException} when the place cannot answer in time.
 *
 * <p>Opened by a {@link PolicyStoreProvider} (for a policy file's {@code store:} section) or directly by
 * the application; closing it releases what it opened (connections, listener threads). Thread-safe.
 */
public interface PolicyStore extends AutoCloseable {

    /**
     * The shared token buckets.
     *
     * @return the rate-limit store
     */
    RateLimitStore rateLimits();

    /**
     * The shared retry-budget counts.
     *
     * @return the retry-budget store
     */
    RetryBudgetStore retryBudgets();

    /**
     * Shared pending approvals whose requests wait at most {@code timeout} for a decision.
     *
     * @param timeout how long a request waits before it abstains (and can no longer be decided)
     * @return the approval store
     */
    ApprovalStore approvals(Duration timeout);

    /**
     * The approval queue of one context (one tenant): a store that keeps queues lists and decides only the
     * requests made through the same queue, so an operator of one tenant never sees or answers another's. A
     * policy file's {@code backend: store} asks for the queue of its context's name. The default, for a store
     * without queues, is {@link #approvals(Duration)}.
     *
     * @param timeout how long a request waits before it abstains (and can no longer be decided)
     * @param queue   the queue's name, usually the context's name
     * @return the approval store of that queue
     */
    default ApprovalStore approvals(Duration timeout, String queue) {
        Objects.requireNonNull(queue, "queue");
        return approvals(timeout);
    }

    /**
     * The shared replay store of tool-call ids.
     *
     * @return the replay store
     */
    ReplayStore replays();

    /**
     * An audit sink writing one row per decision.
     *
     * @return the audit sink
     */
    AuditSink auditSink();

    /** Releases what the store opened; the stores it handed out fail afterwards. */
    @Override
    void close();
}
