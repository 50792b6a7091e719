package dev.mero.core;

import dev.mero.core.message.Messages;

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
 * <p>Messages are written for a model to act on and never contain a stack trace, a host path or a link target:
 * a path appears as the agent wrote it or as a virtual {@code /slug/...} path. What an operator needs beyond
 * that (the host path a link led to, for instance) is the {@link #auditDetail() audit detail}, which goes to the
 * audit log only.
 */
public class MeroToolsException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Operator-only facts (host paths, link targets); never part of the message. */
    private String auditDetail;

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
     * Attaches facts for operators that the model must not see, such as the host path a symbolic link led
     * to. They are recorded in the audit log's {@code detail} field and never appear in {@link #getMessage()}
     * or {@link #toModelText()}. A later call replaces an earlier one.
     *
     * @param detail the operator-facing detail, may be {@code null}
     * @return this exception, for {@code throw e.withAuditDetail(...)}
     */
    public MeroToolsException withAuditDetail(String detail) {
        this.auditDetail = detail;
        return this;
    }

    /**
     * The operator-facing detail attached with {@link #withAuditDetail(String)}, for the audit log only.
     *
     * @return the detail, or empty
     */
    public java.util.Optional<String> auditDetail() {
        return java.util.Optional.ofNullable(auditDetail);
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
