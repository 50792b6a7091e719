package dev.mero.core;

/**
 * No approval backend could resolve an approval request: every backend of a chain abstained, failed
 * or timed out.
 */
public class ApprovalTimeoutException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the model-facing message
     */
    public ApprovalTimeoutException(String message) {
        super(message);
    }

    /**
     * Creates the exception with an underlying cause for the logs.
     *
     * @param message the model-facing message
     * @param cause   the underlying failure, never shown to the model
     */
    public ApprovalTimeoutException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public String errorCode() {
        return "approval_timeout";
    }
}
