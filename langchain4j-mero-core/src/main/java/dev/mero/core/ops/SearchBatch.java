package dev.mero.core.ops;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Supplier;

/**
 * The files of one directory that {@code search_text} has listed but not yet searched, searched together when the
 * walk settles ({@link TreeWalk.Visitor#settle()}): by one worker thread of this search, or two when the search was
 * given two threads, each with its own {@link FileScanner}. Results come back in listing order, so the output is the
 * same as searching one file after the other; at most {@link #MAX_PENDING} files wait, and all of them are searched
 * before their directory is closed. Used by one search at a time; {@link #close()} ends the workers.
 *
 * <p>The calling thread never opens a file itself: a file swapped for a pipe after it was listed blocks its
 * worker's {@code open} ({@link BoundedOpen}), so the caller waits for the workers only until the search's
 * deadline, and asks for such a pipe to be released while it waits ({@link BoundedOpen.Watch}). A worker keeps the
 * directories of its files open until it ends ({@link SecureDirectory#retain()}), so the walk can close them
 * whatever a worker waits for.
 */
final class SearchBatch implements AutoCloseable {

    /** How many files wait at most; after a stop, at most this many were searched in vain. */
    static final int MAX_PENDING = 64;

    /** A listed file waiting to be searched. */
    record Pending(SecureDirectory parent, String name, long size, Supplier<String> virtualPath) {
    }

    /** A searched file and what it held. */
    record Searched(Pending file, FileScanner.Found found) {
    }

    /** One worker's scanner and the watch of its thread's opens. */
    private static final class Worker {
        final FileScanner scanner;
        volatile BoundedOpen.Watch watch;

        Worker(FileScanner scanner) {
            this.scanner = scanner;
        }
    }

    private final Supplier<FileScanner> scanners;
    private final boolean parallel;
    private final long deadline;
    private final List<Pending> pending = new ArrayList<>();
    private final List<Worker> workers = new ArrayList<>();
    private ExecutorService executor;
    /** Set when the caller stopped waiting for a worker: the batch searches nothing more. */
    private boolean abandoned;

    /**
     * Prepares a batch.
     *
     * @param scanners makes a scanner for each thread
     * @param threads  1 or 2
     * @param deadline {@link System#nanoTime()} at which to stop
     */
    SearchBatch(Supplier<FileScanner> scanners, int threads, long deadline) {
        this.scanners = scanners;
        this.parallel = threads > 1;
        this.deadline = deadline;
    }

    /**
     * Adds a file.
     *
     * @param file the listed file
     * @return {@code true} when the batch is full and must be searched now
     */
    boolean add(Pending file) {
        pending.add(file);
        return pending.size() >= MAX_PENDING;
    }

    /**
     * Searches the waiting files and empties the batch. A file the workers did not reach by the deadline (a worker
     * blocked on a pipe) comes back as not searched and timed out.
     *
     * @return each file with what it held, in the order they were added
     */
    List<Searched> search() {
        int count = pending.size();
        AtomicReferenceArray<FileScanner.Found> found = new AtomicReferenceArray<>(count);
        if (count > 0 && !abandoned) {
            int threads = parallel && count > 1 ? 2 : 1;
            start(threads);
            AtomicInteger next = new AtomicInteger();
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch finished = new CountDownLatch(threads);
            List<Pending> files = List.copyOf(pending);
            for (int w = 0; w < threads; w++) {
                Worker worker = workers.get(w);
                List<SecureDirectory> kept = retainDirectories();
                executor.execute(() -> {
                    try {
                        drain(worker, files, next, stop, found);
                    } finally {
                        kept.forEach(SearchBatch::closeQuietly);
                        finished.countDown();
                    }
                });
            }
            if (!await(finished, threads)) {
                stop.set(true);
                abandoned = true;
            }
        }
        List<Searched> searched = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            FileScanner.Found one = found.get(i);
            if (one == null) {
                one = new FileScanner.Found();
                one.timedOut = true;
            }
            searched.add(new Searched(pending.get(i), one));
        }
        pending.clear();
        return searched;
    }

    private void start(int threads) {
        if (executor == null) {
            executor = Executors.newFixedThreadPool(parallel ? 2 : 1,
                    task -> BoundedOpen.boundedThread(task, "mero-search-text"));
        }
        while (workers.size() < threads) {
            workers.add(new Worker(scanners.get()));
        }
    }

    /** Each distinct directory of the waiting files, retained once for a worker. */
    private List<SecureDirectory> retainDirectories() {
        List<SecureDirectory> kept = new ArrayList<>(1);
        for (Pending file : pending) {
            // a loop, not a stream per file: the files of a batch are mostly of one directory
            SecureDirectory parent = file.parent();
            if (parent != null && !containsSame(kept, parent)) {
                kept.add(parent.retain());
            }
        }
        return kept;
    }

    private static boolean containsSame(List<SecureDirectory> directories, SecureDirectory directory) {
        for (int i = directories.size() - 1; i >= 0; i--) {
            if (directories.get(i) == directory) {
                return true;
            }
        }
        return false;
    }

    private void drain(Worker worker, List<Pending> files, AtomicInteger next, AtomicBoolean stop,
                       AtomicReferenceArray<FileScanner.Found> found) {
        worker.watch = BoundedOpen.Watch.current();
        try {
            for (int i = next.getAndIncrement(); i < found.length() && !stop.get(); i = next.getAndIncrement()) {
                Pending file = files.get(i);
                found.set(i, worker.scanner.scan(file.parent(), file.name(), file.size(), deadline));
            }
        } finally {
            // the directories are closed after this batch; so is any descriptor the scanner kept of one
            worker.scanner.release();
        }
    }

    /**
     * Waits for the workers until the deadline, releasing a pipe a worker has been opening for a while.
     *
     * @return whether every worker finished
     */
    private boolean await(CountDownLatch finished, int threads) {
        boolean interrupted = false;
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                if (deadline != Long.MAX_VALUE && left <= 0) {
                    return finished.getCount() == 0;
                }
                long slice = deadline == Long.MAX_VALUE ? BoundedOpen.RELEASE_AFTER_NANOS
                        : Math.min(left, BoundedOpen.RELEASE_AFTER_NANOS);
                try {
                    if (finished.await(slice, TimeUnit.NANOSECONDS)) {
                        return true;
                    }
                } catch (InterruptedException e) {
                    interrupted = true;
                }
                releaseStuck(threads);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Asks for a pipe to be released where a worker's open has waited a while ({@link BoundedOpen.Watch}). */
    private void releaseStuck(int threads) {
        long now = System.nanoTime();
        for (int w = 0; w < threads; w++) {
            BoundedOpen.Watch watch = workers.get(w).watch;
            if (watch != null) {
                watch.check(now);
            }
        }
    }

    private static void closeQuietly(SecureDirectory directory) {
        try {
            directory.close();
        } catch (IOException e) {
            // a directory handle that cannot be closed holds nothing else
        }
    }

    @Override
    public void close() {
        if (executor != null) {
            executor.shutdownNow();
        }
    }
}
