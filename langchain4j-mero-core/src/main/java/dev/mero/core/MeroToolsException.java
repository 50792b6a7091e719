package dev.mero.core;

/**
 * Base of everything the mero security layer raises, so that one {@code catch (MeroToolsException e)} at a
 * tool's boundary covers every decision the library makes.
 *
 * <p>Two kinds of failure share this base:
 * <ul>
 *   <li><b>denials</b> ({@link #isDenial()} is {@code true}): the security layer stopped the action. A tool
 *       binding shows them to the model as {@code "Denied: " + getMessage()};</li>
 *   <li><b>ordinary failures</b> ({@link #isDenial()} is {@code false}, e.g. {@link InvalidInputException}):
 *       the action was allowed but cannot be done as asked. A binding shows them as
 *       {@code "Error: " + getMessage()}.</li>
 * </ul>
 * Anything that is not a {@code MeroToolsException} is a real bug and should propagate.
 *
 * <p>Messages are written for a model to act on and never contain a stack trace.
 */
public class MeroToolsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a message written for the model.
     *
     * @param message what went wrong and, where useful, what to do instead
     */
    public MeroToolsException(String message) {
        super(message);
    }

    /**
     * Creates an exception with a message written for the model and an underlying cause for the logs.
     *
     * @param message what went wrong and, where useful, what to do instead
     * @param cause   the underlying failure, never shown to the model
     */
    public MeroToolsException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Tells whether this is a security decision ({@code Denied: ...}) rather than an ordinary failure
     * ({@code Error: ...}).
     *
     * @return {@code true} for a denial
     */
    public boolean isDenial() {
        return true;
    }

    /**
     * The stable, machine-readable code of this failure (for example {@code path_denied} or
     * {@code invalid_input}), used by structured error envelopes and audit events.
     *
     * @return the error code
     */
    public String errorCode() {
        return "denied";
    }

    /**
     * The text a tool binding hands to the model: {@code "Denied: <message>"} for a denial,
     * {@code "Error: <message>"} for an ordinary failure.
     *
     * @return the model-facing text
     */
    public String toModelText() {
        return (isDenial() ? "Denied: " : "Error: ") + getMessage();
    }
}
