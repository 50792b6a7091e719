package dev.mero.core.approval;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A registry of requests waiting for a decision, which an application completes by id, for example from a
 * web page that lists them with Approve and Deny buttons: the in-memory {@link ApprovalStore}.
 *
 * <pre>{@code
 * PendingApprovals pending = PendingApprovals.builder()
 *         .timeout(Duration.ofMinutes(10))
 *         .listener(request -> websocket.broadcast(request.id(), request.action()))
 *         .build();
 * ApprovalGate gate = ApprovalGate.builder().backend(pending).build();
 *
 * // in the web controller:
 * pending.pending();                         // what is waiting, oldest first
 * pending.complete(id, ApprovalDecision.APPROVED);
 * }</pre>
 *
 * <p>A request is registered under its {@link ApprovalRequest#id()} when it arrives, listeners are told,
 * and the deciding thread waits as a {@link CallbackApproval} does: no answer within the timeout is an
 * {@link dev.mero.core.ApprovalTimeoutException} (a chain moves on, a lone gate refuses the action as timed
 * out), and the request leaves the registry as soon as it is decided,
 * timed out or interrupted. At most {@linkplain Builder#maxPending(int) maxPending} requests wait at once;
 * beyond that a request abstains immediately. Thread-safe.
 */
public final class PendingApprovals implements ApprovalStore {

    /** Default bound on requests waiting at once. */
    public static final int DEFAULT_MAX_PENDING = 100;

    private static final Logger LOG = LoggerFactory.getLogger(PendingApprovals.class);

    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
    private final CallbackApproval callback;
    private final List<Consumer<ApprovalRequest>> listeners;
    private final int maxPending;

    private PendingApprovals(Builder builder) {
        this.callback = CallbackApproval.builder().handler(this::register).timeout(builder.timeout).build();
        this.listeners = List.copyOf(builder.listeners);
        this.maxPending = builder.maxPending;
    }

    /**
     * A registry with the default timeout and bound, and no listener.
     *
     * @return the registry
     */
    public static PendingApprovals create() {
        return builder().build();
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
     * Registers the request and waits until it is completed or times out.
     *
     * @param request what is to be approved
     * @return the decision given to {@link #complete(String, ApprovalDecision)}, or
     *         {@link ApprovalDecision#ABSTAIN} when too many requests are waiting
     * @throws dev.mero.core.ApprovalTimeoutException if nobody completed the request in time (it is withdrawn)
     * @throws InterruptedException if the thread was interrupted while waiting (the request is withdrawn)
     * @throws Exception            as {@link CallbackApproval#decide(ApprovalRequest)}; the registry itself
     *                              completes futures only with decisions
     */
    @Override
    public ApprovalDecision decide(ApprovalRequest request) throws Exception {
        return callback.decide(request);
    }

    /**
     * The requests waiting for a decision, oldest first.
     *
     * @return a snapshot
     */
    @Override
    public List<ApprovalRequest> pending() {
        List<ApprovalRequest> snapshot = new ArrayList<>();
        waiting.values().forEach(entry -> snapshot.add(entry.request()));
        snapshot.sort(Comparator.comparing(ApprovalRequest::requestedAt));
        return List.copyOf(snapshot);
    }

    /**
     * One waiting request.
     *
     * @param id the request id
     * @return the request, absent if no request with this id is waiting
     */
    @Override
    public Optional<ApprovalRequest> pending(String id) {
        Waiting entry = waiting.get(Objects.requireNonNull(id, "id"));
        return entry == null ? Optional.empty() : Optional.of(entry.request());
    }

    /**
     * Decides a waiting request.
     *
     * @param id       the request id
     * @param decision the decision
     * @return {@code true} if the request was waiting and now has this decision; {@code false} if it was
     *         unknown, already decided or timed out
     */
    @Override
    public boolean complete(String id, ApprovalDecision decision) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(decision, "decision");
        Waiting entry = waiting.get(id);
        return entry != null && entry.answer().complete(decision);
    }

    @Override
    public String toString() {
        return "PendingApprovals{waiting=" + waiting.size() + ", maxPending=" + maxPending + "}";
    }

    private CompletableFuture<ApprovalDecision> register(ApprovalRequest request) {
        Waiting entry = new Waiting(request, new CompletableFuture<>());
        synchronized (waiting) {
            if (waiting.size() >= maxPending) {
                LOG.warn("Approval request {} not registered: {} requests are already waiting; abstaining",
                        request.id(), maxPending);
                return null;
            }
            if (waiting.putIfAbsent(request.id(), entry) != null) {
                LOG.warn("Approval request {} is already waiting; abstaining for the duplicate", request.id());
                return null;
            }
        }
        // Decided, timed out (cancelled) or interrupted (cancelled): the request leaves the registry.
        entry.answer().whenComplete((decision, failure) -> waiting.remove(request.id(), entry));
        for (Consumer<ApprovalRequest> listener : listeners) {
            try {
                listener.accept(request);
            } catch (RuntimeException e) {
                LOG.warn("Pending-approval listener {} failed for request {}", listener, request.id(), e);
            }
        }
        return entry.answer();
    }

    /** A request and the future its decision completes. */
    private record Waiting(ApprovalRequest request, CompletableFuture<ApprovalDecision> answer) {
    }

    /** Builds a {@link PendingApprovals}. */
    public static final class Builder {

        private Duration timeout = CallbackApproval.DEFAULT_TIMEOUT;
        private final List<Consumer<ApprovalRequest>> listeners = new ArrayList<>();
        private int maxPending = DEFAULT_MAX_PENDING;

        private Builder() {
        }

        /**
         * Sets how long a request waits for a decision before it abstains (default
         * {@link CallbackApproval#DEFAULT_TIMEOUT}).
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = Timeouts.requirePositive(timeout, "PendingApprovals timeout");
            return this;
        }

        /**
         * Adds a listener told of every newly waiting request, on the deciding thread; it should return
         * quickly. A listener that throws is logged and ignored.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder listener(Consumer<ApprovalRequest> listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * Bounds how many requests may wait at once (default {@value PendingApprovals#DEFAULT_MAX_PENDING}).
         *
         * @param maxPending at least 1
         * @return this builder
         */
        public Builder maxPending(int maxPending) {
            if (maxPending < 1) {
                throw new IllegalArgumentException("PendingApprovals maxPending must be at least 1, got " + maxPending);
            }
            this.maxPending = maxPending;
            return this;
        }

        /**
         * Builds the registry.
         *
         * @return the registry
         */
        public PendingApprovals build() {
            return new PendingApprovals(this);
        }
    }
}
