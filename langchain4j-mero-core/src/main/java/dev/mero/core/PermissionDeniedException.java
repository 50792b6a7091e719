package dev.mero.core;

/**
 * The context, or the entry that covers a path, does not allow a permission the action needs. Raised by
 * {@link SecurityContext#checkPermission(Permission...)} and
 * {@link SecurityContext#checkPathAccess(String, Permission...)}.
 */
public class PermissionDeniedException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the model-facing message
     */
    public PermissionDeniedException(String message) {
        super(message);
    }

    /**
     * Creates the exception with an underlying cause for the logs.
     *
     * @param message the model-facing message
     * @param cause   the underlying failure, never shown to the model
     */
    public PermissionDeniedException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public String errorCode() {
        return "permission_denied";
    }
}
