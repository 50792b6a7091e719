package dev.mero.mcp;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A daemon thread that runs a check when there may be something to watch, and sleeps otherwise. The check says
 * how long it may sleep before it looks again (until the thing it watches would be late), so a busy transport
 * pays about one wake-up per deadline instead of one per message or per timer tick; with nothing to watch, the
 * check runs every idle period, and after {@value #IDLE_MILLIS} ms of that the thread parks until
 * {@link #wake()}, so an idle transport pays nothing.
 */
final class Watchdog {

    /** What the check returns when there is nothing to watch. */
    static final long NOTHING_TO_WATCH = -1;

    /** How long the check must find nothing to watch before the thread parks. */
    static final long IDLE_MILLIS = 50;

    private final LongSupplier check;
    private final long idlePeriodNanos;
    private final Thread thread;
    private volatile boolean sleeping;
    private volatile boolean stopped;

    /**
     * @param check           returns how long the watchdog may sleep before it runs the check again, in ns, or
     *                        {@link #NOTHING_TO_WATCH}
     * @param idlePeriodNanos how often the check runs while it finds nothing to watch (a thing to watch may have
     *                        started without a {@link #wake()})
     */
    Watchdog(LongSupplier check, long idlePeriodNanos) {
        this.check = check;
        this.idlePeriodNanos = idlePeriodNanos;
        this.thread = new Thread(this::run, "mero-mcp-watchdog");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Makes a sleeping watchdog watch again; cheap when it is awake. */
    void wake() {
        if (sleeping) {
            sleeping = false;
            LockSupport.unpark(thread);
        }
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }

    private void run() {
        long idleNanos = TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS);
        long lastBusy = System.nanoTime();
        while (!stopped) {
            long wait = check.getAsLong();
            if (wait >= 0) {
                lastBusy = System.nanoTime();
            } else if (System.nanoTime() - lastBusy > idleNanos) {
                sleeping = true; // then look again, so that a wake() between the check and the flag is not lost
                if (check.getAsLong() < 0 && !stopped) {
                    LockSupport.park(this);
                }
                sleeping = false;
                lastBusy = System.nanoTime();
                continue;
            }
            if (wait != 0) {
                LockSupport.parkNanos(this, wait > 0 ? wait : idlePeriodNanos);
            }
        }
    }
}
