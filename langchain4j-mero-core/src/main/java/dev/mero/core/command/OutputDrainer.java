package dev.mero.core.command;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A daemon thread that drains one output stream of a command into a {@link BoundedOutput}, so that the
 * command never blocks on a full pipe, however much it writes.
 *
 * <p>The thread never blocks in {@code read()}: it reads only what {@link InputStream#available()}
 * reports and otherwise parks for a few milliseconds. A blocking read could not be cut short, because
 * Java cannot interrupt a thread blocked on a pipe and closing the stream does not wake it, and a
 * grandchild that escaped the process-tree kill may hold the pipe open forever. Polling lets
 * {@link #finish()} stop the thread at once whoever still holds the other end.
 */
final class OutputDrainer {

    private static final int BUFFER_SIZE = 16 * 1024;
    private static final long MIN_IDLE_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    private static final long MAX_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long JOIN_MILLIS = 5_000;

    /** Drainer threads whose drain loop has not ended: a run must leave none behind. */
    private static final Set<Thread> RUNNING = ConcurrentHashMap.newKeySet();

    private final InputStream in;
    private final BoundedOutput output;
    private final Thread thread;
    private volatile boolean finishing;

    private OutputDrainer(InputStream in, int limit, String threadName) {
        this.in = in;
        this.output = new BoundedOutput(limit);
        this.thread = new Thread(this::drain, threadName);
        this.thread.setDaemon(true);
    }

    /**
     * Starts draining a stream on a new daemon thread.
     *
     * @param in         the stream, owned by the drainer from now on
     * @param limit      how many bytes to keep
     * @param threadName the thread's name, {@code mero-runner-...}
     * @return the running drainer
     */
    static OutputDrainer start(InputStream in, int limit, String threadName) {
        OutputDrainer drainer = new OutputDrainer(in, limit, threadName);
        RUNNING.add(drainer.thread);
        try {
            drainer.thread.start();
        } catch (RuntimeException | Error e) {
            RUNNING.remove(drainer.thread);
            throw e;
        }
        return drainer;
    }

    /**
     * Reads what is still buffered in the pipe, stops the thread and closes the stream. Call it once the
     * writers are gone (exited or killed); bytes written later are lost.
     *
     * @return {@code true} if the calling thread was interrupted while waiting (its flag is then cleared)
     */
    boolean finish() {
        finishing = true;
        LockSupport.unpark(thread);
        boolean interrupted = UninterruptibleWait.join(thread, JOIN_MILLIS);
        closeQuietly();
        return interrupted;
    }

    /**
     * The captured output; complete once {@link #finish()} returned.
     *
     * @return the output
     */
    BoundedOutput output() {
        return output;
    }

    private void drain() {
        byte[] buffer = new byte[BUFFER_SIZE];
        long idle = MIN_IDLE_NANOS;
        try {
            while (true) {
                int available = in.available();
                if (available > 0) {
                    int read = in.read(buffer, 0, Math.min(available, buffer.length));
                    if (read < 0) {
                        return;
                    }
                    output.write(buffer, 0, read);
                    idle = MIN_IDLE_NANOS;
                } else if (finishing) {
                    return; // the writers are gone and the pipe is empty
                } else {
                    LockSupport.parkNanos(this, idle);
                    idle = Math.min(idle * 2, MAX_IDLE_NANOS);
                }
            }
        } catch (IOException e) {
            // the stream was closed under us: nothing more to read
        } finally {
            RUNNING.remove(Thread.currentThread());
        }
    }

    /**
     * The names of drainer threads still in their drain loop. {@link #finish()} joins its thread, so once a run
     * has returned its drainers are gone from here unless one outlived the join.
     *
     * @return a snapshot
     */
    static List<String> running() {
        return RUNNING.stream().map(Thread::getName).toList();
    }

    private void closeQuietly() {
        try {
            in.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }
}
