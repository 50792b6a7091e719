package dev.mero.core;

/**
 * The shared policy store (the database that holds rate limits, retry budgets, approvals, replays and the
 * audit trail of several application instances) could not answer in time: it is unreachable, too slow, or
 * the connection broke mid-call. The action was not run; nothing was let through unlimited or unapproved.
 * Retrying later can succeed, which the error envelope says with {@code retry: true}.
 *
 * <p>Not a security decision but an ordinary, transient failure: a binding shows it as
 * {@code Error: The policy store is unavailable ...}. The cause (a JDBC exception, for the logs) is never
 * shown to the model.
 */
public class PolicyStoreUnavailableException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the model-facing message, which should say that the policy store is unavailable
     * @param cause   the underlying failure, for the logs only
     */
    public PolicyStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Builds the standard message: {@code The policy store is unavailable, so the action 'rate limit' was
     * not run. Retry in a while; if it keeps failing, tell the user.}
     *
     * @param what  what needed the store, e.g. {@code rate limit of context 'worker_1'}
     * @param cause the underlying failure, for the logs only
     * @return the exception, ready to throw
     */
    public static PolicyStoreUnavailableException of(String what, Throwable cause) {
        return new PolicyStoreUnavailableException("The policy store is unavailable (" + what
                + "), so the action was not run. Retry in a while; if it keeps failing, tell the user.", cause);
    }

    @Override
    public boolean isDenial() {
        return false;
    }

    @Override
    public String errorCode() {
        return "policy_store_unavailable";
    }
}
