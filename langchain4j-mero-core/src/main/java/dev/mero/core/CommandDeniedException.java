package dev.mero.core;

/**
 * A command is blocked by a denied-command rule, matches no allowed-command rule, or uses syntax or
 * options the command policy refuses.
 */
public class CommandDeniedException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the model-facing message
     */
    public CommandDeniedException(String message) {
        super(message);
    }

    /**
     * Creates the exception with an underlying cause for the logs.
     *
     * @param message the model-facing message
     * @param cause   the underlying failure, never shown to the model
     */
    public CommandDeniedException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public String errorCode() {
        return "command_denied";
    }
}
