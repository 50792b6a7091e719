package dev.mero.core;

/**
 * An ordinary failure: the action was allowed but could not be carried out (a file that does not exist, a
 * directory that cannot be read, a command that exited non-zero, ...). Not a security decision: a binding
 * shows it as {@code Error: ...}.
 */
public class OperationFailedException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what failed and, where useful, what to try instead
     */
    public OperationFailedException(String message) {
        super(message);
    }

    /**
     * Creates the exception with an underlying cause for the logs.
     *
     * @param message what failed and, where useful, what to try instead
     * @param cause   the underlying failure, never shown to the model
     */
    public OperationFailedException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isDenial() {
        return false;
    }

    @Override
    public String errorCode() {
        return "operation_failed";
    }
}
