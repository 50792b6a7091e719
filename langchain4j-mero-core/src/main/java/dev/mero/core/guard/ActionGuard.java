package dev.mero.core.guard;

import dev.mero.core.ApprovalDeniedException;
import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.CommandDeniedException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.Permission;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.RateLimitedException;
import dev.mero.core.message.Messages;
import dev.mero.core.path.PathResolver;
import dev.mero.core.path.ResolvedPath;

import dev.mero.core.approval.ApprovalGate;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.command.CheckedCommand;
import dev.mero.core.command.CommandPolicy;
import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RateLimiter;
import dev.mero.core.limit.RetryBudget;
import dev.mero.core.scope.ScopeSet;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The governance steps every guarded action passes, in a fixed order: scope, rate limit, the security
 * checks, the retry budget (keyed by the canonical target, checked and counted in one step), approval (then a
 * re-check of what was approved), and exactly one audit record of the outcome, also when a step fails with a
 * bug. With a retry budget, the last rate limiter's permit is taken after the security checks, together with
 * the budget's reservation (one round trip when one store holds both); a refused check takes it too, before
 * its failure is counted, so a caller over the limit still sees the rate limit.
 *
 * <p>Holds no mutable state of its own; its rate limiters and audit log are thread-safe.
 *
 * <p>Internal: public only because {@link dev.mero.core.SecurityContext}, the facade in the root package, builds
 * and calls it; applications use {@code SecurityContext}, not this class.
 */
public final class ActionGuard {

    private final String contextName;
    private final ScopeSet scopes;
    /** This context's limiter first, then those of the contexts it was narrowed from. */
    private final List<RateLimiter> rateLimiters;
    private final Set<Permission> approvalRequired;
    private final ApprovalGate gate;
    private final AuditLog auditLog;
    private final RetryBudget retryBudget;
    /** The limiter whose permit is taken with the retry budget's reservation, {@code null} for none. */
    private final RateLimiter joined;

    public ActionGuard(String contextName, ScopeSet scopes, List<RateLimiter> rateLimiters,
                Set<Permission> approvalRequired, ApprovalGate gate, AuditLog auditLog, RetryBudget retryBudget) {
        this.contextName = contextName;
        this.scopes = scopes;
        this.rateLimiters = List.copyOf(rateLimiters);
        this.approvalRequired = approvalRequired;
        this.gate = gate;
        this.auditLog = auditLog;
        this.retryBudget = retryBudget;
        this.joined = retryBudget == null || rateLimiters.isEmpty() ? null
                : this.rateLimiters.get(this.rateLimiters.size() - 1);
    }

    /**
     * Runs the steps around {@code check}, which performs the deny checks and returns the decision; then asks
     * for approval of {@code needed ∩ (context ∪ target requirements)} and re-validates through
     * {@code recheck}.
     */
    public <T> T guard(Operation operation, String subject, Supplier<T> check, Approval<T> approval) {
        return guard(List.of(operation), operation.permissions(), subject, check, approval);
    }

    /** As above, for an action that needs several permissions: every operation's scope must be held. */
    public <T> T guard(List<Operation> operations, Set<Permission> permissions, String subject, Supplier<T> check,
                Approval<T> approval) {
        Decided<T> decided = decide(operations, permissions, subject, check, approval);
        decided.end(0); // the guard alone knows no outcome of the action itself
        return decided.decision;
    }

    /**
     * Guards an action and runs it under the same retry-budget attempt: an action that throws, or whose result
     * {@code succeeded} rejects, counts as one more failure of the canonical call; a success resets it.
     */
    public <T, R> R run(Operation operation, String subject, Supplier<T> check, Approval<T> approval,
                 Function<T, R> action, Predicate<R> succeeded) {
        Decided<T> decided = decide(List.of(operation), operation.permissions(), subject, check, approval);
        R result;
        try {
            result = action.apply(decided.decision);
        } catch (RateLimitedException | PolicyStoreUnavailableException notRun) {
            decided.end(0);
            throw notRun;
        } catch (RuntimeException | Error failure) {
            decided.end(-1);
            throw failure;
        }
        decided.end(succeeded.test(result) ? 1 : -1);
        return result;
    }

    /**
     * Records the refusal of a decision taken after the guard's ALLOWED event, such as a tool's own re-check
     * that found the target changed: the decision ends in a DENIED outcome, not in the ALLOWED one alone.
     */
    public void recordLateRefusal(MeroToolsException refusal, Set<Permission> permissions, String subject) {
        recordQuietly(AuditEvent.builder().type(AuditEventType.of(refusal)).failure(refusal)
                .action(permissions.isEmpty() ? subject : ApprovalRequest.action(permissions, subject))
                .subject(subject).permissions(permissions));
    }

    private <T> Decided<T> decide(List<Operation> operations, Set<Permission> permissions, String subject,
                                  Supplier<T> check, Approval<T> approval) {
        RetryBudget.Attempt attempt = null;
        T decision = null;
        boolean approving = false;
        try {
            for (Operation operation : operations) {
                scopes.check(contextName, operation.scope());
            }
            for (RateLimiter limiter : rateLimiters) {
                if (limiter != joined) {
                    limiter.acquire(contextName);
                }
            }
            try {
                decision = check.get();
            } catch (MeroToolsException refused) {
                if (retryBudget != null) {
                    // a refused call is counted too, under the best canonical form the refusal leaves
                    retryBudget.begin(CallKey.of(callName(operations), approval.fallbackKey()), joined, contextName)
                            .failed();
                }
                throw refused;
            }
            if (retryBudget != null) {
                attempt = retryBudget.begin(CallKey.of(callName(operations), approval.retryKey(decision)), joined,
                        contextName);
            }
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
                        .contextName(contextName).permissions(ask)
                        .resolvedTargets(approval.targets(decision))).build();
                approving = true;
                gate.approve(request);
                approving = false;
                decision = approval.recheck(decision);
            }
            if (auditLog.records(AuditEventType.ALLOWED)) {
                // built only where something records it: a context without sinks whose logger is off for info
                auditLog.record(AuditEvent.builder().type(AuditEventType.ALLOWED)
                        .action(ApprovalRequest.action(permissions, approval.subject(decision)))
                        .subject(approval.subject(decision)).permissions(permissions)
                        .targets(approval.targets(decision)).contentDigest(approval.contentDigest())
                        .contextName(contextName).build());
            }
            return new Decided<>(decision, attempt);
        } catch (MeroToolsException e) {
            if (attempt != null) {
                attempt.failed();
            }
            if (!approving && !(e instanceof ApprovalDeniedException) && !(e instanceof ApprovalTimeoutException)) {
                // the gate records approval outcomes itself, a store failure while approving included
                AuditEvent.Builder event = AuditEvent.builder().type(AuditEventType.of(e)).failure(e)
                        .action(ApprovalRequest.action(permissions, subject)).subject(subject)
                        .permissions(permissions).contentDigest(approval.contentDigest());
                if (decision != null) {
                    event.targets(approval.targets(decision));
                }
                recordQuietly(event);
            }
            throw e;
        } catch (RuntimeException | Error e) {
            if (attempt != null) {
                attempt.release();
            }
            // a bug is not a decision, but the record must not end at ALLOWED, APPROVAL_REQUESTED or nothing
            recordQuietly(AuditEvent.builder().type(AuditEventType.FAILED)
                    .action(ApprovalRequest.action(permissions, subject)).subject(subject).permissions(permissions)
                    .reason("The check failed with an internal error (" + e.getClass().getName() + ").")
                    .errorCode("internal_error"));
            throw e;
        }
    }

    /** Records an outcome while a refusal is already on its way: an audit log failing closed adds nothing. */
    private void recordQuietly(AuditEvent.Builder event) {
        try {
            auditLog.record(event.contextName(contextName).build());
        } catch (MeroToolsException alreadyRefusing) {
            // the action is refused anyway; the log's own failure was reported to the logger
        }
    }

    /** The call as the model knows it, for the retry budget's messages: the tool that performs the operation. */
    private static String callName(List<Operation> operations) {
        StringJoiner name = new StringJoiner("+");
        operations.forEach(operation -> name.add(switch (operation) {
            case FILE_READ -> "read_file";
            case FILE_WRITE -> "write_file";
            case FILE_DELETE -> "delete_file";
            case DIRECTORY_LIST -> "list_directory";
            case DIRECTORY_CREATE -> "create_directory";
            case COMMAND_EXECUTE -> "run_command";
        }));
        return name.toString();
    }

    /** A decision and the retry-budget attempt that runs until the action's outcome is known. */
    private record Decided<T>(T decision, RetryBudget.Attempt attempt) {

        /** Ends the attempt: -1 failed, 0 no outcome, 1 succeeded. */
        void end(int outcome) {
            if (attempt == null) {
                return;
            }
            if (outcome > 0) {
                attempt.succeeded();
            } else if (outcome < 0) {
                attempt.failed();
            } else {
                attempt.release();
            }
        }
    }

    /** How a kind of decision (a path, a command) is presented for approval and re-validated after it. */
    public interface Approval<T> {

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

        /** What the decision resolved to on the host, as {@code "argument -> /real/path"} entries. */
        List<String> targets(T decision);

        /** The digest of the content the action writes, or {@code null}. */
        String contentDigest();

        /** The canonical form of the call for the retry budget: the resolved target or the checked argv. */
        String retryKey(T decision);

        /** The call's form for the retry budget when the check refused it before deciding a target. */
        String fallbackKey();
    }

    /** The approval view of a command decision; the re-check runs the whole command policy again. */
    public static Approval<CheckedCommand> commands(CommandPolicy policy, PathResolver resolver, String commandLine,
                                                   String workingDirectory) {
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
                CheckedCommand now = policy.check(resolver, command.commandLine(), workingDirectory);
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

            @Override
            public List<String> targets(CheckedCommand command) {
                List<String> targets = new ArrayList<>();
                command.workingDirectory().ifPresent(directory -> targets.add("working directory "
                        + directory.virtualPath() + " -> " + directory.realPath()));
                for (ResolvedPath argument : command.pathArguments()) {
                    targets.add(argument.input() + " -> " + argument.realPath());
                }
                return targets;
            }

            @Override
            public String contentDigest() {
                return null;
            }

            @Override
            public String retryKey(CheckedCommand command) {
                return command.workingDirectory().map(ResolvedPath::virtualPath).orElse("") + '\u0000'
                        + String.join("\u0000", command.argv());
            }

            @Override
            public String fallbackKey() {
                return "unchecked\u0000" + workingDirectory + '\u0000' + commandLine;
            }
        };
    }

    /**
     * The approval view of a path decision; {@code path} is the path as the agent wrote it, {@code contentDigest}
     * the digest of the content the action writes ({@code null} for none).
     */
    public static Approval<ResolvedPath> paths(PathResolver resolver, String path, String details,
                                               String contentDigest) {
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
                return request.target(target).details(details).contentDigest(contentDigest);
            }

            @Override
            public ResolvedPath recheck(ResolvedPath target) {
                return resolver.resolveAgain(target);
            }

            @Override
            public String subject(ResolvedPath target) {
                return target.virtualPath();
            }

            @Override
            public List<String> targets(ResolvedPath target) {
                if (target.isSymbolicLink()) {
                    return List.of(target.virtualPath() + " -> " + target.realPath() + " (symbolic link to "
                            + target.linkTarget().map(Object::toString).orElse("nothing: dangling or looping") + ")");
                }
                return List.of(target.virtualPath() + " -> " + target.realPath());
            }

            @Override
            public String contentDigest() {
                return contentDigest;
            }

            @Override
            public String retryKey(ResolvedPath target) {
                return target.virtualPath() + '\u0000' + Objects.toString(contentDigest, "");
            }

            @Override
            public String fallbackKey() {
                String canonical;
                try {
                    canonical = resolver.resolve(path, EnumSet.noneOf(Permission.class)).virtualPath();
                } catch (MeroToolsException uncovered) {
                    canonical = "unresolved\u0000" + path;
                }
                return canonical + '\u0000' + Objects.toString(contentDigest, "");
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
