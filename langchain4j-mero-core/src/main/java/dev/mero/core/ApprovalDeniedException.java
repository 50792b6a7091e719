package dev.mero.core;

/**
 * An action that needs a human's approval was rejected, or no approval backend is configured (fail-safe
 * deny).
 */
public class ApprovalDeniedException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the model-facing message
     */
    public ApprovalDeniedException(String message) {
        super(message);
    }

    /**
     * Creates the exception with an underlying cause for the logs.
     *
     * @param message the model-facing message
     * @param cause   the underlying failure, never shown to the model
     */
    public ApprovalDeniedException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public String errorCode() {
        return "approval_denied";
    }
}
