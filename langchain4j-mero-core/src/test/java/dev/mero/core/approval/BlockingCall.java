package dev.mero.core.approval;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A blocking call run on a thread of its own, so that a test can interrupt it and inspect how it ended. */
final class BlockingCall {

    private final Thread thread;
    private final CompletableFuture<Object> outcome = new CompletableFuture<>();
    private volatile boolean interruptedAtEnd;

    private BlockingCall(Callable<?> call) {
        thread = new Thread(() -> {
            try {
                outcome.complete(call.call());
            } catch (Throwable t) {
                outcome.complete(t);
            } finally {
                interruptedAtEnd = Thread.currentThread().isInterrupted();
            }
        }, "blocking-call");
        thread.start();
    }

    static BlockingCall start(Callable<?> call) {
        return new BlockingCall(call);
    }

    void interrupt() {
        thread.interrupt();
    }

    /** What the call threw; fails if it returned instead. */
    Throwable failure() throws Exception {
        Object result = outcome.get(10, TimeUnit.SECONDS);
        if (result instanceof Throwable failure) {
            return failure;
        }
        throw new AssertionError("the call returned " + result + " instead of failing");
    }

    /** Whether the call's thread still had its interrupt flag set when the call ended. */
    boolean interruptedAtEnd() throws Exception {
        outcome.get(10, TimeUnit.SECONDS);
        thread.join(TimeUnit.SECONDS.toMillis(10));
        return interruptedAtEnd;
    }
}
