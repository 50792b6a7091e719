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

    /** The watch of a thread whose opens run inline, or {@code null}. */
    private static final ThreadLocal<Watch> WATCH = new ThreadLocal<>();

    /** Threads for {@link #aside}: as many again, each held for good only by an open that nothing can release. */
    private static final ThreadPoolExecutor ASIDE = new ThreadPoolExecutor(0, MAX_THREADS, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), task -> boundedThread(task, "mero-walk"));

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
        OpenTask<T> task = new OpenTask<>(call, keep);
        if (!OpenerThreads.start(task)) {
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
        return OpenerThreads.start(release);
    }

    /** The refusal of an open given up after {@link #GIVE_UP_AFTER_NANOS}. */
    static FileSystemException notOpened() {
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
    static void rethrow(Throwable failure) throws IOException {
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

    static void closeQuietly(Closeable closeable) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (IOException | RuntimeException e) {
            // nothing depends on it any more
        }
    }


}
