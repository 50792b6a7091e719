package dev.mero.core;

/**
 * An ordinary failure: an argument the model gave cannot be used as it is (an empty path, a control
 * character, an over-long value, ...). Not a security decision: a binding shows it as {@code Error: ...}
 * so that the model fixes its arguments and tries again.
 */
public class InvalidInputException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong with the input and how to fix it
     */
    public InvalidInputException(String message) {
        super(message);
    }

    /**
     * Creates the exception with an underlying cause for the logs.
     *
     * @param message what is wrong with the input and how to fix it
     * @param cause   the underlying failure, never shown to the model
     */
    public InvalidInputException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean isDenial() {
        return false;
    }

    @Override
    public String errorCode() {
        return "invalid_input";
    }
}
