package dev.mero.core.ops;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The threads {@link BoundedOpen} hands opens to: at most {@link BoundedOpen#MAX_THREADS}, pooled, and kept awake
 * for a moment after each task while the CPUs are not contended, so that a run of opens pays no thread wake-up
 * each. Whether spinning pays is judged as it goes: a spin the scheduler interrupted stops all spinning for a while.
 */
final class OpenerThreads {

    private static final ThreadPoolExecutor OPENERS = new ThreadPoolExecutor(0, BoundedOpen.MAX_THREADS, 30,
            TimeUnit.SECONDS, new SynchronousQueue<>(), task -> BoundedOpen.boundedThread(task, "mero-open"));
    /** How long a task is offered again, a millisecond apart, while every opener thread is busy. */
    private static final long START_WAIT_NANOS = BoundedOpen.GIVE_UP_AFTER_NANOS;
    /**
     * How long an opener thread stays awake for the next open after one, while the CPUs are not contended: waking
     * a sleeping thread on an idle CPU of a virtual machine costs tens of microseconds, and an open two such
     * wake-ups (measured: 76 us per guarded 4 KiB read on Java 17 on the quiet 2-core machine, 3 us unguarded).
     */
    private static final long HOT_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /**
     * A gap this long between two looks at the slot means the scheduler stopped the spinning thread for another's
     * time slice. Shorter gaps happen on a quiet virtual machine too (20 us and 10 us below took the spin away
     * there: 12x a raw read instead of 3.9x); a time slice on a loaded one is longer.
     */
    private static final long PREEMPTED_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** How long nothing spins for a task once the CPUs were found contended. */
    private static final long CALM_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** Until when nothing spins for a task ({@link System#nanoTime()}). */
    private static volatile long calmUntil = System.nanoTime();
    /** How long a task waits in the slot for an awake opener thread before its caller takes it back. */
    private static final long PICKUP_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    /** A task for an opener thread that is awake; taken back by its caller if none is. */
    private static final AtomicReference<Runnable> HOT_SLOT = new AtomicReference<>();
    /** How many opener threads are awake and waiting at {@link #HOT_SLOT}. */
    private static final AtomicInteger AWAKE = new AtomicInteger();

    private OpenerThreads() {
    }

    /**
     * Hands a task to an opener thread; when all are busy, waits for one to be free, up to the time a caller waits
     * for an open at all: busy is not blocked (a burst of concurrent calls on a loaded machine keeps every thread
     * busy for a moment), and only threads held by pipes keep a thread from coming free for that long.
     */
    static boolean start(Runnable task) {
        if (AWAKE.get() > 0 && !contended(System.nanoTime()) && HOT_SLOT.compareAndSet(null, task)
                && takenFromSlot(task)) {
            return true;
        }
        long deadline = System.nanoTime() + START_WAIT_NANOS;
        while (true) {
            try {
                OPENERS.execute(() -> runHot(task));
                return true;
            } catch (RejectedExecutionException e) {
                if (System.nanoTime() - deadline >= 0) {
                    return false;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
    }

    /**
     * Waits a moment for an awake opener thread to take a task from the slot; takes it back if none does. An awake
     * thread spins on the slot and takes a task within a microsecond while it has a CPU; on a loaded machine the
     * scheduler may have stopped it mid-spin, and waiting for its next time slice would cost milliseconds where a
     * sleeping pool thread, woken, runs at once (measured at load 8 on 2 cores: 21-31x a raw read with the wait,
     * 4x without it). The same if every awake thread went back to sleep meanwhile (an opener thread checks the
     * slot once more after it stops being awake, so nothing is left there).
     *
     * @return whether a thread took it; if not, the slot no longer holds it
     */
    private static boolean takenFromSlot(Runnable task) {
        long until = System.nanoTime() + PICKUP_NANOS;
        while (HOT_SLOT.get() == task) {
            long now = System.nanoTime();
            if (AWAKE.get() == 0 || now - until >= 0) {
                if (HOT_SLOT.compareAndSet(task, null)) {
                    if (now - until >= 0) {
                        calm(now); // an awake thread did not come to it: stopped by the scheduler
                    }
                    return false;
                }
                return true;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    /**
     * Runs a task on an opener thread, then stays awake a moment for the next one before going back to the pool,
     * unless the CPUs are contended: a thread the scheduler stops mid-spin takes the next task only in its next time
     * slice, and spinning threads lose their place to sleeping ones (measured at load 8 on 2 cores: 21-31x a raw read
     * with the spin, 4x without; on the quiet machine 3.8x with it, 24x without).
     */
    private static void runHot(Runnable first) {
        first.run();
        long last = System.nanoTime();
        if (contended(last)) {
            return;
        }
        long until = last + HOT_NANOS;
        AWAKE.incrementAndGet();
        boolean awake = true;
        try {
            while (true) {
                long now = System.nanoTime();
                if (now - until >= 0) {
                    break;
                }
                if (now - last > PREEMPTED_NANOS) {
                    calm(now); // stopped by the scheduler between two looks at the slot
                    break;
                }
                last = now;
                Runnable next = HOT_SLOT.getAndSet(null);
                if (next == null) {
                    Thread.onSpinWait();
                    continue;
                }
                // not awake while it runs: an open may block (a pipe), and nothing must wait at the slot for it
                AWAKE.decrementAndGet();
                awake = false;
                next.run();
                AWAKE.incrementAndGet();
                awake = true;
                last = System.nanoTime();
                until = last + HOT_NANOS;
            }
        } finally {
            if (awake) {
                AWAKE.decrementAndGet();
            }
        }
        Runnable left = HOT_SLOT.getAndSet(null);
        if (left != null) {
            left.run();
        }
    }

    /** Whether the CPUs were found contended lately: then nothing spins for a task. */
    private static boolean contended(long now) {
        return now - calmUntil < 0;
    }

    /** Stops the spinning for a while: the CPUs are contended. */
    private static void calm(long now) {
        calmUntil = now + CALM_NANOS;
    }
}
