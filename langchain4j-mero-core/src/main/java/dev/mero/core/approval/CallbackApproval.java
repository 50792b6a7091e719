package dev.mero.core.approval;

import dev.mero.core.ApprovalTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Hands each request to the application, which completes a {@link CompletableFuture} when someone
 * decides: a button on a web page, a reaction in a chat, a ticket.
 *
 * <pre>{@code
 * ApprovalBackend approval = CallbackApproval.builder()
 *         .handler(request -> {
 *             CompletableFuture<ApprovalDecision> answer = new CompletableFuture<>();
 *             chat.post("Approve " + request.action() + "?", reply -> answer.complete(
 *                     reply.isYes() ? ApprovalDecision.APPROVED : ApprovalDecision.DENIED));
 *             return answer;
 *         })
 *         .timeout(Duration.ofMinutes(10))
 *         .build();
 * }</pre>
 *
 * <p>The calling thread waits for the future up to the {@linkplain Builder#timeout(Duration) timeout}.
 * Without an answer by then, the future is cancelled (so the application can withdraw its question) and the
 * backend throws {@link ApprovalTimeoutException} ({@code approval_timeout}): nobody decided, so a
 * {@link ChainedApproval} asks its next backend and a lone {@link ApprovalGate} refuses the action as timed out
 * (audited {@code APPROVAL_TIMED_OUT}). A {@linkplain Builder#timeoutDecision(ApprovalDecision) timeout
 * decision} set on the builder is returned instead. A future completed with {@code null} or cancelled by the application
 * also abstains; a future completed exceptionally, or a handler that throws, fails the call (and thus
 * refuses the action). An interrupt cancels the future and is passed on as {@link InterruptedException}.
 * Thread-safe if the handler is.
 *
 * <p>For a registry that a web page can list and complete by request id, see {@link PendingApprovals}.
 */
public final class CallbackApproval implements ApprovalBackend {

    /** Default time the application has to complete the future. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(5);

    private final Function<ApprovalRequest, CompletableFuture<ApprovalDecision>> handler;
    private final Duration timeout;
    private final ApprovalDecision timeoutDecision;

    private CallbackApproval(Builder builder) {
        if (builder.handler == null) {
            throw new IllegalArgumentException("CallbackApproval needs a handler; call handler(...) on the builder");
        }
        this.handler = builder.handler;
        this.timeout = builder.timeout;
        this.timeoutDecision = builder.timeoutDecision;
    }

    /**
     * A backend with the default timeout that reports a timeout when the application does not answer in time.
     *
     * @param handler receives each request and returns the future the application completes
     * @return the backend
     */
    public static CallbackApproval of(Function<ApprovalRequest, CompletableFuture<ApprovalDecision>> handler) {
        return builder().handler(handler).build();
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
     * How long the application has to complete the future.
     *
     * @return the timeout
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Hands the request to the application and waits for its decision.
     *
     * @param request what is to be approved
     * @return the application's decision, or the timeout decision when one was set
     * @throws ApprovalTimeoutException if the application did not answer in time and no timeout decision was set
     * @throws InterruptedException if the thread was interrupted while waiting
     * @throws Exception            if the handler threw or completed the future exceptionally
     */
    @Override
    public ApprovalDecision decide(ApprovalRequest request) throws Exception {
        Objects.requireNonNull(request, "request");
        CompletableFuture<ApprovalDecision> answer = handler.apply(request);
        if (answer == null) {
            return ApprovalDecision.ABSTAIN;
        }
        try {
            ApprovalDecision decision = answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return decision == null ? ApprovalDecision.ABSTAIN : decision;
        } catch (TimeoutException e) {
            answer.cancel(true);
            if (timeoutDecision == null) {
                throw ApprovalTimeoutException.noDecisionWithin(request.action(), request.contextName(), timeout);
            }
            return timeoutDecision;
        } catch (CancellationException e) {
            return ApprovalDecision.ABSTAIN;
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    @Override
    public String toString() {
        return "CallbackApproval{timeout=" + timeout + ", timeoutDecision=" + timeoutDecision + "}";
    }

    /** Builds a {@link CallbackApproval}; a handler is required. */
    public static final class Builder {

        private Function<ApprovalRequest, CompletableFuture<ApprovalDecision>> handler;
        private Duration timeout = DEFAULT_TIMEOUT;
        /** {@code null}: a timeout is reported as such ({@link ApprovalTimeoutException}). */
        private ApprovalDecision timeoutDecision;

        private Builder() {
        }

        /**
         * Sets the function that receives each request and returns the future the application completes.
         * It is called on the deciding thread and should return quickly.
         *
         * @param handler the handler
         * @return this builder
         */
        public Builder handler(Function<ApprovalRequest, CompletableFuture<ApprovalDecision>> handler) {
            this.handler = Objects.requireNonNull(handler, "handler");
            return this;
        }

        /**
         * Sets how long the application has to answer (default {@link CallbackApproval#DEFAULT_TIMEOUT}).
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = Timeouts.requirePositive(timeout, "CallbackApproval timeout");
            return this;
        }

        /**
         * Sets what an unanswered request yields instead of an {@link ApprovalTimeoutException} (the default):
         * {@link ApprovalDecision#ABSTAIN} (a chain moves on, a lone backend refuses as not approved) or
         * {@link ApprovalDecision#DENIED} (final). Approving on timeout is not allowed.
         *
         * @param timeoutDecision {@code ABSTAIN} or {@code DENIED}
         * @return this builder
         * @throws IllegalArgumentException for {@code APPROVED}
         */
        public Builder timeoutDecision(ApprovalDecision timeoutDecision) {
            Objects.requireNonNull(timeoutDecision, "timeoutDecision");
            if (timeoutDecision == ApprovalDecision.APPROVED) {
                throw new IllegalArgumentException("CallbackApproval timeoutDecision must be ABSTAIN or DENIED, "
                        + "got APPROVED: silence must never approve");
            }
            this.timeoutDecision = timeoutDecision;
            return this;
        }

        /**
         * Builds the backend.
         *
         * @return the backend
         */
        public CallbackApproval build() {
            return new CallbackApproval(this);
        }
    }
}
