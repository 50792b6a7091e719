package dev.mero.core.ops;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;

/**
 * One open handed to an {@linkplain OpenerThreads opener thread} and its outcome: the caller spins a moment, then
 * waits, releases a pipe at the name, and gives the open up after {@link BoundedOpen#GIVE_UP_AFTER_NANOS}; an open
 * given up closes what it opens when it returns.
 *
 * @param <T> what is opened
 */
final class OpenTask<T extends Closeable> implements Runnable {

    /** How long a caller spins for the result of its open before it sleeps: most opens end within it. */
    private static final long CALLER_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private final BoundedOpen.Call<T> call;
    private final Closeable keep;
    private T opened;
    private Throwable failure;
    private volatile boolean done;
    private boolean abandoned;

    OpenTask(BoundedOpen.Call<T> call, Closeable keep) {
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
        BoundedOpen.closeQuietly(keep);
        boolean unwanted;
        synchronized (this) {
            opened = result;
            failure = failed;
            done = true;
            unwanted = abandoned;
            notifyAll();
        }
        if (unwanted) {
            BoundedOpen.closeQuietly(result);
        }
    }

    T await(Runnable release) throws IOException {
        long start = System.nanoTime();
        while (!done && System.nanoTime() - start < CALLER_SPIN_NANOS) {
            Thread.onSpinWait(); // most opens end within this; sleeping and waking costs more
        }
        try {
            if (!waitUntil(start + BoundedOpen.RELEASE_AFTER_NANOS)) {
                release.run();
                waitUntil(start + BoundedOpen.GIVE_UP_AFTER_NANOS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (abandon()) {
                BoundedOpen.closeQuietly(opened());
            }
            throw new InterruptedIOException("interrupted while opening");
        }
        if (!abandon()) {
            throw BoundedOpen.notOpened();
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
        BoundedOpen.rethrow(failure);
        return opened;
    }
}
