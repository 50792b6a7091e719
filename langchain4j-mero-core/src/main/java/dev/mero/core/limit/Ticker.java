package dev.mero.core.limit;

/**
 * A monotonic time source in nanoseconds, so that limits can be tested with a clock the test moves by hand.
 * Only differences between two readings mean anything.
 */
@FunctionalInterface
public interface Ticker {

    /**
     * The current reading.
     *
     * @return nanoseconds since an arbitrary origin
     */
    long nanos();

    /**
     * The system's monotonic clock, {@link System#nanoTime()}; unaffected by wall-clock changes.
     *
     * @return the system ticker
     */
    static Ticker system() {
        return System::nanoTime;
    }
}
