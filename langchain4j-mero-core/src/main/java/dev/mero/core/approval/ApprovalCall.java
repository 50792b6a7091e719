package dev.mero.core.approval;

import java.util.ArrayList;
import java.util.List;

/**
 * One backend call that a {@link ChainedApproval} runs on a worker thread, and whether its answer was taken or
 * abandoned. A backend that remembers an answer ({@link SessionApprovalMemory}) registers the remembering with
 * the call it runs in; it happens only if the chain takes the answer, never when the chain has already given
 * up on the call (timed out, interrupted). Taking and abandoning are one atomic choice, so an answer is either
 * used and remembered, or discarded and forgotten.
 *
 * <p>A call inside a chain that itself runs inside a chain hands its registered work to the outer call when it
 * is taken, so the work happens only if every enclosing chain takes the answer. Thread-safe.
 */
final class ApprovalCall {

    private static final ThreadLocal<ApprovalCall> CURRENT = new ThreadLocal<>();

    private enum State { PENDING, TAKEN, ABANDONED }

    private final ApprovalCall enclosing;
    private final List<Runnable> onTaken = new ArrayList<>();
    private State state = State.PENDING;

    ApprovalCall(ApprovalCall enclosing) {
        this.enclosing = enclosing;
    }

    /** The call the current thread runs a backend for, or {@code null} outside any chain. */
    static ApprovalCall current() {
        return CURRENT.get();
    }

    /** Runs {@code body} as this call on the current (worker) thread. */
    void runAsCurrent(Runnable body) {
        CURRENT.set(this);
        try {
            body.run();
        } finally {
            CURRENT.remove();
        }
    }

    /**
     * Does {@code work} when the call's answer is taken (at once if there is no enclosing call left to decide).
     *
     * @return {@code false} if the call was already abandoned: the work is dropped
     */
    boolean whenTaken(Runnable work) {
        synchronized (this) {
            if (state == State.PENDING) {
                onTaken.add(work);
                return true;
            }
            if (state == State.ABANDONED) {
                return false;
            }
        }
        return handOn(work);
    }

    /** The chain takes the answer; registered work is done. {@code false} if the call was abandoned first. */
    boolean take() {
        List<Runnable> work;
        synchronized (this) {
            if (state != State.PENDING) {
                return state == State.TAKEN;
            }
            state = State.TAKEN;
            work = List.copyOf(onTaken);
            onTaken.clear();
        }
        work.forEach(this::handOn);
        return true;
    }

    /** The chain gives up on the call; registered work is dropped. {@code false} if the answer was taken first. */
    boolean abandon() {
        synchronized (this) {
            if (state != State.PENDING) {
                return state == State.ABANDONED;
            }
            state = State.ABANDONED;
            onTaken.clear();
            return true;
        }
    }

    private boolean handOn(Runnable work) {
        if (enclosing != null) {
            return enclosing.whenTaken(work);
        }
        work.run();
        return true;
    }
}
