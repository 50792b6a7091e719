package dev.mero.core;

import dev.mero.core.approval.ApprovalGate;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.command.CheckedCommand;
import dev.mero.core.limit.RateLimiter;
import dev.mero.core.scope.ScopeSet;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The governance steps every guarded action passes, in a fixed order: scope, rate limit, the security
 * checks, approval (then a re-check of what was approved), and an audit record of the outcome.
 *
 * <p>Holds no mutable state of its own; its rate limiters and audit log are thread-safe.
 */
final class ActionGuard {

    private final String contextName;
    private final ScopeSet scopes;
    /** This context's limiter first, then those of the contexts it was narrowed from. */
    private final List<RateLimiter> rateLimiters;
    private final Set<Permission> approvalRequired;
    private final ApprovalGate gate;
    private final AuditLog auditLog;

    ActionGuard(String contextName, ScopeSet scopes, List<RateLimiter> rateLimiters,
                Set<Permission> approvalRequired, ApprovalGate gate, AuditLog auditLog) {
        this.contextName = contextName;
        this.scopes = scopes;
        this.rateLimiters = List.copyOf(rateLimiters);
        this.approvalRequired = approvalRequired;
        this.gate = gate;
        this.auditLog = auditLog;
    }

    /**
     * Runs the steps around {@code check}, which performs the deny checks and returns the decision; then asks
     * for approval of {@code needed ∩ (context ∪ target requirements)} and re-validates through
     * {@code recheck}.
     */
    <T> T guard(Operation operation, String subject, Supplier<T> check, Approval<T> approval) {
        return guard(List.of(operation), operation.permissions(), subject, check, approval);
    }

    /** As above, for an action that needs several permissions: every operation's scope must be held. */
    <T> T guard(List<Operation> operations, Set<Permission> permissions, String subject, Supplier<T> check,
                Approval<T> approval) {
        try {
            for (Operation operation : operations) {
                scopes.check(contextName, operation.scope());
            }
            for (RateLimiter limiter : rateLimiters) {
                limiter.acquire(contextName);
            }
            T decision = check.get();
            // what the action needs anywhere (a command also reads or writes its path arguments)
            EnumSet<Permission> needed = EnumSet.noneOf(Permission.class);
            needed.addAll(permissions);
            needed.addAll(approval.permissions(decision));
            EnumSet<Permission> ask = EnumSet.noneOf(Permission.class);
            ask.addAll(approvalRequired);
            ask.retainAll(needed);
            ask.addAll(approval.targetRequirements(decision));
            if (!ask.isEmpty()) {
                ApprovalRequest request = approval.request(decision, ApprovalRequest.builder()
                        .contextName(contextName).permissions(ask)).build();
                gate.approve(request);
                decision = approval.recheck(decision);
            }
            record(AuditEvent.builder().type(AuditEventType.ALLOWED)
                    .action(ApprovalRequest.action(permissions, approval.subject(decision)))
                    .subject(approval.subject(decision)));
            return decision;
        } catch (MeroToolsException e) {
            if (!(e instanceof ApprovalDeniedException) && !(e instanceof ApprovalTimeoutException)) {
                // the gate records approval outcomes itself
                record(AuditEvent.builder().type(AuditEventType.of(e)).failure(e)
                        .action(ApprovalRequest.action(permissions, subject)).subject(subject));
            }
            throw e;
        }
    }

    private void record(AuditEvent.Builder event) {
        auditLog.record(event.contextName(contextName).build());
    }

    /** How a kind of decision (a path, a command) is presented for approval and re-validated after it. */
    interface Approval<T> {

        /**
         * Approval requirements that come with the decided targets themselves, from their path entries, each
         * already limited to the permissions the action needs at that target.
         */
        Set<Permission> targetRequirements(T decision);

        /** Permissions the action needs besides its operation's, e.g. WRITE on a command's path argument. */
        Set<Permission> permissions(T decision);

        /** Completes the request with the decision's subject, target or argument vector. */
        ApprovalRequest.Builder request(T decision, ApprovalRequest.Builder request);

        /** Re-validates the decision after a human approved it: what runs is what was approved. */
        T recheck(T decision);

        /** How the decision is named in audit events and approval actions. */
        String subject(T decision);
    }

    /** The approval view of a command decision; the re-check runs the whole command policy again. */
    static Approval<CheckedCommand> commands(SecurityContext context, String workingDirectory) {
        return new Approval<>() {
            @Override
            public Set<Permission> targetRequirements(CheckedCommand command) {
                EnumSet<Permission> required = EnumSet.noneOf(Permission.class);
                command.workingDirectory().ifPresent(directory -> required.addAll(
                        requiredAt(directory, EnumSet.of(Permission.EXECUTE))));
                for (ResolvedPath argument : command.pathArguments()) {
                    required.addAll(requiredAt(argument, argument.checkedPermissions()));
                }
                return required;
            }

            @Override
            public Set<Permission> permissions(CheckedCommand command) {
                EnumSet<Permission> needed = EnumSet.noneOf(Permission.class);
                command.pathArguments().forEach(argument -> needed.addAll(argument.checkedPermissions()));
                return needed;
            }

            @Override
            public ApprovalRequest.Builder request(CheckedCommand command, ApprovalRequest.Builder request) {
                command.workingDirectory().ifPresent(directory -> request.target(directory.realPath()));
                return request.subject(subject(command)).argv(command.argv());
            }

            @Override
            public CheckedCommand recheck(CheckedCommand command) {
                CheckedCommand now = context.checkCommand(command.commandLine(), workingDirectory);
                if (!now.equals(command)) {
                    throw new CommandDeniedException("Command " + Messages.quote(command.commandLine())
                            + " changed while it was being approved (a program or path it names now resolves "
                            + "elsewhere). Nothing was run; check the command and try again.").withAuditDetail(
                            "approved " + command.processCommand() + ", now " + now.processCommand() + " in "
                            + now.workingDirectory().map(d -> d.realPath().toString()).orElse("?"));
                }
                return now;
            }

            @Override
            public String subject(CheckedCommand command) {
                return String.join(" ", command.argv());
            }
        };
    }

    /** The approval view of a path decision. */
    static Approval<ResolvedPath> paths(SecurityContext context, String details) {
        return new Approval<>() {
            @Override
            public Set<Permission> targetRequirements(ResolvedPath target) {
                return requiredAt(target, target.checkedPermissions());
            }

            @Override
            public Set<Permission> permissions(ResolvedPath target) {
                return Set.of();
            }

            @Override
            public ApprovalRequest.Builder request(ResolvedPath target, ApprovalRequest.Builder request) {
                return request.target(target).details(details);
            }

            @Override
            public ResolvedPath recheck(ResolvedPath target) {
                return context.recheck(target);
            }

            @Override
            public String subject(ResolvedPath target) {
                return target.virtualPath();
            }
        };
    }

    /** The approvals the entries holding {@code target} require for what the action needs there. */
    private static Set<Permission> requiredAt(ResolvedPath target, Set<Permission> needed) {
        EnumSet<Permission> required = EnumSet.noneOf(Permission.class);
        required.addAll(target.approvalRequired());
        required.retainAll(needed);
        return required;
    }
}
