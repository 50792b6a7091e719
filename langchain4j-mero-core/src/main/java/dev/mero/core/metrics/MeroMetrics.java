package dev.mero.core.metrics;

import dev.mero.core.Permission;
import dev.mero.core.audit.AuditSink;
import java.time.Duration;
import java.util.Objects;

/**
 * Receives what the library did, for an application's metrics system; every method does nothing by default,
 * so an implementation overrides only what it counts.
 *
 * <pre>{@code
 * MeroMetrics metrics = new MyMicrometerMetrics(registry);
 * SecurityContext context = SecurityPolicy.read(policyFile).auditSink(MeroMetrics.auditSink(metrics)).build();
 * MeroOperations operations = MeroOperations.builder(context).metrics(metrics).build();
 * }</pre>
 *
 * <p>Tag values are bounded sets (tool names of the catalogue, permission names, the outcomes named here, exit
 * codes), never model-chosen text, so that a model cannot grow a metrics registry. Methods are called on the
 * thread that did the work, possibly by several threads at once: implementations must be thread-safe, fast,
 * and must not throw (a failure in a decision's metrics is caught by the audit log; one in a tool call's is not).
 */
public interface MeroMetrics {

    /** Outcome of a tool call that returned a result. */
    String SUCCESS = "success";
    /** Outcome of a tool call or decision refused for a security reason ({@code Denied: ...}). */
    String DENIED = "denied";
    /** Outcome of a tool call or decision that failed for an ordinary reason ({@code Error: ...}). */
    String FAILED = "failed";
    /** Outcome of an allowed decision. */
    String ALLOWED = "allowed";
    /** The tool tag of a call to a name that is not a tool of the catalogue. */
    String UNKNOWN_TOOL = "unknown";
    /** The exit tag of a command run that was killed at its time-out. */
    String EXIT_TIMEOUT = "timeout";

    /**
     * A tool call finished: once per call through {@link dev.mero.core.ops.MeroOperations#respond(String, String)}
     * (the one response path of every binding), the call of a tool that was not offered included.
     *
     * @param tool     the tool's name, or {@value #UNKNOWN_TOOL} for a name that is no tool of the catalogue
     * @param outcome  {@value #SUCCESS}, {@value #DENIED} or {@value #FAILED}
     * @param duration how long the call took, the decision and any wait for approval included
     */
    default void toolCall(String tool, String outcome, Duration duration) {
    }

    /**
     * The context decided an action, once per permission it was about (see {@link #auditSink(MeroMetrics)}).
     *
     * @param permission the permission
     * @param outcome    {@value #ALLOWED}, {@value #DENIED} or {@value #FAILED}
     */
    default void decision(Permission permission, String outcome) {
    }

    /**
     * An approval was asked for or answered.
     *
     * @param outcome {@code requested}, {@code granted}, {@code refused} or {@code timed_out}
     */
    default void approval(String outcome) {
    }

    /**
     * A command ran (in the sandbox, unless the policy opts out of it) and ended.
     *
     * @param exit the exit code in decimal, or {@value #EXIT_TIMEOUT} when it was killed at its time-out
     */
    default void sandboxRun(String exit) {
    }

    /**
     * Metrics that count nothing (the default everywhere).
     *
     * @return the no-op instance
     */
    static MeroMetrics none() {
        return NoMetrics.INSTANCE;
    }

    /**
     * An audit sink that turns the audit log's events into {@link #decision decisions} and {@link #approval
     * approvals}: {@code ALLOWED}, {@code DENIED}, {@code RATE_LIMITED} and {@code FAILED} are decisions with
     * the event's outcome, one per permission; {@code APPROVAL_REQUESTED}, {@code APPROVAL_GRANTED},
     * {@code APPROVAL_REFUSED} and {@code APPROVAL_TIMED_OUT} are approvals, and a refused or timed-out approval
     * is also a {@value #DENIED} decision (it ends the action; a granted one is followed by its own
     * {@code ALLOWED}). The records of who decided ({@code APPROVER_*} from the approval inbox, {@code RULE_*} of
     * standing rules) are not counted: the gate's own event counts each request once. Add it with
     * {@code SecurityContext.Builder.auditSink(...)}.
     *
     * @param metrics where to count
     * @return the sink
     */
    static AuditSink auditSink(MeroMetrics metrics) {
        return new MetricsAuditSink(Objects.requireNonNull(metrics, "metrics"));
    }
}
