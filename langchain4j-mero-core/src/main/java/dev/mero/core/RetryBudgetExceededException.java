package dev.mero.core;

import dev.mero.core.message.Messages;

/**
 * The final error for a call that keeps failing: the identical call (same operation, same arguments) already
 * failed as many times in a row as the retry budget allows, so it was not run again. Retrying it cannot help;
 * the model has to change the arguments or its approach.
 *
 * <p>The budget itself lives in {@code dev.mero.core.limit}; this exception only carries the decision.
 */
public class RetryBudgetExceededException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the model-facing message, which should tell the model to stop retrying
     */
    public RetryBudgetExceededException(String message) {
        super(message);
    }

    /**
     * Builds the standard message: {@code Call 'read_file' with these exact arguments already failed 3 time(s)
     * in a row and was not run again. Stop retrying it: change the arguments, take a different approach, or
     * ask the user for help.}
     *
     * @param operation the operation (tool) name
     * @param failures  how many times in a row the identical call failed
     * @return the exception, ready to throw
     */
    public static RetryBudgetExceededException exhausted(String operation, int failures) {
        return new RetryBudgetExceededException("Call " + Messages.quote(operation) + " with these exact arguments "
                + "already failed " + failures + " time(s) in a row and was not run again. Stop retrying it: change "
                + "the arguments, take a different approach, or ask the user for help.");
    }

    /**
     * Builds the message for a call whose remaining failures are held by identical calls still running:
     * {@code Call 'read_file' with these exact arguments already failed 1 time(s) in a row, and 2 identical
     * call(s) still running may use up its remaining retries, so it was not run. Wait for their results; do
     * not repeat the same call.}
     *
     * @param operation the operation (tool) name
     * @param failures  how many times in a row the identical call failed
     * @param running   how many identical calls are running now
     * @return the exception, ready to throw
     */
    public static RetryBudgetExceededException held(String operation, int failures, int running) {
        return new RetryBudgetExceededException("Call " + Messages.quote(operation) + " with these exact arguments "
                + "already failed " + failures + " time(s) in a row, and " + running + " identical call(s) still "
                + "running may use up its remaining retries, so it was not run. Wait for their results; do not "
                + "repeat the same call.");
    }

    @Override
    public String errorCode() {
        return "retry_exhausted";
    }
}
