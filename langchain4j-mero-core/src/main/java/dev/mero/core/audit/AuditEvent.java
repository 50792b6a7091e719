package dev.mero.core.audit;

import dev.mero.core.path.ContentDigest;
import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;
import dev.mero.core.Permission;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;

/**
 * One security decision, as it is written to the audit log.
 *
 * <pre>{@code
 * AuditEvent event = AuditEvent.builder()
 *         .type(AuditEventType.DENIED)
 *         .contextName("worker_1")
 *         .action("DELETE: /ws/notes.txt")
 *         .subject("/ws/notes.txt")
 *         .permissions(Set.of(Permission.DELETE))
 *         .failure(exception)                 // reason = message, errorCode = exception.errorCode()
 *         .build();
 * }</pre>
 *
 * <p>An event deliberately has no field for file contents, command environments, approval details (such
 * as the diff a human was shown) or secrets: what is not in the event cannot leak into a log; new content is
 * represented by its {@link #contentDigest() SHA-256 digest} only. Text fields are capped at
 * {@value #MAX_FIELD_LENGTH} characters, well above the longest input any parser of the library accepts (a
 * command line of 8,192 characters, even with every character escaped), so that one event stays one bounded
 * log line; a longer value is cut and marked with the number of characters cut and the SHA-256 digest of the
 * whole value, so the record still identifies exactly what it was about.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class AuditEvent {

    /** The longest text a field keeps; longer text is cut and marked. */
    public static final int MAX_FIELD_LENGTH = 64 * 1024;

    /** The most {@link #targets()} an event keeps. */
    public static final int MAX_TARGETS = 512;

    private final AuditEventType type;
    private final Instant timestamp;
    private final String contextName;
    private final String action;
    private final String subject;
    private final Set<Permission> permissions;
    private final String reason;
    private final String errorCode;
    private final String requestId;
    private final List<String> targets;
    private final String contentDigest;
    private final String detail;

    private AuditEvent(Builder builder) {
        if (builder.type == null) {
            throw new IllegalArgumentException("AuditEvent needs a type; call type(...) on the builder");
        }
        this.type = builder.type;
        this.timestamp = builder.timestamp != null ? builder.timestamp : Instant.now();
        this.contextName = bounded(builder.contextName);
        this.action = bounded(builder.action);
        this.subject = bounded(builder.subject);
        this.permissions = Collections.unmodifiableSet(builder.permissions.clone());
        this.reason = bounded(builder.reason);
        this.errorCode = bounded(builder.errorCode);
        this.requestId = bounded(builder.requestId);
        List<String> kept = new ArrayList<>();
        for (String target : builder.targets) {
            if (kept.size() == MAX_TARGETS) {
                kept.add("... (" + (builder.targets.size() - MAX_TARGETS) + " more targets)");
                break;
            }
            kept.add(bounded(target));
        }
        this.targets = List.copyOf(kept);
        this.contentDigest = bounded(builder.contentDigest);
        this.detail = bounded(builder.detail);
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
     * What the event records.
     *
     * @return the type
     */
    public AuditEventType type() {
        return type;
    }

    /**
     * The coarse outcome of {@link #type()}: {@code allowed}, {@code denied}, {@code pending} or
     * {@code failed}.
     *
     * @return the outcome
     */
    public String outcome() {
        return type.outcome();
    }

    /**
     * When the decision was taken.
     *
     * @return the timestamp
     */
    public Instant timestamp() {
        return timestamp;
    }

    /**
     * The name of the security context that took the decision.
     *
     * @return the context name, if known
     */
    public Optional<String> contextName() {
        return Optional.ofNullable(contextName);
    }

    /**
     * The action, for example {@code WRITE: /ws/a.txt}, {@code EXECUTE: git status} or a tool operation.
     *
     * @return the action, if known
     */
    public Optional<String> action() {
        return Optional.ofNullable(action);
    }

    /**
     * What the action touches as the agent named it: a virtual path or a command line.
     *
     * @return the subject, if known
     */
    public Optional<String> subject() {
        return Optional.ofNullable(subject);
    }

    /**
     * The permissions the decision was about.
     *
     * @return an immutable set, possibly empty
     */
    public Set<Permission> permissions() {
        return permissions;
    }

    /**
     * Why the action was refused or failed: the message the model was given.
     *
     * @return the reason, absent for allowed and pending events
     */
    public Optional<String> reason() {
        return Optional.ofNullable(reason);
    }

    /**
     * The stable error code of a refusal or failure, for example {@code approval_denied}.
     *
     * @return the error code, if any
     */
    public Optional<String> errorCode() {
        return Optional.ofNullable(errorCode);
    }

    /**
     * The id of the approval request this event belongs to, linking requested, granted and refused events.
     *
     * @return the request id, if the event is about an approval
     */
    public Optional<String> requestId() {
        return Optional.ofNullable(requestId);
    }

    /**
     * What the action resolved to on the host: for a path, its canonical real path; for a command, the working
     * directory and the canonical real path of every path argument (what a link pointed to), each as
     * {@code "argument -> /real/path"}. Host paths belong here, never in a model-facing message.
     *
     * @return an immutable list, empty when the event is not about resolved targets
     */
    public List<String> targets() {
        return targets;
    }

    /**
     * The SHA-256 digest (lower-case hex) of the complete new content or edit the action writes, when it
     * writes one; the content itself is never recorded.
     *
     * @return the digest, if the action writes content
     */
    public Optional<String> contentDigest() {
        return Optional.ofNullable(contentDigest);
    }

    /**
     * Facts for operators that the model was never shown, such as the host path a symbolic link led to
     * (see {@link MeroToolsException#auditDetail()}).
     *
     * @return the detail, if any
     */
    public Optional<String> detail() {
        return Optional.ofNullable(detail);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AuditEvent other && type == other.type && timestamp.equals(other.timestamp)
                && Objects.equals(contextName, other.contextName) && Objects.equals(action, other.action)
                && Objects.equals(subject, other.subject) && permissions.equals(other.permissions)
                && Objects.equals(reason, other.reason) && Objects.equals(errorCode, other.errorCode)
                && Objects.equals(requestId, other.requestId) && targets.equals(other.targets)
                && Objects.equals(contentDigest, other.contentDigest) && Objects.equals(detail, other.detail);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, timestamp, contextName, action, subject, permissions, reason, errorCode,
                requestId, targets, contentDigest, detail);
    }

    /**
     * Renders the event on one line, every text value quoted with control characters escaped, as the
     * SLF4J audit logger writes it.
     *
     * @return the one-line rendering
     */
    @Override
    public String toString() {
        StringBuilder line = new StringBuilder(type.name());
        append(line, "context", contextName);
        append(line, "action", action);
        append(line, "subject", subject);
        if (!permissions.isEmpty()) {
            line.append(" permissions=").append(Messages.permissions(permissions));
        }
        append(line, "error_code", errorCode);
        append(line, "reason", reason);
        append(line, "request_id", requestId);
        if (!targets.isEmpty()) {
            StringJoiner joined = new StringJoiner(", ", " targets=[", "]");
            targets.forEach(target -> joined.add(Messages.quote(target)));
            line.append(joined);
        }
        append(line, "content_sha256", contentDigest);
        append(line, "detail", detail);
        return line.toString();
    }

    private static void append(StringBuilder line, String key, String value) {
        if (value != null) {
            line.append(' ').append(key).append('=').append(Messages.quote(value));
        }
    }

    private static String bounded(String value) {
        if (value == null || value.length() <= MAX_FIELD_LENGTH) {
            return value;
        }
        int cut = MAX_FIELD_LENGTH;
        if (Character.isHighSurrogate(value.charAt(cut - 1))) {
            cut--; // never split a surrogate pair
        }
        return value.substring(0, cut) + "... (" + (value.length() - cut) + " more characters; sha256 of the whole: "
                + ContentDigest.of(value) + ")";
    }

    /** Builds an {@link AuditEvent}; {@link #type(AuditEventType)} is required. */
    public static final class Builder {

        private AuditEventType type;
        private Instant timestamp;
        private String contextName;
        private String action;
        private String subject;
        private EnumSet<Permission> permissions = EnumSet.noneOf(Permission.class);
        private String reason;
        private String errorCode;
        private String requestId;
        private List<String> targets = List.of();
        private String contentDigest;
        private String detail;

        private Builder() {
        }

        /**
         * Sets what the event records.
         *
         * @param type the type
         * @return this builder
         */
        public Builder type(AuditEventType type) {
            this.type = Objects.requireNonNull(type, "type");
            return this;
        }

        /**
         * Sets when the decision was taken (default: when the event is built).
         *
         * @param timestamp the timestamp
         * @return this builder
         */
        public Builder timestamp(Instant timestamp) {
            this.timestamp = Objects.requireNonNull(timestamp, "timestamp");
            return this;
        }

        /**
         * Sets the name of the deciding security context.
         *
         * @param contextName the context name, may be {@code null}
         * @return this builder
         */
        public Builder contextName(String contextName) {
            this.contextName = contextName;
            return this;
        }

        /**
         * Sets the action, for example {@code WRITE: /ws/a.txt}.
         *
         * @param action the action, may be {@code null}
         * @return this builder
         */
        public Builder action(String action) {
            this.action = action;
            return this;
        }

        /**
         * Sets what the action touches as the agent named it: a virtual path or a command line. Never pass
         * file contents or environment values.
         *
         * @param subject the subject, may be {@code null}
         * @return this builder
         */
        public Builder subject(String subject) {
            this.subject = subject;
            return this;
        }

        /**
         * Sets the permissions the decision was about; replaces any earlier call.
         *
         * @param permissions the permissions
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
         * Sets why the action was refused or failed.
         *
         * @param reason the model-facing message, may be {@code null}
         * @return this builder
         */
        public Builder reason(String reason) {
            this.reason = reason;
            return this;
        }

        /**
         * Sets the stable error code of a refusal or failure.
         *
         * @param errorCode the error code, may be {@code null}
         * @return this builder
         */
        public Builder errorCode(String errorCode) {
            this.errorCode = errorCode;
            return this;
        }

        /**
         * Takes the reason, the error code and the operator-facing {@link MeroToolsException#auditDetail() detail}
         * from a caught exception (never its stack trace or cause).
         *
         * @param failure the exception
         * @return this builder
         */
        public Builder failure(MeroToolsException failure) {
            Objects.requireNonNull(failure, "failure");
            this.reason = failure.getMessage();
            this.errorCode = failure.errorCode();
            this.detail = failure.auditDetail().orElse(null);
            return this;
        }

        /**
         * Sets facts for operators that the model was never shown, such as a host path.
         *
         * @param detail the detail, may be {@code null}
         * @return this builder
         */
        public Builder detail(String detail) {
            this.detail = detail;
            return this;
        }

        /**
         * Sets the id of the approval request the event belongs to.
         *
         * @param requestId the request id, may be {@code null}
         * @return this builder
         */
        public Builder requestId(String requestId) {
            this.requestId = requestId;
            return this;
        }

        /**
         * Sets what the action resolved to on the host (see {@link AuditEvent#targets()}); replaces any earlier
         * call.
         *
         * @param targets the resolved targets, none {@code null}
         * @return this builder
         */
        public Builder targets(List<String> targets) {
            Objects.requireNonNull(targets, "targets");
            targets.forEach(target -> Objects.requireNonNull(target, "target"));
            this.targets = List.copyOf(targets);
            return this;
        }

        /**
         * Sets the SHA-256 digest of the complete new content or edit the action writes.
         *
         * @param contentDigest lower-case hex, may be {@code null}
         * @return this builder
         */
        public Builder contentDigest(String contentDigest) {
            this.contentDigest = contentDigest;
            return this;
        }

        /**
         * Builds the event.
         *
         * @return the event
         * @throws IllegalArgumentException if no type was set
         */
        public AuditEvent build() {
            return new AuditEvent(this);
        }
    }
}
