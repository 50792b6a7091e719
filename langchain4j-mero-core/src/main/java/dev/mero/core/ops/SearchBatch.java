package dev.mero.core.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The files of one directory that {@code search_text} has listed but not yet searched, searched together when the
 * walk settles ({@link TreeWalk.Visitor#settle()}): by the calling thread and, when the search was given two
 * threads, one helper thread of this search, each with its own {@link FileScanner}. Results come back in listing
 * order, so the output is the same as searching one file after the other; at most {@link #MAX_PENDING} files wait,
 * and all of them are searched before their directory is closed. Used by one search at a time; {@link #close()}
 * ends the helper.
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

    private final Supplier<FileScanner> scanners;
    private final boolean parallel;
    private final long deadline;
    private final List<Pending> pending = new ArrayList<>();
    private final FileScanner own;
    private FileScanner helperScanner;
    private ExecutorService helper;

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
        this.own = scanners.get();
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
     * Searches the waiting files and empties the batch.
     *
     * @return each file with what it held, in the order they were added
     */
    List<Searched> search() {
        int count = pending.size();
        FileScanner.Found[] found = new FileScanner.Found[count];
        if (!parallel || count < 2) {
            for (int i = 0; i < count; i++) {
                found[i] = scan(own, pending.get(i));
            }
        } else {
            AtomicInteger next = new AtomicInteger();
            if (helper == null) {
                helperScanner = scanners.get();
                helper = Executors.newSingleThreadExecutor(task -> {
                    Thread thread = new Thread(task, "mero-search-text");
                    thread.setDaemon(true);
                    return thread;
                });
            }
            Future<?> other = helper.submit(() -> drain(next, found, helperScanner));
            drain(next, found, own);
            await(other);
        }
        List<Searched> searched = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            searched.add(new Searched(pending.get(i), found[i]));
        }
        pending.clear();
        return searched;
    }

    private void drain(AtomicInteger next, FileScanner.Found[] found, FileScanner scanner) {
        for (int i = next.getAndIncrement(); i < found.length; i = next.getAndIncrement()) {
            found[i] = scan(scanner, pending.get(i));
        }
    }

    private FileScanner.Found scan(FileScanner scanner, Pending file) {
        return scanner.scan(file.parent(), file.name(), file.size(), deadline);
    }

    /** Waits for the helper's share, which file size and the deadline bound, even if interrupted. */
    private static void await(Future<?> other) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    other.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    if (e.getCause() instanceof Error error) {
                        throw error;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        if (helper != null) {
            helper.shutdownNow();
        }
    }
}
