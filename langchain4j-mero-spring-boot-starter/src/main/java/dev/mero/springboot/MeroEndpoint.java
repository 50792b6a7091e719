package dev.mero.springboot;

import dev.mero.core.approval.ApprovalStore;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The actuator endpoint {@code mero}: the context's name, its mounts by virtual path with their permissions, the
 * tools it offers, its command sandbox, and its pending approvals (ids, permissions, virtual paths and ages; never
 * a diff, a command line, a file's content, a host path or a secret). Expose it as any endpoint
 * ({@code management.endpoints.web.exposure.include=health,mero}).
 */
@Endpoint(id = "mero")
public class MeroEndpoint {

    private final MeroStatus status;

    MeroEndpoint(MeroStatus status) {
        this.status = status;
    }

    /**
     * The report.
     *
     * @return a JSON-ready map
     */
    @ReadOperation
    public Map<String, Object> report() {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("context", status.contextName());
        report.put("mounts", status.mounts());
        report.put("tools", status.tools());
        report.put("sandbox", status.sandbox());
        Optional<ApprovalStore> store = status.approvalStore();
        if (store.isPresent()) {
            Map<String, Object> approvals = new LinkedHashMap<>();
            try {
                var pending = status.pending(store.get());
                approvals.put("count", pending.size());
                approvals.put("pending", pending);
            } catch (RuntimeException e) {
                approvals.put("error", "the approval store cannot be read: " + e.getClass().getSimpleName());
            }
            report.put("approvals", approvals);
        }
        return report;
    }
}
