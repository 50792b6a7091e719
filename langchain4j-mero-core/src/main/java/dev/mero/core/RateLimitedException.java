package dev.mero.core;

import dev.mero.core.message.Messages;

/**
 * The context made more calls than its rate limit allows. Raised before the operation runs, so nothing was
 * done; the same call succeeds once {@link #retryAfterSeconds()} have passed.
 *
 * <p>The limiter itself lives in {@code dev.mero.core.limit}; this exception only carries the decision.
 */
public class RateLimitedException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /** Whole seconds to wait before the next call can succeed, at least 1. */
    private final int retryAfterSeconds;

    /**
     * Creates the exception.
     *
     * @param message           the model-facing message, which should say when to retry
     * @param retryAfterSeconds whole seconds to wait before the next call can succeed, at least 1
     * @throws IllegalArgumentException if {@code retryAfterSeconds} is below 1
     */
    public RateLimitedException(String message, int retryAfterSeconds) {
        super(message);
        if (retryAfterSeconds < 1) {
            throw new IllegalArgumentException("retryAfterSeconds must be at least 1, was " + retryAfterSeconds);
        }
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /**
     * Builds the standard message: {@code Context 'worker_1' exceeded its rate limit of 60 calls per minute.
     * Wait 2 second(s) before calling again; calls made sooner are refused the same way.}
     *
     * @param contextName       the context's name
     * @param limit             the limit in words, e.g. {@code 60 calls per minute}
     * @param retryAfterSeconds whole seconds until the next call can succeed, at least 1
     * @return the exception, ready to throw
     */
    public static RateLimitedException exceeded(String contextName, String limit, int retryAfterSeconds) {
        return new RateLimitedException("Context " + Messages.quote(contextName) + " exceeded its rate limit of "
                + limit + ". Wait " + retryAfterSeconds + " second(s) before calling again; calls made sooner are "
                + "refused the same way.", retryAfterSeconds);
    }

    /**
     * Whole seconds to wait before the next call can succeed, rounded up.
     *
     * @return at least 1
     */
    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    @Override
    public String errorCode() {
        return "rate_limited";
    }
}
