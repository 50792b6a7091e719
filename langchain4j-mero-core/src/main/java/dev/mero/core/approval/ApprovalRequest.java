package dev.mero.core.approval;

import dev.mero.core.path.ContentDigest;
import dev.mero.core.message.Messages;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;

import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.UUID;

/**
 * An action waiting for approval: who asks (the context), what for (the permissions), the action as a
 * human reads it, the exact target or argument vector that will be used, and the details a human needs to
 * decide (for an edit, the diff).
 *
 * <pre>{@code
 * ResolvedPath target = context.checkPathAccess("/ws/a.txt", Permission.WRITE);
 * ApprovalRequest request = ApprovalRequest.builder()
 *         .contextName(context.name())
 *         .permissions(Permission.WRITE)
 *         .target(target)                  // subject "/ws/a.txt", target the canonical real path
 *         .details(diff)
 *         .build();
 * request.action();                        // "WRITE: /ws/a.txt"
 *
 * ApprovalRequest command = ApprovalRequest.builder()
 *         .contextName("worker_1")
 *         .permissions(Permission.EXECUTE)
 *         .argv(List.of("git", "status"))   // subject "git status"
 *         .build();
 * command.action();                        // "EXECUTE: git status"
 * }</pre>
 *
 * <p>The action is {@code "<PERMISSIONS>: <subject>"} with the permissions in declaration order joined by
 * {@code ", "} (for example {@code "WRITE, DELETE: /ws/a.txt"}), see {@link #action(Collection, String)}.
 * The action is what messages quote; the {@link #target()}, {@link #argv()}, {@link #resolvedTargets()} (for a
 * command, the canonical real path every path argument resolved to, links followed) and
 * {@link #contentDigest()} (the SHA-256 of the complete new content or edit) are what will actually run, and
 * what {@link SessionApprovalMemory} compares; the details are only what a human reads. Details longer than {@value #MAX_DETAILS_LENGTH}
 * characters are cut and marked. Every request gets a random {@link #id()} that links its audit events and
 * lets {@link PendingApprovals} address it.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class ApprovalRequest {

    /** The longest details text a request keeps; longer details are cut and marked. */
    public static final int MAX_DETAILS_LENGTH = 64 * 1024;

    private final String id;
    private final String contextName;
    private final Set<Permission> permissions;
    private final String action;
    private final String subject;
    private final Path target;
    private final List<String> argv;
    private final String details;
    private final List<String> resolvedTargets;
    private final String contentDigest;
    private final Instant requestedAt;

    private ApprovalRequest(Builder builder) {
        if (builder.contextName == null || builder.contextName.isBlank()) {
            throw new IllegalArgumentException("ApprovalRequest needs a context name, got "
                    + Messages.quote(builder.contextName));
        }
        if (builder.permissions.isEmpty()) {
            throw new IllegalArgumentException("ApprovalRequest needs at least one permission; "
                    + "call permissions(...) on the builder");
        }
        this.id = builder.id != null ? builder.id : UUID.randomUUID().toString();
        this.contextName = builder.contextName;
        this.permissions = Collections.unmodifiableSet(builder.permissions.clone());
        this.argv = builder.argv;
        // An explicit subject wins, then the command line, then the checked path's virtual form.
        this.subject = builder.subject != null ? builder.subject
                : !argv.isEmpty() ? String.join(" ", argv) : builder.targetSubject;
        if (subject == null && builder.action == null) {
            throw new IllegalArgumentException("ApprovalRequest needs a subject: call subject(...), "
                    + "target(ResolvedPath), argv(...) or action(...) on the builder");
        }
        this.action = builder.action != null ? builder.action : action(permissions, subject);
        this.target = builder.target;
        this.details = truncated(builder.details);
        this.resolvedTargets = builder.resolvedTargets;
        this.contentDigest = builder.contentDigest;
        this.requestedAt = builder.requestedAt != null ? builder.requestedAt : Instant.now();
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
     * Renders an action as messages show it: the permissions in declaration order joined by {@code ", "},
     * a colon, a space and the subject, for example {@code "WRITE: /ws/a.txt"},
     * {@code "WRITE, DELETE: /ws/a.txt"} or {@code "EXECUTE: git status"}.
     *
     * @param permissions at least one permission
     * @param subject     the virtual path or command line, as the agent named it
     * @return the action text
     * @throws IllegalArgumentException if no permission is given
     */
    public static String action(Collection<Permission> permissions, String subject) {
        Objects.requireNonNull(permissions, "permissions");
        Objects.requireNonNull(subject, "subject");
        if (permissions.isEmpty()) {
            throw new IllegalArgumentException("An action needs at least one permission, subject "
                    + Messages.quote(subject));
        }
        StringJoiner names = new StringJoiner(", ", "", ": " + subject);
        for (Permission permission : EnumSet.copyOf(permissions)) {
            names.add(permission.name());
        }
        return names.toString();
    }

    /**
     * A random id, unique per request, that links the request's audit events and addresses it in
     * {@link PendingApprovals}.
     *
     * @return the id
     */
    public String id() {
        return id;
    }

    /**
     * The name of the security context that asks.
     *
     * @return the context name
     */
    public String contextName() {
        return contextName;
    }

    /**
     * The permissions the action needs approval for.
     *
     * @return an immutable, non-empty set
     */
    public Set<Permission> permissions() {
        return permissions;
    }

    /**
     * The action as messages quote it, for example {@code WRITE: /ws/a.txt} or {@code EXECUTE: git status}.
     *
     * @return the action
     */
    public String action() {
        return action;
    }

    /**
     * What the action touches as the agent named it: a virtual path or a command line.
     *
     * @return the subject, absent only when the builder was given an explicit action and nothing else
     */
    public Optional<String> subject() {
        return Optional.ofNullable(subject);
    }

    /**
     * The exact, canonical real path the action will use once approved.
     *
     * @return the target, absent for an action without a path (a command without a working directory)
     */
    public Optional<Path> target() {
        return Optional.ofNullable(target);
    }

    /**
     * The exact argument vector of a command, program first.
     *
     * @return an immutable list, empty for an action that runs no command
     */
    public List<String> argv() {
        return argv;
    }

    /**
     * What a human needs to decide besides the action, for example the diff of an edit. Never written to
     * the audit log.
     *
     * @return the details, at most {@value #MAX_DETAILS_LENGTH} characters plus a truncation marker
     */
    public Optional<String> details() {
        return Optional.ofNullable(details);
    }

    /**
     * What the action resolved to on the host besides {@link #target()}: for a command, its working directory
     * and every path argument, each as {@code "argument -> /canonical/real/path"} (for a link, the path it
     * pointed to when checked). A re-check after approval must find exactly these again.
     *
     * @return an immutable list, empty for an action without resolved arguments
     */
    public List<String> resolvedTargets() {
        return resolvedTargets;
    }

    /**
     * The SHA-256 digest (64 lower-case hex digits, see {@link dev.mero.core.path.ContentDigest}) of the complete new
     * content or edit the action writes: an approval covers this content and no other.
     *
     * @return the digest, absent for an action that writes no content
     */
    public Optional<String> contentDigest() {
        return Optional.ofNullable(contentDigest);
    }

    /**
     * When approval was requested.
     *
     * @return the time of the request
     */
    public Instant requestedAt() {
        return requestedAt;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ApprovalRequest other && id.equals(other.id) && contextName.equals(other.contextName)
                && permissions.equals(other.permissions) && action.equals(other.action)
                && Objects.equals(subject, other.subject) && Objects.equals(target, other.target)
                && argv.equals(other.argv) && Objects.equals(details, other.details)
                && resolvedTargets.equals(other.resolvedTargets) && Objects.equals(contentDigest, other.contentDigest)
                && requestedAt.equals(other.requestedAt);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "ApprovalRequest{id=" + id + ", context=" + Messages.quote(contextName)
                + ", action=" + Messages.quote(action) + "}";
    }

    private static String truncated(String details) {
        if (details == null || details.length() <= MAX_DETAILS_LENGTH) {
            return details;
        }
        int cut = MAX_DETAILS_LENGTH;
        if (Character.isHighSurrogate(details.charAt(cut - 1))) {
            cut--; // never split a surrogate pair
        }
        return details.substring(0, cut) + "\n... (details truncated: " + (details.length() - cut)
                + " more characters)";
    }

    /**
     * Builds an {@link ApprovalRequest}. Required: a context name, at least one permission, and a subject
     * (given directly, or through {@link #target(ResolvedPath)} or {@link #argv(List)}) or an explicit
     * action.
     */
    public static final class Builder {

        private String id;
        private String contextName;
        private EnumSet<Permission> permissions = EnumSet.noneOf(Permission.class);
        private String action;
        private String subject;
        private String targetSubject;
        private Path target;
        private List<String> argv = List.of();
        private String details;
        private List<String> resolvedTargets = List.of();
        private String contentDigest;
        private Instant requestedAt;

        private Builder() {
        }

        /**
         * Sets the request id (default: a random UUID). Only for callers that already have a unique id,
         * such as a tool-call id.
         *
         * @param id a non-blank id
         * @return this builder
         */
        public Builder id(String id) {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("Invalid approval request id " + Messages.quote(id));
            }
            this.id = id;
            return this;
        }

        /**
         * Sets the name of the security context that asks.
         *
         * @param contextName the context name
         * @return this builder
         */
        public Builder contextName(String contextName) {
            this.contextName = contextName;
            return this;
        }

        /**
         * Sets the permissions the action needs approval for; replaces any earlier call.
         *
         * @param permissions at least one permission
         * @return this builder
         */
        public Builder permissions(Permission... permissions) {
            return permissions(List.of(Objects.requireNonNull(permissions, "permissions")));
        }

        /**
         * Sets the permissions the action needs approval for; replaces any earlier call.
         *
         * @param permissions at least one permission
         * @return this builder
         */
        public Builder permissions(Collection<Permission> permissions) {
            Objects.requireNonNull(permissions, "permissions");
            EnumSet<Permission> set = EnumSet.noneOf(Permission.class);
            for (Permission permission : permissions) {
                set.add(Objects.requireNonNull(permission, "permission"));
            }
            this.permissions = set;
            return this;
        }

        /**
         * Sets the action text explicitly; by default it is {@link ApprovalRequest#action(Collection, String)}
         * of the permissions and the subject.
         *
         * @param action the action, for example {@code WRITE: /ws/a.txt}
         * @return this builder
         */
        public Builder action(String action) {
            if (action == null || action.isBlank()) {
                throw new IllegalArgumentException("Invalid approval action " + Messages.quote(action));
            }
            this.action = action;
            return this;
        }

        /**
         * Sets what the action touches as the agent named it: a virtual path or a command line.
         *
         * @param subject the subject
         * @return this builder
         */
        public Builder subject(String subject) {
            this.subject = Objects.requireNonNull(subject, "subject");
            return this;
        }

        /**
         * Sets the exact real path the action will use.
         *
         * @param target an absolute path, normally canonical
         * @return this builder
         * @throws IllegalArgumentException if the path is relative
         */
        public Builder target(Path target) {
            Objects.requireNonNull(target, "target");
            if (!target.isAbsolute()) {
                throw new IllegalArgumentException("Approval target " + Messages.quote(target.toString())
                        + " must be an absolute real path");
            }
            this.target = target;
            return this;
        }

        /**
         * Sets the target from a checked path: its canonical real path becomes the {@linkplain
         * ApprovalRequest#target() target}, and its virtual path the {@linkplain ApprovalRequest#subject()
         * subject} unless a subject or an argument vector is given (for a command, the target is its working
         * directory and the subject its command line).
         *
         * @param target a target a security context resolved
         * @return this builder
         */
        public Builder target(ResolvedPath target) {
            Objects.requireNonNull(target, "target");
            this.target = target.realPath();
            this.targetSubject = target.virtualPath();
            return this;
        }

        /**
         * Sets the exact argument vector of a command, program first. Unless a subject is set, the subject
         * is the arguments joined by single spaces.
         *
         * @param argv the arguments, none {@code null}
         * @return this builder
         */
        public Builder argv(List<String> argv) {
            Objects.requireNonNull(argv, "argv");
            for (String arg : argv) {
                Objects.requireNonNull(arg, "argv element");
            }
            this.argv = List.copyOf(argv);
            return this;
        }

        /**
         * Sets what a human needs to decide besides the action, for example a diff.
         *
         * @param details the details, may be {@code null}
         * @return this builder
         */
        public Builder details(String details) {
            this.details = details;
            return this;
        }

        /**
         * Sets what the action's arguments resolved to on the host (see {@link ApprovalRequest#resolvedTargets()});
         * replaces any earlier call.
         *
         * @param resolvedTargets entries such as {@code "notes.txt -> /srv/ws/notes.txt"}, none {@code null}
         * @return this builder
         */
        public Builder resolvedTargets(List<String> resolvedTargets) {
            Objects.requireNonNull(resolvedTargets, "resolvedTargets");
            resolvedTargets.forEach(target -> Objects.requireNonNull(target, "resolved target"));
            this.resolvedTargets = List.copyOf(resolvedTargets);
            return this;
        }

        /**
         * Sets the SHA-256 digest of the complete new content or edit the action writes.
         *
         * @param contentDigest 64 lower-case hex digits (see {@link dev.mero.core.path.ContentDigest}), or {@code null}
         * @return this builder
         * @throws IllegalArgumentException if the text is not such a digest
         */
        public Builder contentDigest(String contentDigest) {
            this.contentDigest = ContentDigest.requireDigestOrNull(contentDigest);
            return this;
        }

        /**
         * Sets when approval was requested (default: when the request is built).
         *
         * @param requestedAt the time
         * @return this builder
         */
        public Builder requestedAt(Instant requestedAt) {
            this.requestedAt = Objects.requireNonNull(requestedAt, "requestedAt");
            return this;
        }

        /**
         * Builds the request.
         *
         * @return the request
         * @throws IllegalArgumentException if the context name, the permissions or the subject is missing
         */
        public ApprovalRequest build() {
            return new ApprovalRequest(this);
        }
    }
}
