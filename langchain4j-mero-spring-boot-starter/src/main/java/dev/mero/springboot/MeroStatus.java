package dev.mero.springboot;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.command.CommandSandbox;
import dev.mero.core.ops.MeroOperations;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the health indicator and the {@code mero} endpoint report, read from the context: its name, its mounts by
 * virtual path with their permissions, the tools it offers, whether its command sandbox works and its pending
 * approvals. Deliberately never a host path, a file's content, a diff, a command line (it may hold a secret) or a
 * store's credentials: the endpoint may be exposed over HTTP, and the audit log is where host paths belong.
 */
final class MeroStatus {

    private final SecurityContext context;
    private final MeroOperations operations;
    private final Clock clock;

    MeroStatus(MeroOperations operations, Clock clock) {
        this.context = operations.context();
        this.operations = operations;
        this.clock = clock;
    }

    String contextName() {
        return context.name();
    }

    List<Map<String, Object>> mounts() {
        List<Map<String, Object>> mounts = new ArrayList<>();
        for (PathEntry entry : context.paths()) {
            Map<String, Object> mount = new LinkedHashMap<>();
            mount.put("mountPoint", entry.mountPoint());
            mount.put("allowed", names(entry.allowed()));
            mount.put("denied", names(entry.denied()));
            mount.put("approvalRequired", names(entry.approvalRequired()));
            mounts.add(mount);
        }
        return mounts;
    }

    List<String> tools() {
        return operations.availableTools().stream().map(ToolDescriptor::name).toList();
    }

    /** {@code not used} without allow rules, {@code disabled} after an opt-out, else available or unavailable. */
    String sandbox() {
        if (context.commandPolicy().allowRules().isEmpty()) {
            return "not used";
        }
        CommandSandbox sandbox = context.commandSandbox();
        if (!sandbox.enabled()) {
            return "disabled";
        }
        return sandbox.available() ? "available" : "unavailable";
    }

    Optional<ApprovalStore> approvalStore() {
        return context.approval().filter(ApprovalStore.class::isInstance).map(ApprovalStore.class::cast);
    }

    /** The pending approvals of the context's store: id, context, permissions, virtual path (never for commands). */
    List<Map<String, Object>> pending(ApprovalStore store) {
        List<Map<String, Object>> pending = new ArrayList<>();
        for (ApprovalRequest request : store.pending()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("id", request.id());
            item.put("context", request.contextName());
            item.put("permissions", names(request.permissions()));
            if (request.argv().isEmpty()) {
                request.subject().ifPresent(path -> item.put("path", path));
            }
            item.put("ageSeconds", Math.max(0, Duration.between(request.requestedAt(), clock.instant()).toSeconds()));
            pending.add(item);
        }
        return pending;
    }

    private static Set<String> names(Set<Permission> permissions) {
        Set<String> names = new TreeSet<>();
        permissions.forEach(permission -> names.add(permission.name()));
        return names;
    }
}
