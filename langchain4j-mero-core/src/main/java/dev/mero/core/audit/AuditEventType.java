package dev.mero.core.audit;

import dev.mero.core.ApprovalDeniedException;
import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.MeroToolsException;

import java.util.Objects;

/**
 * What an {@link AuditEvent} records. Each type has a coarse {@link #outcome()} so that a log reader can
 * filter on {@code allowed} / {@code denied} / {@code pending} / {@code failed} without knowing every type.
 */
public enum AuditEventType {
    /** A check passed and the action may run. */
    ALLOWED("allowed"),
    /** A rule denied the action (path, permission, command, scope). */
    DENIED("denied"),
    /** An action was sent to an approval backend and is waiting for a decision. */
    APPROVAL_REQUESTED("pending"),
    /** The approval backend approved the action. */
    APPROVAL_GRANTED("allowed"),
    /** The approval backend refused, abstained or failed, or no backend is configured (fail-safe deny). */
    APPROVAL_REFUSED("denied"),
    /** No approval backend could resolve the request in time. */
    APPROVAL_TIMED_OUT("denied"),
    /** The caller exceeded its rate limit; the action did not run. */
    RATE_LIMITED("denied"),
    /** The action was allowed but failed for an ordinary reason (invalid input, I/O error). */
    FAILED("failed"),
    /**
     * A person approved a pending request (the approval inbox; who, in the detail). A record of the person's act:
     * the gate still records the request's own {@link #APPROVAL_GRANTED}.
     */
    APPROVER_GRANTED("allowed"),
    /** A person refused a pending request; the gate still records the request's own {@link #APPROVAL_REFUSED}. */
    APPROVER_REFUSED("denied"),
    /** A standing approval rule was granted (its pattern as the subject; who and until when, in the detail). */
    RULE_GRANTED("allowed"),
    /** A standing approval rule was revoked before it expired. */
    RULE_REVOKED("denied");

    private static final String RATE_LIMITED_CODE = "rate_limited";

    private final String outcome;

    AuditEventType(String outcome) {
        this.outcome = outcome;
    }

    /**
     * The coarse outcome: {@code allowed}, {@code denied}, {@code pending} or {@code failed}.
     *
     * @return the outcome
     */
    public String outcome() {
        return outcome;
    }

    /**
     * The type that records a failure a tool boundary caught: approval refusals and timeouts map to their
     * approval types, the error code {@code rate_limited} to {@link #RATE_LIMITED}, any other denial to
     * {@link #DENIED}, and an ordinary failure to {@link #FAILED}.
     *
     * @param failure the caught exception
     * @return the matching type
     */
    public static AuditEventType of(MeroToolsException failure) {
        Objects.requireNonNull(failure, "failure");
        if (failure instanceof ApprovalTimeoutException) {
            return APPROVAL_TIMED_OUT;
        }
        if (failure instanceof ApprovalDeniedException) {
            return APPROVAL_REFUSED;
        }
        if (RATE_LIMITED_CODE.equals(failure.errorCode())) {
            return RATE_LIMITED;
        }
        return failure.isDenial() ? DENIED : FAILED;
    }
}
