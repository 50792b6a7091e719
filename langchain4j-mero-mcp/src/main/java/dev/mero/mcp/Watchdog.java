package dev.mero.mcp;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A daemon thread that runs a check every period while there is something to watch, and sleeps otherwise: after
 * {@value #IDLE_MILLIS} ms in which the check found nothing to watch, it parks until {@link #wake()}. So a busy
 * transport pays one timer tick per period instead of one thread wake-up per message, and an idle one nothing.
 */
final class Watchdog {

    /** How long the check must find nothing to watch before the thread parks. */
    static final long IDLE_MILLIS = 50;

    private final BooleanSupplier check;
    private final long periodNanos;
    private final Thread thread;
    private volatile boolean sleeping;
    private volatile boolean stopped;

    /**
     * @param check       runs every period; returns whether there is still something to watch
     * @param periodNanos the period
     */
    Watchdog(BooleanSupplier check, long periodNanos) {
        this.check = check;
        this.periodNanos = periodNanos;
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
            if (check.getAsBoolean()) {
                lastBusy = System.nanoTime();
            } else if (System.nanoTime() - lastBusy > idleNanos) {
                sleeping = true; // then look again, so that a wake() between the check and the flag is not lost
                if (!check.getAsBoolean() && !stopped) {
                    LockSupport.park(this);
                }
                sleeping = false;
                lastBusy = System.nanoTime();
                continue;
            }
            LockSupport.parkNanos(this, periodNanos);
        }
    }
}
