package dev.mero.core.ops;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileSystemException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs an {@code open} that could block on a thread of its own, so that the caller waits a bounded time.
 *
 * <p>Java opens files and directories without {@code O_NONBLOCK} or {@code O_DIRECTORY}, so an {@code open} of a
 * FIFO blocks until a writer appears, and a swap of a checked file or directory for a FIFO between the type check
 * and the {@code open} would block the calling thread for good. The open therefore runs on an opener thread while
 * the caller waits: after {@link #RELEASE_AFTER_NANOS} a pipe found at the name is opened for reading and writing
 * and closed again (which never blocks on Linux and lets the blocked open return, to be refused by the caller's
 * type check), and after {@link #GIVE_UP_AFTER_NANOS} the caller gives up with a refusal. An open that cannot be
 * released (a pipe this process may read but not write, a device) keeps its thread until it returns, then closes
 * what it opened; at most {@link #MAX_THREADS} opener threads are ever used (and as many for {@link #aside}), so a
 * planted pipe costs a bounded number of threads, never the caller.
 *
 * <p>A thread that a caller already waits for with a bound of its own ({@link #boundedThread}, {@link #aside}) opens
 * inline, without a hand-off, in view of that caller ({@link Watch}): {@code search_text}'s workers open thousands of
 * files, and a walk hundreds of directories.
 */
final class BoundedOpen {

    /** How long an open runs before a pipe at its name is released. */
    static final long RELEASE_AFTER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** How long a caller waits for an open at most. */
    static final long GIVE_UP_AFTER_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** The most opener threads at once, blocked ones included. */
    static final int MAX_THREADS = 32;

    /** How long a task is offered again, a millisecond apart, while every opener thread is busy. */
    private static final long START_WAIT_NANOS = GIVE_UP_AFTER_NANOS;

    /** The watch of a thread whose opens run inline, or {@code null}. */
    private static final ThreadLocal<Watch> WATCH = new ThreadLocal<>();

    private static final ThreadPoolExecutor OPENERS = new ThreadPoolExecutor(0, MAX_THREADS, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), task -> boundedThread(task, "mero-open"));
    /** Threads for {@link #aside}: as many again, each held for good only by an open that nothing can release. */
    private static final ThreadPoolExecutor ASIDE = new ThreadPoolExecutor(0, MAX_THREADS, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), task -> boundedThread(task, "mero-walk"));

    /**
     * How long an opener thread stays awake for the next open after one, while the CPUs are not contended: waking
     * a sleeping thread on an idle CPU of a virtual machine costs tens of microseconds, and an open two such
     * wake-ups (measured: 76 us per guarded 4 KiB read on Java 17 on the quiet 2-core machine, 3 us unguarded).
     */
    private static final long HOT_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /** How long a caller spins for the result of its open before it sleeps: most opens end within it. */
    private static final long CALLER_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
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

    private BoundedOpen() {
    }

    /** An open to run. */
    @FunctionalInterface
    interface Call<T extends Closeable> {
        /**
         * Opens.
         *
         * @return what was opened
         * @throws IOException if it cannot be opened
         */
        T open() throws IOException;
    }

    /**
     * A daemon thread whose caller bounds its wait itself: opens on it run inline.
     *
     * @param task what it runs
     * @param name its name
     * @return the thread, not started
     */
    static Thread boundedThread(Runnable task, String name) {
        Thread thread = new Thread(() -> {
            WATCH.set(new Watch());
            task.run();
        }, name);
        thread.setDaemon(true);
        return thread;
    }

    /**
     * Opens, waiting a bounded time.
     *
     * @param call    the open
     * @param keep    what the open uses (its directory), already retained for it: closed when the open returns,
     *                so that a blocked open never has its directory closed under it
     * @param release asks for a pipe at the opened name to be released; run on the caller's thread, so it must
     *                hand anything that could block to another thread ({@link #release(Runnable)})
     * @param <T>     what is opened
     * @return what was opened
     * @throws IOException if the open fails, or does not complete within {@link #GIVE_UP_AFTER_NANOS}
     */
    static <T extends Closeable> T open(Call<T> call, Closeable keep, Runnable release) throws IOException {
        Watch watch = WATCH.get();
        if (watch != null) {
            try (keep) {
                return watch.open(call, release);
            }
        }
        Task<T> task = new Task<>(call, keep);
        if (!start(task)) {
            keep.close();
            throw new FileSystemException(null, null, MAX_THREADS + " opens are blocked already (a pipe or device "
                    + "in place of a file or directory?); nothing more is opened until they end");
        }
        return task.await(release);
    }

    /**
     * Runs a release on an opener thread, without waiting for it.
     *
     * @param release the release
     * @return whether it was started (not if every opener thread is busy)
     */
    static boolean release(Runnable release) {
        return start(release);
    }

    /**
     * Hands a task to an opener thread; when all are busy, waits for one to be free, up to the time a caller waits
     * for an open at all: busy is not blocked (a burst of concurrent calls on a loaded machine keeps every thread
     * busy for a moment), and only threads held by pipes keep a thread from coming free for that long.
     */
    private static boolean start(Runnable task) {
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

    /** The refusal of an open given up after {@link #GIVE_UP_AFTER_NANOS}. */
    private static FileSystemException notOpened() {
        return new FileSystemException(null, null, "it did not open within "
                + TimeUnit.NANOSECONDS.toMillis(GIVE_UP_AFTER_NANOS) + " ms; it is not a regular file or "
                + "directory (a pipe or device in its place?)");
    }

    /** Work that opens, for {@link #aside}. */
    @FunctionalInterface
    interface Work<T> {
        /**
         * Does the work.
         *
         * @return its result
         * @throws IOException if it fails
         */
        T run() throws IOException;
    }

    /**
     * Runs work that opens many entries (a walk) on a thread of its own whose opens run inline, while the caller
     * waits and bounds each open as {@link #open} does: a pipe an open has waited on for
     * {@link #RELEASE_AFTER_NANOS} is released, and after {@link #GIVE_UP_AFTER_NANOS} the caller gives up with the
     * same refusal; the work stops at its next open and closes what that open returns. A hand-off per call instead
     * of one per open. When every such thread is held, or the caller's own opens run inline, the work runs on the
     * caller, each open bounded by itself.
     *
     * @param work the work, which must leave nothing behind that matters when it is given up
     * @param <T>  its result
     * @return its result
     * @throws IOException if it fails, or an open of it is given up
     */
    static <T> T aside(Work<T> work) throws IOException {
        if (WATCH.get() != null) {
            return work.run();
        }
        Aside<T> aside = new Aside<>(work);
        try {
            ASIDE.execute(aside);
        } catch (RejectedExecutionException e) {
            return work.run();
        }
        return aside.await();
    }

    /** Work run by {@link #aside} and its outcome. */
    private static final class Aside<T> implements Runnable {
        private final Work<T> work;
        private final CountDownLatch done = new CountDownLatch(1);
        private final Watch watch = new Watch();
        private T result;
        private Throwable failure;

        Aside(Work<T> work) {
            this.work = work;
        }

        @Override
        public void run() {
            WATCH.set(watch);
            try {
                result = work.run();
            } catch (Throwable t) {
                failure = t;
            } finally {
                done.countDown();
            }
        }

        T await() throws IOException {
            try {
                while (!done.await(RELEASE_AFTER_NANOS, TimeUnit.NANOSECONDS)) {
                    if (watch.check(System.nanoTime()) >= GIVE_UP_AFTER_NANOS) {
                        watch.abandon();
                        throw notOpened();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                watch.abandon();
                throw new InterruptedIOException("interrupted while opening");
            }
            rethrow(failure);
            return result;
        }
    }

    /**
     * The open a thread runs inline, in view of the caller that bounds its wait: the caller releases a pipe the
     * open has waited on a while ({@link #check}), and gives it up, after which the open's result is closed and
     * every later open on the thread fails. Release and return are exclusive, so a release never reaches a
     * directory its open has let go of.
     */
    static final class Watch {
        private Runnable release;
        private long since;
        private boolean released;
        private boolean abandoned;

        /** The current thread's watch, or {@code null} if its opens are handed off. */
        static Watch current() {
            return WATCH.get();
        }

        private <T extends Closeable> T open(Call<T> call, Runnable release) throws IOException {
            synchronized (this) {
                if (abandoned) {
                    throw notOpened();
                }
                this.release = release;
                this.since = System.nanoTime();
                this.released = false;
            }
            T opened = null;
            boolean unwanted;
            try {
                opened = call.open();
            } finally {
                synchronized (this) {
                    this.release = null;
                    unwanted = abandoned;
                }
                if (unwanted) {
                    closeQuietly(opened);
                }
            }
            if (unwanted) {
                throw notOpened();
            }
            return opened;
        }

        /**
         * Releases a pipe the open in progress has waited on for {@link #RELEASE_AFTER_NANOS}, once per open.
         *
         * @param now {@link System#nanoTime()}
         * @return how long the open in progress has run, 0 if none runs
         */
        synchronized long check(long now) {
            if (release == null) {
                return 0;
            }
            long running = now - since;
            if (!released && running > RELEASE_AFTER_NANOS) {
                released = true;
                release.run();
            }
            return running;
        }

        /** Gives up the open in progress and every later one. */
        synchronized void abandon() {
            abandoned = true;
        }
    }

    /** Throws what another thread failed with, if anything. */
    private static void rethrow(Throwable failure) throws IOException {
        if (failure instanceof IOException io) {
            throw io;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
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

    private static void closeQuietly(Closeable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (IOException | RuntimeException e) {
            // nothing depends on it any more
        }
    }

    /** One open and its outcome. */
    private static final class Task<T extends Closeable> implements Runnable {
        private final Call<T> call;
        private final Closeable keep;
        private T opened;
        private Throwable failure;
        private volatile boolean done;
        private boolean abandoned;

        Task(Call<T> call, Closeable keep) {
            this.call = call;
            this.keep = keep;
        }

        @Override
        public void run() {
            T result = null;
            Throwable failed = null;
            try {
                result = call.open();
            } catch (Throwable t) {
                failed = t;
            }
            // let go of the directory before the caller hears of it, so that the caller's close is the last one
            closeQuietly(keep);
            boolean unwanted;
            synchronized (this) {
                opened = result;
                failure = failed;
                done = true;
                unwanted = abandoned;
                notifyAll();
            }
            if (unwanted) {
                closeQuietly(result);
            }
        }

        T await(Runnable release) throws IOException {
            long start = System.nanoTime();
            while (!done && System.nanoTime() - start < CALLER_SPIN_NANOS) {
                Thread.onSpinWait(); // most opens end within this; sleeping and waking costs more
            }
            try {
                if (!waitUntil(start + RELEASE_AFTER_NANOS)) {
                    release.run();
                    waitUntil(start + GIVE_UP_AFTER_NANOS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                if (abandon()) {
                    closeQuietly(opened());
                }
                throw new InterruptedIOException("interrupted while opening");
            }
            if (!abandon()) {
                throw notOpened();
            }
            return outcome();
        }

        /** Waits until done or {@code until}; returns whether it is done. */
        private synchronized boolean waitUntil(long until) throws InterruptedException {
            while (!done) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return true;
        }

        /** Gives the open up unless it is done; returns whether it is done. */
        private synchronized boolean abandon() {
            if (!done) {
                abandoned = true;
            }
            return done;
        }

        private synchronized T opened() {
            return opened;
        }

        private synchronized T outcome() throws IOException {
            rethrow(failure);
            return opened;
        }
    }
}
