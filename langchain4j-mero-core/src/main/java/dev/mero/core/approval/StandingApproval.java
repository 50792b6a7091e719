package dev.mero.core.approval;

import dev.mero.core.Permission;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.message.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Standing rules a person grants for a while, such as "approve this caller's writes under {@code /ws/docs/**}
 * for the next 30 minutes", consulted before the wrapped backend asks a person; itself an
 * {@link ApprovalBackend}.
 *
 * <pre>{@code
 * StandingApproval standing = StandingApproval.wrap(pendingApprovals);
 * SecurityContext context = SecurityContext.builder()...approval(standing).build();
 *
 * // from the approval inbox, after a person chose it:
 * standing.grant("writer", Set.of(Permission.WRITE), "/ws/docs/**", Duration.ofMinutes(30), "alice");
 * }</pre>
 *
 * <p>A rule names one context (the caller's context, as {@link ApprovalRequest#contextName()} names it),
 * the permissions it covers and a virtual path pattern: {@code /slug/dir/**} (everything below
 * {@code /slug/dir}, compared by path component, not the directory itself) or one exact path. A request
 * matches when its context is the rule's, every permission it asks for is one the rule covers, it runs no
 * command, and its subject is a normalised virtual path the pattern covers; a request with {@code .} or
 * {@code ..} components, doubled slashes or control characters never matches and goes to the wrapped backend.
 * A matching request is approved without asking; anything else is the wrapped backend's to decide. A rule
 * stops applying at its expiry (checked at every request, so an expired rule approves nothing even before it
 * is cleaned up) or when it is {@link #revoke revoked}.
 *
 * <p>Granting and revoking are recorded in the audit log (type {@link AuditEventType#RULE_GRANTED} with
 * the rule's pattern as its subject and who granted it and until when as its detail, and
 * {@link AuditEventType#RULE_REVOKED} for a revocation); every request a rule approves is still recorded by
 * the {@link ApprovalGate} as granted, and logged with the rule's id. Rules live in this object's memory: on
 * several application instances each instance has its own rules, so a rule granted through one instance's
 * inbox approves only that instance's requests (the others keep asking). At most
 * {@linkplain Builder#maxRules(int) maxRules} rules are active at once. Thread-safe.
 */
public final class StandingApproval implements ApprovalBackend {

    /** Default bound on active rules. */
    public static final int DEFAULT_MAX_RULES = 100;
    /** The longest a rule may last. */
    public static final Duration MAX_DURATION = Duration.ofHours(24);

    private static final Logger LOG = LoggerFactory.getLogger(StandingApproval.class);
    private static final String SUBTREE = "/**";

    private final ApprovalBackend delegate;
    private final AuditLog auditLog;
    private final Clock clock;
    private final int maxRules;
    private final Map<String, Rule> rules = new ConcurrentHashMap<>();

    private StandingApproval(Builder builder) {
        if (builder.delegate == null) {
            throw new IllegalArgumentException("StandingApproval needs a backend to ask; call delegate(...) on the builder");
        }
        this.delegate = builder.delegate;
        this.auditLog = builder.auditLog != null ? builder.auditLog : AuditLog.create();
        this.clock = builder.clock;
        this.maxRules = builder.maxRules;
    }

    /**
     * Wraps a backend, with the default audit log, clock and bound.
     *
     * @param delegate the backend asked for every request no rule approves
     * @return the standing approval
     */
    public static StandingApproval wrap(ApprovalBackend delegate) {
        return builder().delegate(delegate).build();
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
     * Approves a request an active rule covers; asks the wrapped backend otherwise.
     *
     * @param request what is to be approved
     * @return {@link ApprovalDecision#APPROVED} for a covered request, else the wrapped backend's decision
     * @throws Exception whatever the wrapped backend throws
     */
    @Override
    public ApprovalDecision decide(ApprovalRequest request) throws Exception {
        Objects.requireNonNull(request, "request");
        Optional<Rule> rule = covering(request);
        if (rule.isPresent()) {
            LOG.info("Request {} ({}) approved by standing rule {} of {}", request.id(),
                    Messages.quote(request.action()), rule.get().id(), Messages.quote(rule.get().grantedBy()));
            return ApprovalDecision.APPROVED;
        }
        return delegate.decide(request);
    }

    /**
     * The active rule that covers a request, if any, without asking anyone.
     *
     * @param request the request
     * @return the rule, absent when no active rule covers it
     */
    public Optional<Rule> covering(ApprovalRequest request) {
        Objects.requireNonNull(request, "request");
        Instant now = clock.instant();
        for (Rule rule : rules.values()) {
            if (rule.activeAt(now) && rule.covers(request)) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }

    /**
     * Grants a rule and records it in the audit log.
     *
     * @param contextName the context whose requests it approves
     * @param permissions the permissions it covers, at least one; EXECUTE is refused (commands are never covered)
     * @param pattern     {@code /slug/dir/**} or an exact virtual path
     * @param duration    how long it applies, positive and at most {@link #MAX_DURATION}
     * @param grantedBy   who granted it, for the audit log
     * @return the rule
     * @throws IllegalArgumentException if an argument is malformed or {@code maxRules} rules are already active
     */
    public Rule grant(String contextName, Collection<Permission> permissions, String pattern, Duration duration,
                      String grantedBy) {
        if (contextName == null || contextName.isBlank()) {
            throw new IllegalArgumentException("A standing rule needs a context name, got " + Messages.quote(contextName));
        }
        Objects.requireNonNull(permissions, "permissions");
        if (permissions.isEmpty() || permissions.contains(Permission.EXECUTE)) {
            throw new IllegalArgumentException("A standing rule covers path permissions (READ, WRITE, DELETE), got "
                    + Messages.permissions(permissions));
        }
        requirePattern(pattern);
        Timeouts.requirePositive(duration, "A standing rule's duration");
        if (duration.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("A standing rule lasts at most " + MAX_DURATION + ", got " + duration);
        }
        if (grantedBy == null || grantedBy.isBlank()) {
            throw new IllegalArgumentException("A standing rule needs who granted it, got " + Messages.quote(grantedBy));
        }
        Instant now = clock.instant();
        Rule rule = new Rule(UUID.randomUUID().toString(), contextName, EnumSet.copyOf(permissions), pattern,
                grantedBy, now, now.plus(duration));
        synchronized (rules) {
            rules.values().removeIf(existing -> !existing.activeAt(now));
            if (rules.size() >= maxRules) {
                throw new IllegalArgumentException("There are already " + maxRules
                        + " active standing rules; revoke one or wait until one expires");
            }
            rules.put(rule.id(), rule);
        }
        auditLog.record(event(AuditEventType.RULE_GRANTED, rule, "standing rule " + rule.id() + " granted by "
                + Messages.quote(grantedBy) + " until " + rule.expiresAt()));
        LOG.info("Standing rule {} granted by {}: {} for context {} until {}", rule.id(), Messages.quote(grantedBy),
                Messages.quote(rule.action()), Messages.quote(contextName), rule.expiresAt());
        return rule;
    }

    /**
     * Revokes an active rule and records it in the audit log.
     *
     * @param ruleId    the rule's id
     * @param revokedBy who revoked it, for the audit log
     * @return {@code true} if the rule was active and is now revoked; {@code false} if it was unknown or expired
     */
    public boolean revoke(String ruleId, String revokedBy) {
        Objects.requireNonNull(ruleId, "ruleId");
        Objects.requireNonNull(revokedBy, "revokedBy");
        Rule rule = rules.remove(ruleId);
        if (rule == null || !rule.activeAt(clock.instant())) {
            return false;
        }
        auditLog.record(event(AuditEventType.RULE_REVOKED, rule, "standing rule " + rule.id() + " revoked by "
                + Messages.quote(revokedBy)));
        return true;
    }

    /**
     * The rules active now, the soonest to expire first.
     *
     * @return a snapshot
     */
    public List<Rule> rules() {
        Instant now = clock.instant();
        List<Rule> active = new ArrayList<>();
        for (Rule rule : rules.values()) {
            if (rule.activeAt(now)) {
                active.add(rule);
            }
        }
        active.sort((a, b) -> a.expiresAt().compareTo(b.expiresAt()));
        return List.copyOf(active);
    }

    @Override
    public String toString() {
        return "StandingApproval{delegate=" + delegate + ", rules=" + rules.size() + "}";
    }

    private static AuditEvent event(AuditEventType type, Rule rule, String detail) {
        return AuditEvent.builder().type(type).contextName(rule.contextName()).action(rule.action())
                .subject(rule.pattern()).permissions(rule.permissions()).requestId(rule.id()).detail(detail).build();
    }

    /**
     * Checks a rule's pattern: {@code /slug/dir/**} or an exact normalised virtual path.
     *
     * @param pattern the pattern
     * @return the pattern
     * @throws IllegalArgumentException if it is neither
     */
    public static String requirePattern(String pattern) {
        String path = pattern != null && pattern.endsWith(SUBTREE) ? pattern.substring(0, pattern.length() - SUBTREE.length())
                : pattern;
        if (path == null || !isNormalised(path) || path.contains("*")) {
            throw new IllegalArgumentException("A standing rule's pattern is '/slug/dir/**' or an exact virtual path "
                    + "such as '/ws/docs/a.md', got " + Messages.quote(pattern));
        }
        return pattern;
    }

    /** An absolute virtual path with at least one name, no empty, "." or ".." name and no control character. */
    static boolean isNormalised(String path) {
        if (path.length() < 2 || path.charAt(0) != '/' || path.endsWith("/")) {
            return false;
        }
        for (String name : path.substring(1).split("/", -1)) {
            if (name.isEmpty() || name.equals(".") || name.equals("..")) {
                return false;
            }
        }
        return path.chars().noneMatch(c -> c < 0x20 || c == 0x7f);
    }

    /**
     * One standing rule: who it is for, what it covers, who granted it and until when. Immutable.
     *
     * @param id          a random id, also the request id of its audit events
     * @param contextName the context whose requests it approves
     * @param permissions the permissions it covers
     * @param pattern     {@code /slug/dir/**} or an exact virtual path
     * @param grantedBy   who granted it
     * @param grantedAt   when it was granted
     * @param expiresAt   when it stops applying
     */
    public record Rule(String id, String contextName, Set<Permission> permissions, String pattern, String grantedBy,
                       Instant grantedAt, Instant expiresAt) {

        /** Copies the permissions, so the rule stays immutable. */
        public Rule {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(contextName, "contextName");
            permissions = Set.copyOf(permissions);
            requirePattern(pattern);
            Objects.requireNonNull(grantedBy, "grantedBy");
            Objects.requireNonNull(grantedAt, "grantedAt");
            Objects.requireNonNull(expiresAt, "expiresAt");
        }

        /**
         * The rule as an action, for example {@code WRITE: /ws/docs/**}.
         *
         * @return the action text
         */
        public String action() {
            return ApprovalRequest.action(permissions, pattern);
        }

        /**
         * Whether the rule applies at an instant: granted and not yet expired.
         *
         * @param now the instant
         * @return whether it applies
         */
        public boolean activeAt(Instant now) {
            return !now.isBefore(grantedAt) && now.isBefore(expiresAt);
        }

        /**
         * Whether the rule covers a request, whatever the time: same context, permissions within the rule's, no
         * command, and a normalised subject the pattern covers.
         *
         * @param request the request
         * @return whether it is covered
         */
        public boolean covers(ApprovalRequest request) {
            if (!request.contextName().equals(contextName) || !permissions.containsAll(request.permissions())
                    || !request.argv().isEmpty()) {
                return false;
            }
            String subject = request.subject().orElse(null);
            if (subject == null || !isNormalised(subject)) {
                return false;
            }
            if (pattern.endsWith(SUBTREE)) {
                return subject.startsWith(pattern.substring(0, pattern.length() - SUBTREE.length() + 1));
            }
            return subject.equals(pattern);
        }
    }

    /** Builds a {@link StandingApproval}; the wrapped backend is required. */
    public static final class Builder {

        private ApprovalBackend delegate;
        private AuditLog auditLog;
        private Clock clock = Clock.systemUTC();
        private int maxRules = DEFAULT_MAX_RULES;

        private Builder() {
        }

        /**
         * Sets the backend asked for every request no rule approves.
         *
         * @param delegate the backend
         * @return this builder
         */
        public Builder delegate(ApprovalBackend delegate) {
            this.delegate = Objects.requireNonNull(delegate, "delegate");
            return this;
        }

        /**
         * Sets the audit log that records granted and revoked rules (default {@link AuditLog#create()}); use the
         * context's own.
         *
         * @param auditLog the audit log
         * @return this builder
         */
        public Builder auditLog(AuditLog auditLog) {
            this.auditLog = Objects.requireNonNull(auditLog, "auditLog");
            return this;
        }

        /**
         * Sets the clock rules are granted and expire by (default the system clock in UTC).
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Bounds how many rules may be active at once (default {@value StandingApproval#DEFAULT_MAX_RULES}).
         *
         * @param maxRules at least 1
         * @return this builder
         */
        public Builder maxRules(int maxRules) {
            if (maxRules < 1) {
                throw new IllegalArgumentException("StandingApproval maxRules must be at least 1, got " + maxRules);
            }
            this.maxRules = maxRules;
            return this;
        }

        /**
         * Builds the standing approval.
         *
         * @return the standing approval
         */
        public StandingApproval build() {
            return new StandingApproval(this);
        }
    }
}
