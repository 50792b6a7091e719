package dev.mero.core.error;

import java.util.Optional;

/**
 * Every error code a {@link ToolError} can carry, with its HTTP-style status, whether retrying can help, and
 * what the model should do next.
 *
 * <table>
 *   <caption>Error codes</caption>
 *   <tr><th>Code</th><th>Status</th><th>Retry</th><th>Raised for</th></tr>
 *   <tr><td>{@code auth_failed}</td><td>401</td><td>no</td><td>no valid identity (set by an
 *       authenticating host; no exception of this library)</td></tr>
 *   <tr><td>{@code scope_denied}</td><td>403</td><td>no</td><td>{@code ScopeDeniedException}</td></tr>
 *   <tr><td>{@code rate_limited}</td><td>429</td><td>yes</td><td>{@code RateLimitedException}, with
 *       {@code retry_after_seconds}</td></tr>
 *   <tr><td>{@code invalid_input}</td><td>400</td><td>no</td><td>{@code InvalidInputException}</td></tr>
 *   <tr><td>{@code source_unavailable}</td><td>503</td><td>yes</td><td>a backing source is down (set by a
 *       host; {@code retry_after_seconds} 30)</td></tr>
 *   <tr><td>{@code internal_error}</td><td>500</td><td>yes</td><td>any exception that is not a
 *       {@code MeroToolsException}: a bug</td></tr>
 *   <tr><td>{@code path_denied}</td><td>403</td><td>no</td><td>{@code PathAccessDeniedException}</td></tr>
 *   <tr><td>{@code permission_denied}</td><td>403</td><td>no</td><td>{@code PermissionDeniedException}</td></tr>
 *   <tr><td>{@code command_denied}</td><td>403</td><td>no</td><td>{@code CommandDeniedException}</td></tr>
 *   <tr><td>{@code approval_denied}</td><td>403</td><td>no</td><td>{@code ApprovalDeniedException}</td></tr>
 *   <tr><td>{@code approval_timeout}</td><td>504</td><td>no</td><td>{@code ApprovalTimeoutException}</td></tr>
 *   <tr><td>{@code operation_failed}</td><td>422</td><td>no</td><td>{@code OperationFailedException}</td></tr>
 *   <tr><td>{@code retry_exhausted}</td><td>400</td><td>no</td><td>{@code RetryBudgetExceededException}</td></tr>
 *   <tr><td>{@code denied}</td><td>403</td><td>no</td><td>a plain {@code MeroToolsException}</td></tr>
 *   <tr><td>{@code policy_store_unavailable}</td><td>503</td><td>yes</td><td>{@code
 *       PolicyStoreUnavailableException}: the shared policy store (database) did not answer in time;
 *       {@code retry_after_seconds} 30</td></tr>
 * </table>
 *
 * <p>The first six are the specification's. Choices for the others: a timed-out approval is not retried
 * automatically (the model would only ask the approver again; the user decides), an ordinary failure is 422
 * (the request was understood and allowed but could not be carried out), and an exhausted retry budget is
 * 400, not 429, so that no HTTP client retries it on its own.
 */
public enum ErrorCode {

    /** No valid identity: missing, invalid, expired or revoked credential. */
    AUTH_FAILED("auth_failed", 401, false, null,
            "Caller error: retrying without changing the request won't help. Ask the user to provide valid "
                    + "credentials."),
    /** Valid identity, but missing the required scope. */
    SCOPE_DENIED("scope_denied", 403, false, null,
            "Caller error: retrying without changing the request won't help. Use an operation your scopes "
                    + "allow, or ask the user for a caller with the required scope."),
    /** The caller's request rate was exceeded; returned before the tool runs. */
    RATE_LIMITED("rate_limited", 429, true, null,
            "Transient: retry after retry_after_seconds; calls made sooner are refused the same way."),
    /** A bad argument. */
    INVALID_INPUT("invalid_input", 400, false, null,
            "Caller error: retrying without changing the request won't help. Fix the arguments as the message "
                    + "says, then call again."),
    /** Every data source failed or is circuit-broken. */
    SOURCE_UNAVAILABLE("source_unavailable", 503, true, 30,
            "Transient: retry after retry_after_seconds."),
    /** An unexpected error: a bug, logged but not described to the caller. */
    INTERNAL_ERROR("internal_error", 500, true, null,
            "Transient: you may retry once; if it fails again, stop and tell the user."),
    /** The path is outside every mounted directory, or a permission is denied on it. */
    PATH_DENIED("path_denied", 403, false, null,
            "Retrying the same path won't help. Use a path inside a mounted directory ('/slug/...') that allows "
                    + "this action."),
    /** The context or the directory does not allow the permission the action needs. */
    PERMISSION_DENIED("permission_denied", 403, false, null,
            "Retrying won't help. Use an action the context permits, or ask the user to grant the permission."),
    /** The command is blocked or not allowed by the command policy. */
    COMMAND_DENIED("command_denied", 403, false, null,
            "Retrying the same command won't help. Use an allowed command, or ask the user."),
    /** A human or the approval policy refused the action. */
    APPROVAL_DENIED("approval_denied", 403, false, null,
            "The action was refused. Do not retry it; ask the user how to proceed."),
    /** No approver decided in time. */
    APPROVAL_TIMEOUT("approval_timeout", 504, false, null,
            "Nobody decided in time. Do not retry on your own; tell the user the action is waiting for approval."),
    /** The action was allowed but failed for an ordinary reason, e.g. a file that does not exist. */
    OPERATION_FAILED("operation_failed", 422, false, null,
            "Retrying the identical call won't help. Change the arguments or the approach as the message says."),
    /** The identical call failed too often in a row and was not run again. */
    RETRY_EXHAUSTED("retry_exhausted", 400, false, null,
            "Final error: stop retrying this call and change approach."),
    /** A denial by the security layer without a more specific code. */
    DENIED("denied", 403, false, null,
            "Retrying without changing the request won't help. Choose a different action."),
    /** The shared policy store did not answer in time; the action was not run. */
    POLICY_STORE_UNAVAILABLE("policy_store_unavailable", 503, true, 30,
            "Transient: the action was not run; retry after retry_after_seconds.");

    private final String code;
    private final int status;
    private final boolean retry;
    private final Integer retryAfterSeconds;
    private final String guidance;

    ErrorCode(String code, int status, boolean retry, Integer retryAfterSeconds, String guidance) {
        this.code = code;
        this.status = status;
        this.retry = retry;
        this.retryAfterSeconds = retryAfterSeconds;
        this.guidance = guidance;
    }

    /**
     * Finds the constant for a code string.
     *
     * @param code a code such as {@code path_denied}
     * @return the constant, or empty for an unknown code
     */
    public static Optional<ErrorCode> fromCode(String code) {
        for (ErrorCode candidate : values()) {
            if (candidate.code.equals(code)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /**
     * The wire form, e.g. {@code scope_denied}.
     *
     * @return the code string
     */
    public String code() {
        return code;
    }

    /**
     * The HTTP-style status.
     *
     * @return the status
     */
    public int status() {
        return status;
    }

    /**
     * Whether retrying the same call later can succeed.
     *
     * @return {@code true} for transient errors
     */
    public boolean retry() {
        return retry;
    }

    /**
     * The default wait before a retry, set only for {@link #SOURCE_UNAVAILABLE} and
     * {@link #POLICY_STORE_UNAVAILABLE} (30 seconds); a
     * {@link #RATE_LIMITED} error carries its own.
     *
     * @return the seconds, or {@code null}
     */
    public Integer retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /**
     * What the model should do next, used as a {@link ToolError}'s default detail.
     *
     * @return the guidance
     */
    public String guidance() {
        return guidance;
    }
}
