package dev.mero.core.command;

/**
 * Bounded waits that clean-up code can rely on even when the calling thread is interrupted: an interrupt
 * must not cut short the killing of a process tree, so it is swallowed here and reported to the caller,
 * which restores the thread's interrupt flag once clean-up is done.
 */
final class UninterruptibleWait {

    private UninterruptibleWait() {
    }

    /**
     * Sleeps for the given time.
     *
     * @return {@code true} if the thread was interrupted meanwhile (its flag is then cleared)
     */
    static boolean sleep(long millis) {
        try {
            Thread.sleep(millis);
            return false;
        } catch (InterruptedException e) {
            return true;
        }
    }

    /**
     * Waits at most the given time for a thread to end.
     *
     * @return {@code true} if the calling thread was interrupted meanwhile (its flag is then cleared)
     */
    static boolean join(Thread thread, long millis) {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        boolean interrupted = false;
        while (thread.isAlive()) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                break;
            }
            try {
                thread.join(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
    }
}
