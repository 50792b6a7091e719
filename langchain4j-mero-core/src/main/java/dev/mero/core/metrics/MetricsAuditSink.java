package dev.mero.core.metrics;

import dev.mero.core.Permission;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditSink;

/** Counts audit events as decisions and approvals (see {@link MeroMetrics#auditSink(MeroMetrics)}). */
final class MetricsAuditSink implements AuditSink {

    private final MeroMetrics metrics;

    MetricsAuditSink(MeroMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void write(AuditEvent event) {
        switch (event.type()) {
            case ALLOWED, DENIED, RATE_LIMITED, FAILED -> decisions(event, event.outcome());
            case APPROVAL_REQUESTED -> metrics.approval("requested");
            case APPROVAL_GRANTED -> metrics.approval("granted");
            case APPROVAL_REFUSED -> {
                metrics.approval("refused");
                decisions(event, MeroMetrics.DENIED);
            }
            case APPROVAL_TIMED_OUT -> {
                metrics.approval("timed_out");
                decisions(event, MeroMetrics.DENIED);
            }
            // a person's decision and a standing rule are records of who decided, not outcomes: the gate's own
            // event for the same request counts it once
            case APPROVER_GRANTED, APPROVER_REFUSED, RULE_GRANTED, RULE_REVOKED -> {
            }
        }
    }

    private void decisions(AuditEvent event, String outcome) {
        for (Permission permission : event.permissions()) {
            metrics.decision(permission, outcome);
        }
    }

    @Override
    public String toString() {
        return "MetricsAuditSink{" + metrics + "}";
    }
}
