package dev.mero.core.approval;

import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.message.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Asks several backends in turn, each within a time limit; itself an {@link ApprovalBackend}.
 *
 * <pre>{@code
 * ApprovalBackend approval = ChainedApproval.of(Duration.ofMinutes(2),
 *         SessionApprovalMemory.wrap(chatApproval),   // ask the team in chat first
 *         ConsoleApproval.create());                  // then whoever sits at the terminal
 * }</pre>
 *
 * <p>The first decisive answer wins: {@link ApprovalDecision#APPROVED} is returned at once, and
 * {@link ApprovalDecision#DENIED} is final (later backends are not asked). {@link ApprovalDecision#ABSTAIN},
 * {@code null}, an exception, a backend interrupting itself, or no answer within the per-backend timeout
 * passes the request to the next backend. When no backend decides, {@link #decide(ApprovalRequest)} throws
 * {@link ApprovalTimeoutException} {@code No backend in chain could resolve approval for 'WRITE: /ws/a.txt'.}
 *
 * <p>Each backend call runs on a new daemon thread named {@code mero-approval-N}. On timeout the thread is
 * interrupted and abandoned: a backend that ignores interrupts cannot block the chain, and because the
 * thread is a daemon it cannot keep the JVM alive; it ends when the backend finally returns. The answer of an
 * abandoned call is discarded: it is never used, and a {@link SessionApprovalMemory} inside the chain never
 * remembers it, so an identical retry is asked again. Using an answer and abandoning its call is one atomic
 * choice. At most
 * {@link Builder#maxConcurrentCalls(int) maxConcurrentCalls} calls of each backend run at once, hung ones
 * included, so a hanging backend cannot pile up threads without bound: a call that finds no free slot for
 * a backend within the timeout counts as that backend timing out, and the chain moves on.
 *
 * <p>If the thread calling {@link #decide(ApprovalRequest)} is interrupted while it waits, the chain stops,
 * interrupts the running backend and throws {@link InterruptedException}; {@link ApprovalGate} turns that
 * into a fail-safe refusal and restores the interrupt flag. Instances are immutable and thread-safe.
 */
public final class ChainedApproval implements ApprovalBackend {

    /** Default bound on simultaneous calls of one backend of a chain. */
    public static final int DEFAULT_MAX_CONCURRENT_CALLS = 64;

    private static final Logger LOG = LoggerFactory.getLogger(ChainedApproval.class);
    private static final String THREAD_PREFIX = "mero-approval-";
    private static final AtomicLong THREAD_NUMBER = new AtomicLong();

    private final Duration perBackendTimeout;
    private final List<ApprovalBackend> backends;
    private final int maxConcurrentCalls;
    /** One set of slots per backend, so that a hanging backend only ever blocks itself. */
    private final List<Semaphore> slots;
    /** Sees every worker thread once it has started; lets tests wait for exactly the threads they caused. */
    private final Consumer<Thread> workerObserver;

    private ChainedApproval(Builder builder) {
        if (builder.perBackendTimeout == null) {
            throw new IllegalArgumentException("ChainedApproval needs a per-backend timeout; "
                    + "call perBackendTimeout(...) on the builder");
        }
        if (builder.backends.isEmpty()) {
            throw new IllegalArgumentException("ChainedApproval needs at least one backend");
        }
        this.perBackendTimeout = builder.perBackendTimeout;
        this.backends = List.copyOf(builder.backends);
        this.maxConcurrentCalls = builder.maxConcurrentCalls;
        List<Semaphore> perBackend = new ArrayList<>();
        backends.forEach(backend -> perBackend.add(new Semaphore(maxConcurrentCalls)));
        this.slots = List.copyOf(perBackend);
        this.workerObserver = builder.workerObserver;
    }

    /**
     * Chains backends, asked in the given order.
     *
     * @param perBackendTimeout how long each backend may take, positive
     * @param backends          at least one backend
     * @return the chain
     * @throws IllegalArgumentException if the timeout is not positive or no backend is given
     */
    public static ChainedApproval of(Duration perBackendTimeout, ApprovalBackend... backends) {
        return builder().perBackendTimeout(perBackendTimeout)
                .backends(List.of(Objects.requireNonNull(backends, "backends"))).build();
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
     * How long each backend may take.
     *
     * @return the per-backend timeout
     */
    public Duration perBackendTimeout() {
        return perBackendTimeout;
    }

    /**
     * The backends, in the order they are asked.
     *
     * @return an immutable list
     */
    public List<ApprovalBackend> backends() {
        return backends;
    }

    /**
     * Asks each backend in turn until one approves or denies.
     *
     * @param request what is to be approved
     * @return {@link ApprovalDecision#APPROVED} or {@link ApprovalDecision#DENIED}, never
     *         {@link ApprovalDecision#ABSTAIN}
     * @throws ApprovalTimeoutException if no backend decided
     * @throws InterruptedException     if the calling thread was interrupted while waiting
     */
    @Override
    public ApprovalDecision decide(ApprovalRequest request) throws InterruptedException {
        Objects.requireNonNull(request, "request");
        for (int index = 0; index < backends.size(); index++) {
            ApprovalDecision decision = ask(index, request);
            if (decision == ApprovalDecision.APPROVED || decision == ApprovalDecision.DENIED) {
                return decision;
            }
        }
        throw new ApprovalTimeoutException("No backend in chain could resolve approval for "
                + Messages.quote(request.action()) + ".");
    }

    @Override
    public String toString() {
        return "ChainedApproval{perBackendTimeout=" + perBackendTimeout + ", backends=" + backends + "}";
    }

    /** Runs one backend on its own daemon thread; anything but a decision within the timeout is ABSTAIN. */
    private ApprovalDecision ask(int index, ApprovalRequest request) throws InterruptedException {
        ApprovalBackend backend = backends.get(index);
        Semaphore backendSlots = slots.get(index);
        long deadline = System.nanoTime() + perBackendTimeout.toNanos();
        if (!backendSlots.tryAcquire(perBackendTimeout.toNanos(), TimeUnit.NANOSECONDS)) {
            LOG.warn("Approval backend #{} ({}) not asked for request {}: {} earlier calls of it are still "
                    + "running; passing to the next backend", index, backend, request.id(), maxConcurrentCalls);
            return ApprovalDecision.ABSTAIN;
        }
        CompletableFuture<ApprovalDecision> answer = new CompletableFuture<>();
        ApprovalCall call = new ApprovalCall(ApprovalCall.current());
        Thread worker = start(backend, backendSlots, request, call, answer);
        workerObserver.accept(worker);
        try {
            ApprovalDecision decision = answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return decision == null ? ApprovalDecision.ABSTAIN : decision;
        } catch (TimeoutException e) {
            if (!call.abandon()) {
                // the answer was taken in the same instant: it is being handed over now
                return taken(answer);
            }
            worker.interrupt();
            LOG.warn("Approval backend #{} ({}) gave no answer within {} for request {}; passing to the next "
                    + "backend, and any later answer of it is discarded", index, backend, perBackendTimeout,
                    request.id());
            return ApprovalDecision.ABSTAIN;
        } catch (ExecutionException e) {
            LOG.warn("Approval backend #{} ({}) failed for request {}; passing to the next backend",
                    index, backend, request.id(), e.getCause());
            return ApprovalDecision.ABSTAIN;
        } catch (InterruptedException e) {
            call.abandon();
            worker.interrupt();
            throw e;
        }
    }

    /** The answer of a call that was taken just as the wait for it timed out; it completes right away. */
    private static ApprovalDecision taken(CompletableFuture<ApprovalDecision> answer) throws InterruptedException {
        try {
            ApprovalDecision decision = answer.get();
            return decision == null ? ApprovalDecision.ABSTAIN : decision;
        } catch (ExecutionException e) {
            return ApprovalDecision.ABSTAIN;
        }
    }

    private static Thread start(ApprovalBackend backend, Semaphore backendSlots, ApprovalRequest request,
                                ApprovalCall call, CompletableFuture<ApprovalDecision> answer) {
        Thread worker = new Thread(() -> call.runAsCurrent(() -> {
            try {
                ApprovalDecision decision = backend.decide(request);
                if (call.take()) {
                    answer.complete(decision);
                } else {
                    LOG.warn("Approval backend {} answered {} for request {} after the chain gave up on it; the "
                            + "answer is discarded", backend, decision, request.id());
                }
            } catch (Throwable t) {
                call.abandon();
                answer.completeExceptionally(t);
            } finally {
                backendSlots.release(); // held until the backend really returns, hung or not
            }
        }), THREAD_PREFIX + THREAD_NUMBER.incrementAndGet());
        worker.setDaemon(true);
        try {
            worker.start();
        } catch (Throwable t) {
            backendSlots.release();
            throw t;
        }
        return worker;
    }

    /** Builds a {@link ChainedApproval}; a per-backend timeout and at least one backend are required. */
    public static final class Builder {

        private Duration perBackendTimeout;
        private final List<ApprovalBackend> backends = new ArrayList<>();
        private int maxConcurrentCalls = DEFAULT_MAX_CONCURRENT_CALLS;
        private Consumer<Thread> workerObserver = worker -> { };

        private Builder() {
        }

        /** Test seam: {@code observer} is handed each worker thread right after it starts. */
        Builder workerObserver(Consumer<Thread> observer) {
            this.workerObserver = Objects.requireNonNull(observer, "observer");
            return this;
        }

        /**
         * Sets how long each backend may take.
         *
         * @param perBackendTimeout a positive duration
         * @return this builder
         */
        public Builder perBackendTimeout(Duration perBackendTimeout) {
            this.perBackendTimeout = Timeouts.requirePositive(perBackendTimeout, "ChainedApproval per-backend timeout");
            return this;
        }

        /**
         * Adds a backend at the end of the chain.
         *
         * @param backend the backend
         * @return this builder
         */
        public Builder backend(ApprovalBackend backend) {
            backends.add(Objects.requireNonNull(backend, "backend"));
            return this;
        }

        /**
         * Adds backends at the end of the chain, in iteration order.
         *
         * @param backends the backends
         * @return this builder
         */
        public Builder backends(List<? extends ApprovalBackend> backends) {
            Objects.requireNonNull(backends, "backends").forEach(this::backend);
            return this;
        }

        /**
         * Bounds how many calls of each backend of this chain may run at once, hung calls included
         * (default {@value ChainedApproval#DEFAULT_MAX_CONCURRENT_CALLS}).
         *
         * @param maxConcurrentCalls at least 1
         * @return this builder
         */
        public Builder maxConcurrentCalls(int maxConcurrentCalls) {
            if (maxConcurrentCalls < 1) {
                throw new IllegalArgumentException("ChainedApproval maxConcurrentCalls must be at least 1, got "
                        + maxConcurrentCalls);
            }
            this.maxConcurrentCalls = maxConcurrentCalls;
            return this;
        }

        /**
         * Builds the chain.
         *
         * @return the chain
         */
        public ChainedApproval build() {
            return new ChainedApproval(this);
        }
    }
}
