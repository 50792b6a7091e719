package dev.mero.core.approval;

import java.time.Duration;
import java.util.Objects;

/** The one validation rule every approval timeout shares. */
final class Timeouts {

    private Timeouts() {
    }

    /**
     * Checks that a timeout is positive.
     *
     * @param timeout the timeout
     * @param what    names the setting in the message, for example {@code "ConsoleApproval timeout"}
     * @return the timeout
     * @throws IllegalArgumentException if it is zero or negative
     */
    static Duration requirePositive(Duration timeout, String what) {
        Objects.requireNonNull(timeout, what);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + timeout);
        }
        return timeout;
    }
}
