package dev.mero.core;

import dev.mero.core.message.Messages;

import java.time.Duration;
import java.util.Locale;

/**
 * No approval backend could resolve an approval request in time: every backend of a chain abstained, failed
 * or timed out, or a lone backend (a console, a callback, a shared store, an MCP client's user) got no answer
 * within its timeout. Error code {@code approval_timeout}, audited as {@code APPROVAL_TIMED_OUT}, never as a
 * refusal: nobody said no, nobody said yes in time.
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

    /**
     * The exception of a backend that waited for an answer in vain.
     *
     * @param action      the action as approvers see it, e.g. {@code WRITE: /ws/a.txt}
     * @param contextName the context that asked
     * @param waited      how long the backend waited, or {@code null} when it cannot tell
     * @return {@code Approval of 'WRITE: /ws/a.txt' timed out in context 'name': nobody decided within 30s,
     *         so the action was not run.}
     */
    public static ApprovalTimeoutException noDecisionWithin(String action, String contextName,
                                                            Duration waited) {
        return new ApprovalTimeoutException("Approval of " + Messages.quote(action) + " timed out in context "
                + Messages.quote(contextName) + ": nobody decided "
                + (waited == null ? "in time" : "within " + waited.toString().substring(2).toLowerCase(Locale.ROOT))
                + ", so the action was not run.");
    }

    @Override
    public String errorCode() {
        return "approval_timeout";
    }
}
