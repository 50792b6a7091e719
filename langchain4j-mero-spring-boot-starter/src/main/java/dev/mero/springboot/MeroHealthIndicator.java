package dev.mero.springboot;

import dev.mero.core.approval.ApprovalStore;
import java.util.Optional;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Health of the mero security context: UP with the policy's context name, its mount and tool counts, the state of
 * the command sandbox and of the approval store; DOWN when the policy allows commands but the sandbox cannot run
 * on this machine (run_command is not offered), or when the approval store cannot be reached.
 */
class MeroHealthIndicator extends AbstractHealthIndicator {

    private final MeroStatus status;

    MeroHealthIndicator(MeroStatus status) {
        super("mero health check failed");
        this.status = status;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.up().withDetail("policy", "loaded").withDetail("context", status.contextName())
                .withDetail("mounts", status.mounts().size()).withDetail("tools", status.tools().size());
        String sandbox = status.sandbox();
        builder.withDetail("sandbox", sandbox);
        if ("unavailable".equals(sandbox)) {
            builder.down();
        }
        Optional<ApprovalStore> store = status.approvalStore();
        if (store.isEmpty()) {
            builder.withDetail("approvalStore", "not configured");
            return;
        }
        try {
            builder.withDetail("approvalStore", "reachable").withDetail("pendingApprovals",
                    store.get().pending().size());
        } catch (RuntimeException e) {
            builder.down().withDetail("approvalStore", "unreachable: " + e.getClass().getSimpleName());
        }
    }
}
