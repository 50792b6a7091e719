package dev.mero.core;

import dev.mero.core.guard.ActionGuard;
import dev.mero.core.guard.Operation;
import dev.mero.core.message.Messages;
import dev.mero.core.path.ContentDigest;
import dev.mero.core.path.PathResolver;
import dev.mero.core.path.ProtectedPaths;
import dev.mero.core.path.ResolvedPath;

import dev.mero.core.approval.ApprovalBackend;
import dev.mero.core.approval.ApprovalGate;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.audit.AuditSink;
import dev.mero.core.command.CheckedCommand;
import dev.mero.core.command.CommandPolicy;
import dev.mero.core.command.CommandResult;
import dev.mero.core.command.CommandRunner;
import dev.mero.core.command.CommandSandbox;
import dev.mero.core.command.guard.ArgumentGuard;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimitStore;
import dev.mero.core.limit.RateLimiter;
import dev.mero.core.limit.RetryBudget;
import dev.mero.core.replay.ReplayStore;
import dev.mero.core.scope.ScopeSet;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides every action an agent attempts: which paths it may touch, with which permissions, and which
 * commands it may run (see {@link CommandPolicy}).
 *
 * <pre>{@code
 * SecurityContext context = SecurityContext.builder()
 *         .name("worker_1")
 *         .path(PathEntry.of("/srv/workspace", "ws", Permission.READ, Permission.WRITE))
 *         .path(PathEntry.of("/srv/docs", "docs", Permission.READ))
 *         .permissions(Permission.READ, Permission.WRITE)      // ceiling over every entry
 *         .build();
 *
 * ResolvedPath target = context.checkPathAccess("/ws/notes.txt", Permission.WRITE);
 * Files.writeString(target.realPath(), "hello");
 * }</pre>
 *
 * <p>Deny by default: a context without entries denies every path, an entry allows nothing it was not
 * told to, a denied permission wins over every allow, and the context's {@link #permissions() ceiling}
 * caps all entries. A failed check throws a {@link MeroToolsException} whose message is written for a
 * model to read; a check never touches the file system beyond reading metadata.
 *
 * <p>Instances are immutable and thread-safe; one context can serve concurrent tool calls.
 */
public final class SecurityContext {

    /**
     * The default protected paths, on unless {@link Builder#defaultProtectedPaths(boolean)} turns them off:
     * {@code .env} and {@code .env.*} files (but for the committed templates {@code .env.example},
     * {@code .env.sample} and {@code .env.template}), private keys and key stores ({@code *.pem}, {@code *.key},
     * {@code *.p12}, {@code *.pfx}, {@code *.jks}, {@code *.keystore}, and {@code id_rsa*}, {@code id_dsa*},
     * {@code id_ecdsa*}, {@code id_ed25519*} but for their public {@code *.pub} halves), the {@code .ssh} and
     * {@code .gnupg} directories, and the credential files {@code .aws/credentials}, {@code .netrc},
     * {@code .git-credentials}, {@code .npmrc}, {@code .pypirc}, {@code .pgpass}, {@code .docker/config.json}
     * and {@code .kube/config}, each at any depth of a mount.
     */
    public static final List<String> DEFAULT_PROTECTED_PATHS = ProtectedPaths.DEFAULTS;

    private static final Logger LOGGER = LoggerFactory.getLogger(SecurityContext.class);

    private final String name;
    private final String lineage;
    private final List<PathEntry> paths;
    private final Set<Permission> permissions;
    private final PathResolver resolver;
    private final ScopeSet scopes;
    private final RateLimiter rateLimiter;
    private final RetryBudget retryBudget;
    private final RateLimitStore rateLimitStore;
    private final ReplayStore replayStore;
    private final Set<Permission> approvalRequired;
    private final ApprovalBackend approval;
    private final AuditLog auditLog;
    private final List<RateLimiter> rateLimiters;
    private final ActionGuard guard;
    private final CommandPolicy commandPolicy;
    private final CommandRunner commandRunner;
    private final ProtectedPaths protection;
    private final boolean weakerPathOpens;

    private SecurityContext(Builder builder) {
        this.name = builder.name;
        this.weakerPathOpens = builder.weakerPathOpens;
        this.lineage = builder.lineage();
        this.paths = List.copyOf(builder.paths);
        this.permissions = Collections.unmodifiableSet(builder.permissions.clone());
        this.protection = builder.protection();
        this.resolver = new PathResolver(name, paths, permissions, protection);
        this.scopes = builder.scopes;
        this.rateLimitStore = builder.rateLimitStore;
        this.rateLimiter = builder.limiter();
        this.retryBudget = builder.retryBudget;
        this.replayStore = builder.replayStore;
        this.approvalRequired = Collections.unmodifiableSet(builder.approvalRequired.clone());
        this.approval = builder.approval;
        AuditLog log = builder.auditLog != null ? builder.auditLog : AuditLog.create();
        for (AuditSink sink : builder.auditSinks) {
            log = log.withSink(sink);
        }
        this.auditLog = log;
        List<RateLimiter> limiters = new ArrayList<>();
        if (rateLimiter != null) {
            limiters.add(rateLimiter);
        }
        limiters.addAll(builder.inheritedRateLimiters);
        this.rateLimiters = List.copyOf(limiters);
        this.guard = new ActionGuard(name, scopes, limiters, approvalRequired,
                ApprovalGate.builder().backend(approval).auditLog(auditLog).build(), auditLog, retryBudget);
        this.commandPolicy = builder.commands.build();
        this.commandRunner = builder.commandRunner != null ? builder.commandRunner
                : defaultRunner(commandPolicy.searchPath());
        if (!commandPolicy.sandbox().enabled()) {
            builder.warnings.warn("Context {} runs its commands WITHOUT the bubblewrap sandbox (explicit opt-out): "
                    + "only the command policy's checks stand between a command and the whole file system.",
                    Messages.quote(name));
        }
    }

    /** Git reads configuration and hooks that can run programs; a child gets none of them. */
    private static CommandRunner defaultRunner(String searchPath) {
        return CommandRunner.builder()
                .environment("PATH", searchPath)
                .environment("GIT_CONFIG_NOSYSTEM", "1")
                .environment("GIT_CONFIG_GLOBAL", "/dev/null")
                .environment("GIT_TERMINAL_PROMPT", "0")
                .environment("GIT_PAGER", "cat")
                .environment("GIT_EDITOR", "false")
                .environment("GIT_CONFIG_COUNT", "3")
                .environment("GIT_CONFIG_KEY_0", "core.hooksPath")
                .environment("GIT_CONFIG_VALUE_0", "/dev/null")
                .environment("GIT_CONFIG_KEY_1", "core.fsmonitor")
                .environment("GIT_CONFIG_VALUE_1", "false")
                .environment("GIT_CONFIG_KEY_2", "safe.bareRepository")
                .environment("GIT_CONFIG_VALUE_2", "explicit")
                .build();
    }

    /**
     * Starts a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The context's name, used in every message.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * The key of this context's shared state: its name qualified by the names of the contexts it was
     * {@linkplain #narrow(String) narrowed} from, root first, separated by {@code /} (each name with
     * {@code %} written {@code %25} and {@code /} written {@code %2F}, so that no two lineages are equal). A
     * context built directly has its own name as lineage (escaped the same way). Shared stores key the rate
     * limit's bucket and replayed tool calls by it, so that two narrowed contexts of the same name under
     * different parents never share one.
     *
     * @return the lineage, for example {@code support_agent/worker}
     */
    public String lineage() {
        return lineage;
    }

    /**
     * The mounted entries in declaration order; the first is the default mount for relative paths.
     *
     * @return an immutable list, possibly empty
     */
    public List<PathEntry> paths() {
        return paths;
    }

    /**
     * The ceiling: permissions the context may grant at all, whatever an entry allows.
     *
     * @return an immutable set
     */
    public Set<Permission> permissions() {
        return permissions;
    }

    /**
     * Resolves a path and checks that it is covered by an entry, without checking any permission.
     *
     * @param path {@code /slug/rest}, a path relative to the default mount, or an absolute host path
     *             inside an entry's directory
     * @return the resolved target
     * @throws PathAccessDeniedException if no entry covers the path
     * @throws InvalidInputException     if the path is empty, too long, or contains control characters
     *                                   or unexpanded {@code ~} / {@code $VAR} syntax
     */
    public ResolvedPath checkPath(String path) {
        return resolver.resolve(path, EnumSet.noneOf(Permission.class));
    }

    /**
     * How the agent names a host path: the virtual {@code /slug/rest} path under the innermost entry whose real
     * directory contains it. Messages for the model use this form, never the host path.
     *
     * @param realPath a canonical host path, as in {@link ResolvedPath#realPath()}
     * @return the virtual path, or empty when no entry contains the path
     */
    public Optional<String> virtualPathOf(java.nio.file.Path realPath) {
        return resolver.virtualPath(Objects.requireNonNull(realPath, "realPath"));
    }

    /**
     * The protected paths in force: globs matched against the path inside each mount that deny every permission,
     * whatever the entries allow ({@link Builder#protectedPaths(String...)}), the
     * {@linkplain #DEFAULT_PROTECTED_PATHS default set} first unless it was turned off.
     *
     * @return an immutable list of globs, in the order a refusal names the first that matches
     */
    public List<String> protectedPaths() {
        return protection.patterns();
    }

    /**
     * The protected path glob that covers a canonical host path: matched against its path inside every entry
     * that contains it, and against each directory above it there (a protected directory covers its tree).
     * Tools that walk a tree ask this for every entry they meet, so that no protected file's content is read,
     * copied or searched; listings show the name, marked protected.
     *
     * @param realPath a canonical host path, as in {@link ResolvedPath#realPath()}
     * @return the glob, or empty when the path is not protected or no entry contains it
     */
    public Optional<String> protectedPattern(java.nio.file.Path realPath) {
        return resolver.protectedPattern(Objects.requireNonNull(realPath, "realPath"));
    }

    /**
     * The protected path glob that covers an entry a walk meets in a directory it entered: as
     * {@link #protectedPattern(java.nio.file.Path)} for {@code realDirectory/name}, for a directory that is itself
     * not protected and has no protected directory above it inside any entry (a walk never enters one). Only the
     * entry's own path is matched, not every directory above it again, and the entries that contain the directory
     * are found once per directory: the walks of {@code find_files} and {@code directory_tree} ask it for every
     * entry.
     *
     * @param realDirectory the canonical host path of a directory the walk entered
     * @param name          the name of an entry there
     * @return the glob, or empty when the entry is not protected
     */
    public Optional<String> protectedEntryPattern(java.nio.file.Path realDirectory, String name) {
        return resolver.protectedEntryPattern(Objects.requireNonNull(realDirectory, "realDirectory"),
                Objects.requireNonNull(name, "name"));
    }

    /** The protected paths with the exceptions of the default set, for a narrowed child to keep. */
    ProtectedPaths protection() {
        return protection;
    }

    /**
     * Checks that the context's ceiling includes every given permission.
     *
     * @param needed the permissions an action needs
     * @throws PermissionDeniedException if the ceiling lacks one of them
     */
    public void checkPermission(Permission... needed) {
        resolver.checkPermission(permissionSet(needed));
    }

    /**
     * Resolves a path and checks that every given permission is granted on it: no entry containing it
     * denies one, the context's ceiling includes them, and the innermost entry allows them.
     *
     * @param path   as for {@link #checkPath(String)}
     * @param needed the permissions the action needs
     * @return the resolved target
     * @throws PathAccessDeniedException if no entry covers the path or an entry denies a permission
     * @throws PermissionDeniedException if the ceiling or the innermost entry lacks a permission
     * @throws InvalidInputException     if the path is malformed
     */
    public ResolvedPath checkPathAccess(String path, Permission... needed) {
        return resolver.resolve(path, permissionSet(needed));
    }

    /**
     * Checks a resolved target again, right before or after an operation uses it, and makes sure it
     * still resolves to the same real path. This closes the window between check and use in which a
     * symlink could be swapped in. A refusal here comes after the guard's ALLOWED event, so it is recorded
     * in the audit log as the decision's DENIED outcome.
     *
     * @param target a target this context resolved earlier
     * @return the target as resolved now
     * @throws PathAccessDeniedException if the target now resolves elsewhere or is no longer covered
     */
    public ResolvedPath recheck(ResolvedPath target) {
        Objects.requireNonNull(target, "target");
        try {
            return resolver.resolveAgain(target);
        } catch (MeroToolsException refused) {
            guard.recordLateRefusal(refused, target.checkedPermissions(), target.virtualPath());
            throw refused;
        }
    }

    /**
     * Checks a target again, as {@link #recheck(ResolvedPath)}, and checks that the content about to be written
     * is exactly the content the target was guarded (and approved) for: a target from
     * {@link #guard(Operation, String, String, String)} carries the {@link ContentDigest} it was guarded with.
     * A refusal is recorded in the audit log.
     *
     * @param target  a target this context guarded
     * @param content the bytes about to be written
     * @return the target as resolved now
     * @throws PathAccessDeniedException if the target now resolves elsewhere or is no longer covered
     * @throws ApprovalDeniedException   if the content's digest differs from the one the target was guarded for
     */
    public ResolvedPath recheck(ResolvedPath target, byte[] content) {
        Objects.requireNonNull(content, "content");
        ResolvedPath now = recheck(target);
        Optional<String> guarded = target.contentDigest();
        if (guarded.isPresent() && !guarded.get().equals(ContentDigest.of(content))) {
            ApprovalDeniedException refused = new ApprovalDeniedException("The content to write to "
                    + Messages.quote(target.virtualPath()) + " is not the content that was checked and approved in "
                    + "context " + Messages.quote(name) + ". Nothing was written; call the tool again with the "
                    + "content you mean to write.");
            guard.recordLateRefusal(refused, target.checkedPermissions(), target.virtualPath());
            throw refused;
        }
        return now.withContentDigest(guarded.orElse(null));
    }

    // --- governance: scopes, rate limit, approval and audit around every guarded action ---

    /**
     * Guards a file-system operation: the one call a tool makes before it touches a path. In order:
     * <ol>
     *   <li>the operation's scope ({@link ScopeDeniedException}; only when scopes are configured);</li>
     *   <li>the rate limit ({@link RateLimitedException}; only when a limit is configured);</li>
     *   <li>{@link #checkPathAccess(String, Permission...)} with the operation's permissions;</li>
     *   <li>approval, when the context or an entry containing the target requires it for one of those
     *       permissions ({@link ApprovalDeniedException}, {@link ApprovalTimeoutException}), followed by a
     *       {@link #recheck(ResolvedPath) re-check}: what runs is what was approved;</li>
     *   <li>an audit event for the outcome (allowed, or denied and why).</li>
     * </ol>
     * An action that any rule denies is never sent for approval.
     *
     * @param operation the operation, e.g. {@link Operation#FILE_WRITE}
     * @param path      the path as the agent wrote it
     * @return the approved, re-validated target
     * @throws MeroToolsException for every refusal, with a message written for the model
     */
    public ResolvedPath guard(Operation operation, String path) {
        return guard(operation, path, null);
    }

    /**
     * Like {@link #guard(Operation, String)}, with details a human needs to decide, such as the diff of an
     * edit. Details go to the approval backend only, never into the audit log.
     *
     * @param operation the operation
     * @param path      the path as the agent wrote it
     * @param details   what the human approver should see besides the action, or {@code null}
     * @return the approved, re-validated target
     * @throws MeroToolsException for every refusal
     */
    public ResolvedPath guard(Operation operation, String path, String details) {
        return guard(operation, path, details, null);
    }

    /**
     * Like {@link #guard(Operation, String, String)}, for an action that writes content: the approval request,
     * the audit event and the retry budget's key carry {@code contentDigest}, the SHA-256 of the complete new
     * content or edit ({@link ContentDigest#of(byte[])}). An approval, and a remembered approval, then covers
     * exactly that content; the returned target carries the digest, and {@link #recheck(ResolvedPath, byte[])}
     * refuses any other content right before it is written.
     *
     * @param operation     the operation
     * @param path          the path as the agent wrote it
     * @param details       what the human approver should see besides the action (a preview, a diff), or
     *                      {@code null}; never compared, never audited
     * @param contentDigest {@link ContentDigest#of(byte[])} of the complete content or edit the action will
     *                      write, or {@code null} for an action that writes none
     * @return the approved, re-validated target, carrying the digest
     * @throws MeroToolsException       for every refusal
     * @throws IllegalArgumentException if the digest is not 64 lower-case hex digits
     */
    public ResolvedPath guard(Operation operation, String path, String details, String contentDigest) {
        Objects.requireNonNull(operation, "operation");
        if (operation == Operation.COMMAND_EXECUTE) {
            throw new IllegalArgumentException("COMMAND_EXECUTE is guarded by guardCommand(...), not guard(...)");
        }
        return guard.guard(operation, String.valueOf(path), () -> checkPathAccess(path, permissionsOf(operation)),
                ActionGuard.paths(resolver, String.valueOf(path), details, ContentDigest.requireDigestOrNull(contentDigest)))
                .withContentDigest(contentDigest);
    }

    /**
     * Guards a file-system operation as {@link #guard(Operation, String, String, String)} and runs it, under the
     * context's retry budget keyed by the canonical target: the identical call however the path is spelled
     * ({@code /ws/x}, {@code /ws//x}, {@code x}, {@code ./x}, the host path), with the same content. An action
     * that throws counts as one more failure of that call; once the budget is used up the call is refused
     * before anything runs (audited, {@link RetryBudgetExceededException}). A success resets the count.
     *
     * @param operation     the operation
     * @param path          the path as the agent wrote it
     * @param details       what the human approver should see, or {@code null}
     * @param contentDigest the digest of the content the action writes, or {@code null}
     * @param action        the operation itself, given the approved target
     * @param <R>           the result type
     * @return the action's result
     * @throws MeroToolsException for every refusal, and whatever the action throws
     */
    public <R> R run(Operation operation, String path, String details, String contentDigest,
                     Function<ResolvedPath, R> action) {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(action, "action");
        if (operation == Operation.COMMAND_EXECUTE) {
            throw new IllegalArgumentException("COMMAND_EXECUTE is run by runCommand(...), not run(...)");
        }
        return guard.run(operation, String.valueOf(path), () -> checkPathAccess(path, permissionsOf(operation)),
                ActionGuard.paths(resolver, String.valueOf(path), details, ContentDigest.requireDigestOrNull(contentDigest)),
                target -> action.apply(target.withContentDigest(contentDigest)), result -> true);
    }

    /**
     * Like {@link #guard(Operation, String, String, String)}, for an action on the path's own directory entry, as
     * {@code rm} and {@code mv} see it: with {@link LinkOption#NOFOLLOW_LINKS} a symbolic link at the path's last
     * name is not followed. The checks and the approval are then on the link's own location (its directory
     * resolved as always, its name kept), the target says {@link ResolvedPath#isSymbolicLink() that it is a link}
     * and where it leads (for the audit log), and a link that leads outside the mounted entries is refused
     * ({@link PathAccessDeniedException}); a link that leads nowhere (dangling, looping) is accepted, since acting
     * on the link touches nothing else. Links in the middle of the path are resolved as always. A path whose last
     * name is no link is decided exactly as by the other overload.
     *
     * @param operation     the operation
     * @param path          the path as the agent wrote it
     * @param linkOption    {@link LinkOption#NOFOLLOW_LINKS}
     * @param details       what the human approver should see, or {@code null}
     * @param contentDigest the digest of the content the action writes, or {@code null}
     * @return the approved, re-validated target
     * @throws MeroToolsException for every refusal
     */
    public ResolvedPath guard(Operation operation, String path, LinkOption linkOption, String details,
                              String contentDigest) {
        Objects.requireNonNull(operation, "operation");
        requireNoFollow(linkOption);
        if (operation == Operation.COMMAND_EXECUTE) {
            throw new IllegalArgumentException("COMMAND_EXECUTE is guarded by guardCommand(...), not guard(...)");
        }
        return guard.guard(operation, String.valueOf(path),
                () -> resolver.resolve(path, permissionSet(permissionsOf(operation)), false),
                ActionGuard.paths(resolver, String.valueOf(path), details, ContentDigest.requireDigestOrNull(contentDigest)))
                .withContentDigest(contentDigest);
    }

    /**
     * Like {@link #run(Operation, String, String, String, Function)}, on the path's own directory entry: a
     * symbolic link at its last name is not followed, as {@link #guard(Operation, String, LinkOption, String,
     * String)} describes.
     *
     * @param operation     the operation
     * @param path          the path as the agent wrote it
     * @param linkOption    {@link LinkOption#NOFOLLOW_LINKS}
     * @param details       what the human approver should see, or {@code null}
     * @param contentDigest the digest of the content the action writes, or {@code null}
     * @param action        the operation itself, given the approved target
     * @param <R>           the result type
     * @return the action's result
     * @throws MeroToolsException for every refusal, and whatever the action throws
     */
    public <R> R run(Operation operation, String path, LinkOption linkOption, String details, String contentDigest,
                     Function<ResolvedPath, R> action) {
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(action, "action");
        requireNoFollow(linkOption);
        if (operation == Operation.COMMAND_EXECUTE) {
            throw new IllegalArgumentException("COMMAND_EXECUTE is run by runCommand(...), not run(...)");
        }
        return guard.run(operation, String.valueOf(path),
                () -> resolver.resolve(path, permissionSet(permissionsOf(operation)), false),
                ActionGuard.paths(resolver, String.valueOf(path), details, ContentDigest.requireDigestOrNull(contentDigest)),
                target -> action.apply(target.withContentDigest(contentDigest)), result -> true);
    }

    /**
     * Like {@link #guard(String, Permission...)}, on the path's own directory entry: a symbolic link at its last
     * name is not followed, as {@link #guard(Operation, String, LinkOption, String, String)} describes.
     *
     * @param path        the path as the agent wrote it
     * @param linkOption  {@link LinkOption#NOFOLLOW_LINKS}
     * @param permissions the permissions the action needs, at least one
     * @return the approved, re-validated target
     * @throws MeroToolsException for every refusal
     */
    public ResolvedPath guard(String path, LinkOption linkOption, Permission... permissions) {
        requireNoFollow(linkOption);
        return guard(path, false, permissions);
    }

    /**
     * Checks that a symbolic link, resolved as itself, may be moved or copied as a link to {@code destination}
     * with its text unchanged (as {@code mv} and {@code cp -P} keep it): where it leads now, and where it would
     * lead from the destination's directory, must both exist inside the mounted entries. A refusal is recorded in
     * the audit log.
     *
     * @param link        a target from {@link #guard(Operation, String, LinkOption, String, String)} that
     *                    {@link ResolvedPath#isSymbolicLink() is a link}
     * @param destination the checked place the link is to be moved or copied to
     * @return the link's text as checked, to create the link with; never show it to the model
     * @throws PathAccessDeniedException if the link leads nowhere or outside the mounts, from either place
     * @throws OperationFailedException  if no link is there any more
     */
    public String checkLinkTarget(ResolvedPath link, ResolvedPath destination) {
        Objects.requireNonNull(link, "link");
        Objects.requireNonNull(destination, "destination");
        if (!link.isSymbolicLink()) {
            throw new IllegalArgumentException("checkLinkTarget needs a target resolved as a symbolic link");
        }
        try {
            return resolver.linkTextFor(link, destination.realPath());
        } catch (MeroToolsException refused) {
            guard.recordLateRefusal(refused, link.checkedPermissions(), link.virtualPath());
            throw refused;
        }
    }

    private static void requireNoFollow(LinkOption linkOption) {
        if (linkOption != LinkOption.NOFOLLOW_LINKS) {
            throw new IllegalArgumentException("linkOption must be LinkOption.NOFOLLOW_LINKS");
        }
    }

    /**
     * Guards an action on a path that needs the given permissions, for callers that think in permissions
     * rather than operations. The same steps as {@link #guard(Operation, String)}; the scopes checked are
     * those of {@link Operation#FILE_READ}, {@link Operation#FILE_WRITE}, {@link Operation#FILE_DELETE} and,
     * for EXECUTE, {@link Operation#COMMAND_EXECUTE}.
     *
     * @param path        the path as the agent wrote it
     * @param permissions the permissions the action needs, at least one
     * @return the approved, re-validated target
     * @throws MeroToolsException    for every refusal
     * @throws InvalidInputException (audited) if no permission is given
     */
    public ResolvedPath guard(String path, Permission... permissions) {
        return guard(path, true, permissions);
    }

    private ResolvedPath guard(String path, boolean followLast, Permission... permissions) {
        EnumSet<Permission> needed = permissionSet(permissions);
        if (needed.isEmpty()) {
            InvalidInputException refused = new InvalidInputException("No permission was named for the action on "
                    + Messages.quote(String.valueOf(path)) + " in context " + Messages.quote(name) + ", so it cannot "
                    + "be checked and is refused. Name the permissions the action needs (READ, WRITE, EXECUTE or "
                    + "DELETE).");
            guard.recordLateRefusal(refused, needed, String.valueOf(path));
            throw refused;
        }
        List<Operation> operations = new ArrayList<>();
        for (Permission permission : needed) {
            operations.add(switch (permission) {
                case READ -> Operation.FILE_READ;
                case WRITE -> Operation.FILE_WRITE;
                case DELETE -> Operation.FILE_DELETE;
                case EXECUTE -> Operation.COMMAND_EXECUTE;
            });
        }
        return guard.guard(operations, needed, String.valueOf(path), () -> resolver.resolve(path, needed, followLast),
                ActionGuard.paths(resolver, String.valueOf(path), null, null));
    }

    /**
     * Checks that the context's scopes cover an operation; passes when no scopes are configured.
     *
     * @param operation the operation
     * @throws ScopeDeniedException if scopes are configured and none covers the operation's scope
     */
    public void checkScope(Operation operation) {
        scopes.check(name, Objects.requireNonNull(operation, "operation").scope());
    }

    /**
     * The scopes the context's caller holds; {@link ScopeSet#unrestricted()} when none were configured.
     *
     * @return the granted scopes
     */
    public ScopeSet scopes() {
        return scopes;
    }

    /**
     * The context's rate limiter, if a limit was configured.
     *
     * @return the limiter, or empty
     */
    public Optional<RateLimiter> rateLimiter() {
        return Optional.ofNullable(rateLimiter);
    }

    /**
     * The retry budget every guard applies to stop a model from repeating the same failing call.
     *
     * @return the budget, or empty when none was configured
     */
    public Optional<RetryBudget> retryBudget() {
        return Optional.ofNullable(retryBudget);
    }

    /**
     * The store that holds this context's rate-limit bucket when several application instances share it.
     *
     * @return the store, absent when the bucket lives in memory
     */
    public Optional<RateLimitStore> rateLimitStore() {
        return Optional.ofNullable(rateLimitStore);
    }

    /**
     * The store that makes a tool-call id run at most once (a repeat gets the first result); tool bindings
     * consult it for calls that carry an id.
     *
     * @return the store, absent when repeats are not recognised
     */
    public Optional<ReplayStore> replayStore() {
        return Optional.ofNullable(replayStore);
    }

    /**
     * Whether the file tools may open directories by path where the platform offers no
     * {@link java.nio.file.SecureDirectoryStream} and no foreign-function layer ({@link
     * Builder#weakerPathOpens(boolean)}).
     *
     * @return {@code false} unless turned on
     */
    public boolean weakerPathOpens() {
        return weakerPathOpens;
    }

    /**
     * Permissions that need a human's approval anywhere in the context (entries can add their own).
     *
     * @return an immutable set
     */
    public Set<Permission> approvalRequired() {
        return approvalRequired;
    }

    /**
     * The approval backend, if one is configured; without one, every action that needs approval is denied
     * (fail-safe).
     *
     * @return the backend, or empty
     */
    public Optional<ApprovalBackend> approval() {
        return Optional.ofNullable(approval);
    }

    /**
     * The audit log every guarded decision is recorded in (always the SLF4J logger {@code dev.mero.audit},
     * plus any configured sinks).
     *
     * @return the audit log
     */
    public AuditLog auditLog() {
        return auditLog;
    }

    // --- commands: the policy lives in dev.mero.core.command; the context holds it and delegates ---

    /**
     * The command policy: allow and deny rules, search path and argument guards.
     *
     * @return the policy (with no allow rule, every command is denied)
     */
    public CommandPolicy commandPolicy() {
        return commandPolicy;
    }

    /**
     * Checks a command line against the command policy, without a working directory (relative path arguments
     * resolve against the default entry). Nothing is run.
     *
     * @param commandLine the command line, split with POSIX quoting and never given to a shell
     * @return the parsed and checked command
     * @throws CommandDeniedException if the policy refuses the command
     * @throws InvalidInputException  if the line is empty, too long or malformed
     * @see CommandPolicy
     */
    public CheckedCommand checkCommand(String commandLine) {
        return commandPolicy.check(resolver, commandLine);
    }

    /**
     * Checks a command line against the command policy, and that its working directory grants EXECUTE.
     * Relative path arguments resolve against the working directory. Nothing is run.
     *
     * @param commandLine      the command line
     * @param workingDirectory the working directory as for {@link #checkPath(String)}; {@code null} or blank
     *                         for the first entry that grants EXECUTE
     * @return the checked command with its resolved working directory
     * @throws CommandDeniedException    if the policy refuses the command
     * @throws PermissionDeniedException if the working directory lacks EXECUTE
     * @throws PathAccessDeniedException if the working directory is not covered or EXECUTE is denied there
     * @throws InvalidInputException     if the line is malformed or the working directory is not a directory
     */
    public CheckedCommand checkCommand(String commandLine, String workingDirectory) {
        return commandPolicy.check(resolver, commandLine, workingDirectory);
    }

    /**
     * Guards a command: the one call a tool makes before it runs one. The same steps as
     * {@link #guard(Operation, String)}, for {@link Operation#COMMAND_EXECUTE}: scope, rate limit,
     * {@link #checkCommand(String, String)} (every policy rule, EXECUTE on the working directory), the
     * sandbox's {@link CommandSandbox#requireAvailable(String) availability}, approval when the context or the
     * working directory's entries require it for EXECUTE, a full re-check after approval, and an audit event.
     *
     * @param commandLine      the command line as the agent wrote it
     * @param workingDirectory the working directory, or {@code null} for the first entry granting EXECUTE
     * @return the approved, re-checked command, ready for {@link CommandRunner#run(CheckedCommand)}
     * @throws MeroToolsException for every refusal
     */
    public CheckedCommand guardCommand(String commandLine, String workingDirectory) {
        String subject = commandLine == null ? "" : commandLine;
        return guard.guard(Operation.COMMAND_EXECUTE, subject, () -> runnableCommand(commandLine, workingDirectory),
                ActionGuard.commands(commandPolicy, resolver, subject, workingDirectory));
    }

    /**
     * Guards a command and runs it under the retry budget: a refusal, a failure or a non-zero exit counts. The
     * output shows entries' virtual paths where it names their host directories.
     */
    private CommandResult runGuarded(String commandLine, String workingDirectory,
                                     Function<CheckedCommand, CommandResult> run) {
        String subject = commandLine == null ? "" : commandLine;
        return guard.run(Operation.COMMAND_EXECUTE, subject, () -> runnableCommand(commandLine, workingDirectory),
                ActionGuard.commands(commandPolicy, resolver, subject, workingDirectory),
                command -> run.apply(command).withOutput(resolver::virtualised), CommandResult::succeeded);
    }

    /** A checked command that can also run here: its sandbox, when required, works on this machine. */
    private CheckedCommand runnableCommand(String commandLine, String workingDirectory) {
        CheckedCommand checked = checkCommand(commandLine, workingDirectory);
        checked.sandbox().requireAvailable(checked.commandLine());
        return checked;
    }

    /**
     * Guards and runs a command with the context's {@link #commandRunner() runner} and its default timeout,
     * inside the {@link #commandSandbox() sandbox} unless the context opted out. A non-zero exit is an
     * ordinary result ({@link CommandResult#succeeded()} is {@code false}), not a denial; a sandbox that is
     * required but not available on this machine is a {@link CommandDeniedException} saying what to install.
     * Where the output names an entry's host directory ({@code pwd} or a link target after an opt-out, a file
     * that holds a host path), the result shows the entry's virtual path instead.
     *
     * @param commandLine      the command line as the agent wrote it
     * @param workingDirectory the working directory, or {@code null} for the first entry granting EXECUTE
     * @return the result
     * @throws MeroToolsException for every refusal, and {@link OperationFailedException} if it cannot start
     */
    public CommandResult runCommand(String commandLine, String workingDirectory) {
        return runGuarded(commandLine, workingDirectory, commandRunner::run);
    }

    /**
     * Guards and runs a command with the given timeout.
     *
     * @param commandLine      the command line as the agent wrote it
     * @param workingDirectory the working directory, or {@code null} for the first entry granting EXECUTE
     * @param timeout          how long it may run, at most the runner's maximum
     * @return the result
     * @throws MeroToolsException for every refusal, and {@link InvalidInputException} for a timeout above the
     *                            maximum
     */
    public CommandResult runCommand(String commandLine, String workingDirectory, Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        return runGuarded(commandLine, workingDirectory, command -> commandRunner.run(command, timeout));
    }

    /**
     * How this context's commands are isolated (see {@link CommandSandbox}).
     *
     * @return the sandbox settings
     */
    public CommandSandbox commandSandbox() {
        return commandPolicy.sandbox();
    }

    /**
     * The runner {@link #runCommand(String, String)} uses. Unless one was configured, it passes only
     * {@link CommandRunner#DEFAULT_ENVIRONMENT} to the child, with {@code PATH} fixed to the context's command
     * search path, and switches off git's system/global configuration, hooks, fsmonitor, pager, editor and
     * prompts, which could otherwise run programs the policy never saw.
     *
     * @return the runner
     */
    public CommandRunner commandRunner() {
        return commandRunner;
    }

    /**
     * Starts a child context for a worker agent that can only take away from this one: fewer entries,
     * narrower permissions, more deny rules, more approval requirements, fewer scopes, lower limits. Any
     * attempt to widen fails when the child is built. The child shares this context's approval backend,
     * audit log, retry budget and command runner, and its actions also count against this context's rate
     * limit.
     *
     * @param childName the child context's name
     * @return a builder that starts as an exact copy of this context
     */
    public NarrowingBuilder narrow(String childName) {
        return new NarrowingBuilder(this, childName);
    }

    /** This context's rate limiters, its own first, then those inherited from the contexts it narrows. */
    List<RateLimiter> rateLimiters() {
        return rateLimiters;
    }

    @Override
    public String toString() {
        return "SecurityContext{name=" + Messages.quote(name) + ", paths=" + paths
                + ", permissions=" + Messages.permissions(permissions) + "}";
    }

    private static Permission[] permissionsOf(Operation operation) {
        return operation.permissions().toArray(new Permission[0]);
    }

    private static EnumSet<Permission> permissionSet(Permission... permissions) {
        Objects.requireNonNull(permissions, "permissions");
        EnumSet<Permission> set = EnumSet.noneOf(Permission.class);
        for (Permission permission : permissions) {
            set.add(Objects.requireNonNull(permission, "permission"));
        }
        return set;
    }

    /** Builds a {@link SecurityContext}. */
    public static final class Builder {

        private String name = "default";
        private String parentLineage;
        private final List<PathEntry> paths = new ArrayList<>();
        private EnumSet<Permission> permissions = EnumSet.allOf(Permission.class);
        private ScopeSet scopes = ScopeSet.unrestricted();
        private RateLimiter rateLimiter;
        private RateLimit rateLimit;
        private RateLimitStore rateLimitStore;
        private ReplayStore replayStore;
        private final List<RateLimiter> inheritedRateLimiters = new ArrayList<>();
        private RetryBudget retryBudget;
        private final EnumSet<Permission> approvalRequired = EnumSet.noneOf(Permission.class);
        private ApprovalBackend approval;
        private AuditLog auditLog;
        private final List<AuditSink> auditSinks = new ArrayList<>();
        private final CommandPolicy.Builder commands = CommandPolicy.builder();
        private CommandRunner commandRunner;
        private Logger warnings = LOGGER;
        private boolean defaultProtectedPaths = true;
        private final List<String> protectedPaths = new ArrayList<>();
        private ProtectedPaths inheritedProtection = ProtectedPaths.none();
        private boolean weakerPathOpens;

        private Builder() {
        }

        /**
         * Protects paths: globs matched against the path inside each mount ({@code **}{@code /.env},
         * {@code *.pem}, {@code config/secrets.yaml}) that deny every permission, whatever the entries allow. A
         * glob without {@code '/'} matches a name at any depth, one with {@code '/'} the whole path inside the
         * mount ({@code **}{@code /} also matching at the top); a matching directory protects its whole tree. The
         * decision is made on the canonical real path, so a link to a protected file, or a path through a link
         * to a protected directory, is protected too. No tool reads, copies or searches a protected file (listings
         * show its name, marked protected; copies and syncs skip it and say how many), and the command sandbox
         * hides every protected file and directory that exists when a command starts. Adds to earlier calls and
         * to the {@linkplain SecurityContext#DEFAULT_PROTECTED_PATHS default set}.
         *
         * @param globs the globs
         * @return this builder
         * @throws IllegalArgumentException (at {@link #build()}) if a glob is malformed
         */
        public Builder protectedPaths(String... globs) {
            return protectedPaths(List.of(Objects.requireNonNull(globs, "globs")));
        }

        /**
         * Protects paths, as {@link #protectedPaths(String...)}.
         *
         * @param globs the globs
         * @return this builder
         */
        public Builder protectedPaths(Collection<String> globs) {
            for (String glob : Objects.requireNonNull(globs, "globs")) {
                protectedPaths.add(Objects.requireNonNull(glob, "glob"));
            }
            return this;
        }

        /**
         * Turns the {@linkplain SecurityContext#DEFAULT_PROTECTED_PATHS default protected paths} on (the default)
         * or off; globs given to {@link #protectedPaths(String...)} apply either way.
         *
         * @param enabled whether the default set applies
         * @return this builder
         */
        public Builder defaultProtectedPaths(boolean enabled) {
            this.defaultProtectedPaths = enabled;
            return this;
        }

        /**
         * Opts in to the weaker mode of platforms whose JDK has no {@link java.nio.file.SecureDirectoryStream}
         * (macOS, musl-based images on Java 17): off by default, and then the file tools refuse every action
         * there. Turned on, directories are opened by path, the last name never followed, instead of relative to
         * an open directory: a directory on the way swapped for a link at the wrong moment is followed (see
         * docs/paths-and-permissions.md), and every operation that opens so is recorded in the audit. Changes
         * nothing where the platform offers secure directory access.
         *
         * @param enabled whether to open by path where nothing safer is available
         * @return this builder
         */
        public Builder weakerPathOpens(boolean enabled) {
            this.weakerPathOpens = enabled;
            return this;
        }

        /** The protected paths of the context this one narrows, kept with their exceptions before any other. */
        Builder inheritProtectedPaths(ProtectedPaths inherited) {
            this.inheritedProtection = Objects.requireNonNull(inherited, "inherited");
            return this;
        }

        /** What the context protects: inherited rules, then the default set, then the configured globs. */
        private ProtectedPaths protection() {
            ProtectedPaths protection = inheritedProtection;
            if (defaultProtectedPaths) {
                protection = protection.plus(ProtectedPaths.DEFAULTS, true);
            }
            return protection.plus(protectedPaths, false);
        }

        /**
         * Sets the context's name, used in every message (default {@code "default"}).
         *
         * @param name a non-blank name without control characters
         * @return this builder
         */
        public Builder name(String name) {
            if (name == null || name.isBlank() || name.codePoints().anyMatch(Messages::isControlOrInvisible)) {
                throw new IllegalArgumentException("Invalid context name " + Messages.quote(name)
                        + ": give a non-blank name without control characters");
            }
            this.name = name;
            return this;
        }

        /**
         * Mounts one entry; call once per entry. The first entry mounted is the default mount for relative
         * paths.
         *
         * @param entry the entry
         * @return this builder
         */
        public Builder path(PathEntry entry) {
            paths.add(Objects.requireNonNull(entry, "entry"));
            return this;
        }

        /**
         * Mounts several entries, in order.
         *
         * @param entries the entries
         * @return this builder
         */
        public Builder paths(PathEntry... entries) {
            return paths(List.of(Objects.requireNonNull(entries, "entries")));
        }

        /**
         * Mounts several entries, in iteration order.
         *
         * @param entries the entries
         * @return this builder
         */
        public Builder paths(Collection<PathEntry> entries) {
            Objects.requireNonNull(entries, "entries").forEach(this::path);
            return this;
        }

        /**
         * Sets the ceiling: the permissions the context may grant at all (default: all four). Replaces any
         * earlier call.
         *
         * @param permissions the ceiling, possibly none
         * @return this builder
         */
        public Builder permissions(Permission... permissions) {
            this.permissions = permissionSet(permissions);
            return this;
        }

        // --- commands (see CommandPolicy) ---

        /**
         * Adds an allowed-command rule, such as {@code "git status"}: a token prefix of the commands it
         * allows. Without any, every command is denied.
         *
         * @param rule the rule
         * @return this builder
         * @throws IllegalArgumentException if the rule is empty, contains shell syntax or names a relative
         *                                  program
         */
        public Builder allowCommand(String rule) {
            commands.allow(rule);
            return this;
        }

        /**
         * Adds a denied-command rule, such as {@code "rm -rf"}; deny rules win over allow rules.
         *
         * @param rule the rule
         * @return this builder
         * @throws IllegalArgumentException if the rule is malformed
         */
        public Builder denyCommand(String rule) {
            commands.deny(rule);
            return this;
        }

        /**
         * Sets the directories bare program names are looked up in (default
         * {@code /usr/local/bin:/usr/bin:/bin}); never taken from the agent.
         *
         * @param searchPath colon-separated, normalised absolute directories outside writable entries
         * @return this builder
         * @throws IllegalArgumentException if an element is empty or relative
         */
        public Builder commandSearchPath(String searchPath) {
            commands.searchPath(searchPath);
            return this;
        }

        /**
         * Adds an argument guard for allowed programs, applied after the built-in ones.
         *
         * @param guard the guard
         * @return this builder
         */
        public Builder argumentGuard(ArgumentGuard guard) {
            commands.guard(guard);
            return this;
        }

        /**
         * Turns the built-in argument guards on (the default) or off.
         *
         * @param enabled whether the built-in guards apply
         * @return this builder
         */
        public Builder builtInArgumentGuards(boolean enabled) {
            commands.builtInGuards(enabled);
            return this;
        }

        /**
         * Sets how commands are isolated by the kernel (default {@link CommandSandbox#required()}: inside a
         * bubblewrap sandbox that shows only this context's mounts, without network). Use
         * {@code CommandSandbox.builder().network(true).build()} to let commands reach the network, and
         * {@link CommandSandbox#disabled()} to opt out of the sandbox, which logs a warning when the context is
         * built.
         *
         * @param sandbox the sandbox settings
         * @return this builder
         */
        public Builder commandSandbox(CommandSandbox sandbox) {
            commands.sandbox(sandbox);
            return this;
        }

        /** Where the opt-out warning goes; tests pass a logger they can inspect. */
        Builder warnings(Logger logger) {
            this.warnings = Objects.requireNonNull(logger, "logger");
            return this;
        }

        /**
         * Sets the runner {@link SecurityContext#runCommand(String, String)} uses (timeouts, output caps, the
         * environment allowlist). The default is described at {@link SecurityContext#commandRunner()}.
         *
         * @param runner the runner
         * @return this builder
         */
        public Builder commandRunner(CommandRunner runner) {
            this.commandRunner = Objects.requireNonNull(runner, "runner");
            return this;
        }

        /**
         * Grants scopes ({@code namespace:resource:action}, with {@code *} for a whole resource or action
         * token). Once scopes are configured, every guarded operation needs a grant covering its scope,
         * checked before anything else. Replaces any earlier call; no call means scopes are not enforced.
         *
         * @param grants the granted scopes, possibly none (then every guarded operation is refused)
         * @return this builder
         * @throws IllegalArgumentException if a grant is malformed
         */
        public Builder scopes(String... grants) {
            this.scopes = ScopeSet.of(grants);
            return this;
        }

        /**
         * Grants scopes, as {@link #scopes(String...)}.
         *
         * @param grants the granted scopes
         * @return this builder
         */
        public Builder scopes(Collection<String> grants) {
            this.scopes = ScopeSet.of(grants);
            return this;
        }

        /**
         * Limits how often guarded actions may run (token bucket); an action over the limit is refused with
         * {@link RateLimitedException} before it runs.
         *
         * @param limit the limit
         * @return this builder
         */
        public Builder rateLimit(RateLimit limit) {
            this.rateLimit = Objects.requireNonNull(limit, "limit");
            this.rateLimiter = null;
            return this;
        }

        /**
         * Keeps the bucket of the {@linkplain #rateLimit(RateLimit) rate limit} in a store shared by several
         * application instances: every context of the same name using the same store draws from one bucket.
         * A store that cannot answer refuses the action with
         * {@link PolicyStoreUnavailableException}.
         *
         * @param store the store
         * @return this builder
         */
        public Builder rateLimitStore(RateLimitStore store) {
            this.rateLimitStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * Sets the store that makes a tool-call id run at most once, for tool bindings to consult.
         *
         * @param store the store, for example {@link dev.mero.core.replay.InMemoryReplayStore}
         * @return this builder
         */
        public Builder replayStore(ReplayStore store) {
            this.replayStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * Uses a given rate limiter, e.g. one with a controllable ticker, or one shared by several contexts.
         *
         * @param limiter the limiter
         * @return this builder
         */
        public Builder rateLimiter(RateLimiter limiter) {
            this.rateLimiter = Objects.requireNonNull(limiter, "limiter");
            this.rateLimit = null;
            return this;
        }

        /** The limiter to use: a given one, or one for the rate limit, shared through the store if any. */
        private RateLimiter limiter() {
            if (rateLimiter != null || rateLimit == null) {
                return rateLimiter;
            }
            return rateLimitStore == null ? RateLimiter.of(rateLimit)
                    : RateLimiter.shared(rateLimit, rateLimitStore, lineage());
        }

        /** This context's lineage: the parent's followed by its own escaped name, or the escaped name alone. */
        private String lineage() {
            String own = name.replace("%", "%25").replace("/", "%2F");
            return parentLineage == null ? own : parentLineage + "/" + own;
        }

        /** Makes the context a narrowed child of the context with this lineage. */
        Builder parentLineage(String lineage) {
            this.parentLineage = Objects.requireNonNull(lineage, "lineage");
            return this;
        }

        /**
         * Sets the retry budget every guard applies: {@link SecurityContext#guard(Operation, String) guard},
         * {@link SecurityContext#run(Operation, String, String, String, Function) run},
         * {@link SecurityContext#guardCommand(String, String) guardCommand} and
         * {@link SecurityContext#runCommand(String, String) runCommand} key it by the canonical target (the
         * resolved virtual path and content digest, or the checked argument vector and working directory),
         * and check and count in one atomic step. A guard alone counts its refusals; {@code run} and
         * {@code runCommand} count failures of the action too.
         *
         * @param budget the budget
         * @return this builder
         */
        public Builder retryBudget(RetryBudget budget) {
            this.retryBudget = Objects.requireNonNull(budget, "budget");
            return this;
        }

        /**
         * Requires a human's approval, anywhere in the context, for actions that need these permissions.
         *
         * @param permissions the permissions
         * @return this builder
         */
        public Builder requireApproval(Permission... permissions) {
            approvalRequired.addAll(permissionSet(permissions));
            return this;
        }

        /**
         * Sets the approval backend (for instance a {@link dev.mero.core.approval.ChainedApproval}).
         * Without one, every action that needs approval is denied.
         *
         * @param backend the backend
         * @return this builder
         */
        public Builder approval(ApprovalBackend backend) {
            this.approval = Objects.requireNonNull(backend, "backend");
            return this;
        }

        /**
         * Sets the audit log (default: the SLF4J logger {@code dev.mero.audit} only).
         *
         * @param auditLog the audit log, e.g. with a {@link dev.mero.core.audit.JsonLinesAuditSink}
         * @return this builder
         */
        public Builder auditLog(AuditLog auditLog) {
            this.auditLog = Objects.requireNonNull(auditLog, "auditLog");
            return this;
        }

        /**
         * Adds a sink to the audit log this context records to, whether {@link #auditLog(AuditLog)} set it (as a
         * policy file's {@code audit} section does) or not, for example
         * {@link dev.mero.core.metrics.MeroMetrics#auditSink(dev.mero.core.metrics.MeroMetrics) metrics}; call
         * once per sink.
         *
         * @param sink the sink, called after the audit log's own sinks
         * @return this builder
         */
        public Builder auditSink(AuditSink sink) {
            auditSinks.add(Objects.requireNonNull(sink, "sink"));
            return this;
        }

        /** Rate limiters of the contexts this one narrows: a child's actions count against them too. */
        Builder inheritRateLimiters(List<RateLimiter> limiters) {
            inheritedRateLimiters.addAll(limiters);
            return this;
        }

        /**
         * Builds the context.
         *
         * @return the context
         * @throws IllegalArgumentException if two entries share a slug, or a directory of the command search
         *                                  path lies inside an entry that grants WRITE
         */
        public SecurityContext build() {
            Set<String> slugs = new HashSet<>();
            for (PathEntry entry : paths) {
                if (!slugs.add(entry.slug())) {
                    throw new IllegalArgumentException("Duplicate slug " + Messages.quote(entry.slug())
                            + " in context " + Messages.quote(name) + ": every PathEntry needs its own slug");
                }
            }
            SecurityContext context = new SecurityContext(this);
            context.commandPolicy.validateAgainst(context.paths);
            return context;
        }
    }
}
