package dev.mero.core;

/**
 * A path is not covered by any {@link PathEntry} of the context, or an entry that covers it denies a
 * permission the action needs. Raised by {@link SecurityContext#checkPath(String)} and
 * {@link SecurityContext#checkPathAccess(String, Permission...)}.
 */
public class PathAccessDeniedException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the model-facing message
     */
    public PathAccessDeniedException(String message) {
        super(message);
    }

    /**
     * Creates the exception with an underlying cause for the logs.
     *
     * @param message the model-facing message
     * @param cause   the underlying failure, never shown to the model
     */
    public PathAccessDeniedException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public String errorCode() {
        return "path_denied";
    }
}
