package dev.mero.mcp;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import reactor.core.scheduler.Schedulers;

/**
 * The thread behind the MCP SDK's sweep of idle Streamable HTTP sessions, so that closing the server ends it.
 *
 * <p>The SDK's transport (2.1) sweeps on a single-thread Reactor scheduler of its own, started while it is built,
 * and closing the transport stops the sweeps but never disposes that scheduler: its thread is not a daemon, so a JVM
 * that closed its server would not exit. The scheduler is out of reach, but Reactor hands every new scheduler's
 * executor to the registered decorators; one is registered while the transport is built, to catch that executor,
 * and {@link #shutdown()} ends it after the transport is closed.
 */
final class SdkSweeper {

    /** The SDK's name for the sweep's scheduler (its thread names start with it). */
    static final String SCHEDULER_NAME = "streamable-http-server-transport-session-sweeper";
    /** One build at a time: a decorator sees every scheduler made in the JVM while it is registered. */
    private static final Object BUILDING = new Object();
    private static final AtomicLong KEYS = new AtomicLong();

    private final List<ScheduledExecutorService> executors;

    private SdkSweeper(List<ScheduledExecutorService> executors) {
        this.executors = List.copyOf(executors);
    }

    /** What was built, and the sweeper threads it started. */
    record Built<T>(T value, SdkSweeper sweeper) {
    }

    /**
     * Builds a transport, catching the executor of any sweep scheduler started meanwhile.
     *
     * @param build builds the transport
     * @param <T>   the transport's type
     * @return the transport and its sweeper
     */
    static <T> Built<T> build(Supplier<T> build) {
        List<ScheduledExecutorService> caught = new CopyOnWriteArrayList<>();
        String key = "mero-sdk-sweeper-" + KEYS.incrementAndGet();
        synchronized (BUILDING) {
            Schedulers.addExecutorServiceDecorator(key, (scheduler, executor) -> {
                if (scheduler.toString().contains(SCHEDULER_NAME)) {
                    caught.add(executor);
                }
                return executor;
            });
            try {
                return new Built<>(build.get(), new SdkSweeper(caught));
            } finally {
                Schedulers.removeExecutorServiceDecorator(key);
            }
        }
    }

    /** Whether the build started a sweep's thread (and it was caught). */
    boolean caught() {
        return !executors.isEmpty();
    }

    /** Ends the sweep's thread; the transport must be closed first (its sweeps are then disposed). */
    void shutdown() {
        executors.forEach(ScheduledExecutorService::shutdownNow);
    }

    /**
     * Waits for the sweep's thread to end.
     *
     * @param timeout how long at most
     * @param unit    its unit
     * @return whether a sweep's thread was caught and every one has ended
     * @throws InterruptedException if the waiting thread is interrupted
     */
    boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        if (executors.isEmpty()) {
            return false;
        }
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (ScheduledExecutorService executor : executors) {
            if (!executor.awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }
}
