package dev.mero.core;

import dev.mero.core.message.Messages;

import dev.mero.core.command.CommandRule;
import dev.mero.core.command.guard.ArgumentGuard;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimiter;
import dev.mero.core.scope.Scope;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Builds a child {@link SecurityContext} for a worker agent that can only take away from its parent: fewer
 * entries, narrower permissions, more deny rules, more approval requirements, fewer scopes, lower limits.
 * Obtained from {@link SecurityContext#narrow(String)}; it starts as an exact copy of the parent, and keeps the
 * parent's protected paths whatever it is told (it may add more).
 *
 * <pre>{@code
 * SecurityContext worker = manager.narrow("worker_1")
 *         .paths("ws")                                  // drop every other mount
 *         .allow("ws", Permission.READ)                 // read-only inside it
 *         .denyCommand("git push")
 *         .scopes("files:*:read")
 *         .build();
 * }</pre>
 *
 * <p>Each request is recorded as given and validated in {@link #build()}: a request that would widen the
 * parent (a permission the parent's entry does not allow, a scope no parent grant includes, an allow rule the
 * parent does not have, a higher rate) fails there with an {@link IllegalArgumentException} that names the
 * value and the parent's limit. The child keeps the parent's mounts exactly as the parent resolved them (real
 * path and directory identity); nothing is resolved again, so a mount root that has changed since the parent was
 * built is refused in the child as in the parent. The child shares the parent's approval backend, audit log, retry budget and
 * command runner, and its guarded actions count against the parent's rate limits as well as its own.
 */
public final class NarrowingBuilder {

    private final SecurityContext parent;
    private final String childName;
    private List<String> keptSlugs;
    private final Map<String, EnumSet<Permission>> allows = new LinkedHashMap<>();
    private final Map<String, EnumSet<Permission>> denies = new LinkedHashMap<>();
    private final Map<String, EnumSet<Permission>> entryApprovals = new LinkedHashMap<>();
    private EnumSet<Permission> ceiling;
    private final EnumSet<Permission> approvalRequired = EnumSet.noneOf(Permission.class);
    private List<String> scopes;
    private RateLimit rateLimit;
    private List<String> keptAllowRules;
    private final List<String> extraDenyRules = new ArrayList<>();
    private final List<String> extraProtectedPaths = new ArrayList<>();

    NarrowingBuilder(SecurityContext parent, String childName) {
        this.parent = parent;
        this.childName = childName;
    }

    /**
     * Keeps only the entries mounted under these slugs, in the parent's order; the first kept entry becomes
     * the child's default mount.
     *
     * @param slugs slugs of the parent's entries
     * @return this builder
     */
    public NarrowingBuilder paths(String... slugs) {
        this.keptSlugs = List.of(Objects.requireNonNull(slugs, "slugs"));
        return this;
    }

    /**
     * Replaces what an entry allows; every permission must already be allowed by the parent's entry.
     *
     * @param slug        the entry's slug
     * @param permissions the permissions the child keeps there
     * @return this builder
     */
    public NarrowingBuilder allow(String slug, Permission... permissions) {
        allows.put(Objects.requireNonNull(slug, "slug"), set(permissions));
        return this;
    }

    /**
     * Adds permissions the child is refused inside an entry.
     *
     * @param slug        the entry's slug
     * @param permissions the permissions to deny
     * @return this builder
     */
    public NarrowingBuilder deny(String slug, Permission... permissions) {
        denies.computeIfAbsent(Objects.requireNonNull(slug, "slug"), s -> EnumSet.noneOf(Permission.class))
                .addAll(set(permissions));
        return this;
    }

    /**
     * Requires approval inside an entry for more permissions.
     *
     * @param slug        the entry's slug
     * @param permissions the permissions that need approval there
     * @return this builder
     */
    public NarrowingBuilder requireApproval(String slug, Permission... permissions) {
        entryApprovals.computeIfAbsent(Objects.requireNonNull(slug, "slug"), s -> EnumSet.noneOf(Permission.class))
                .addAll(set(permissions));
        return this;
    }

    /**
     * Lowers the ceiling; every permission must be within the parent's ceiling.
     *
     * @param permissions the child's ceiling
     * @return this builder
     */
    public NarrowingBuilder permissions(Permission... permissions) {
        this.ceiling = set(permissions);
        return this;
    }

    /**
     * Requires approval, anywhere in the child, for more permissions.
     *
     * @param permissions the permissions
     * @return this builder
     */
    public NarrowingBuilder requireApproval(Permission... permissions) {
        approvalRequired.addAll(set(permissions));
        return this;
    }

    /**
     * Replaces the granted scopes; each must be included in one of the parent's grants (any set narrows a
     * parent without scopes).
     *
     * @param grants the child's grants
     * @return this builder
     */
    public NarrowingBuilder scopes(String... grants) {
        this.scopes = List.of(Objects.requireNonNull(grants, "grants"));
        return this;
    }

    /**
     * Sets the child's own rate limit; it may not exceed the parent's rate or burst. The parent's limits
     * apply to the child as well.
     *
     * @param limit the child's limit
     * @return this builder
     */
    public NarrowingBuilder rateLimit(RateLimit limit) {
        this.rateLimit = Objects.requireNonNull(limit, "limit");
        return this;
    }

    /**
     * Keeps only these allow rules; each must be one of the parent's allow rules, word for word.
     *
     * @param rules the allow rules the child keeps
     * @return this builder
     */
    public NarrowingBuilder allowCommands(String... rules) {
        this.keptAllowRules = List.of(Objects.requireNonNull(rules, "rules"));
        return this;
    }

    /**
     * Adds a denied-command rule.
     *
     * @param rule the rule, as for {@link SecurityContext.Builder#denyCommand(String)}
     * @return this builder
     */
    public NarrowingBuilder denyCommand(String rule) {
        extraDenyRules.add(Objects.requireNonNull(rule, "rule"));
        return this;
    }

    /**
     * Protects more paths in the child, as {@link SecurityContext.Builder#protectedPaths(String...)}. The parent's
     * protected paths (its default set included, with the same exceptions) always apply to the child as well.
     *
     * @param globs the globs to add
     * @return this builder
     */
    public NarrowingBuilder protectedPaths(String... globs) {
        for (String glob : Objects.requireNonNull(globs, "globs")) {
            extraProtectedPaths.add(Objects.requireNonNull(glob, "glob"));
        }
        return this;
    }

    /**
     * Validates every request against the parent and builds the child.
     *
     * @return the child context
     * @throws IllegalArgumentException if a request would widen the parent, names an unknown entry, or is
     *                                  malformed
     */
    public SecurityContext build() {
        SecurityContext.Builder child = SecurityContext.builder().name(childName).parentLineage(parent.lineage());
        Map<String, PathEntry> parentEntries = new LinkedHashMap<>();
        parent.paths().forEach(entry -> parentEntries.put(entry.slug(), entry));
        for (String slug : List.copyOf(union(allows.keySet(), denies.keySet(), entryApprovals.keySet()))) {
            requireEntry(parentEntries, slug);
        }
        List<String> slugs = keptSlugs != null ? keptSlugs : List.copyOf(parentEntries.keySet());
        for (String slug : slugs) {
            requireEntry(parentEntries, slug);
        }
        List<PathEntry> kept = new ArrayList<>();
        for (PathEntry entry : parent.paths()) {
            if (slugs.contains(entry.slug())) {
                kept.add(entry);
                child.path(narrowed(entry));
            }
        }
        for (PathEntry entry : parent.paths()) {
            if (!slugs.contains(entry.slug()) && insideAny(entry, kept)) {
                child.path(closed(entry));
            }
        }

        EnumSet<Permission> childCeiling = ceiling != null ? ceiling : copy(parent.permissions());
        requireWithin(childCeiling, parent.permissions(), "the ceiling", "has");
        child.permissions(childCeiling.toArray(new Permission[0]));

        EnumSet<Permission> approvals = copy(parent.approvalRequired());
        approvals.addAll(approvalRequired);
        child.requireApproval(approvals.toArray(new Permission[0]));
        parent.approval().ifPresent(child::approval);
        parent.retryBudget().ifPresent(child::retryBudget);
        parent.rateLimitStore().ifPresent(child::rateLimitStore);
        parent.replayStore().ifPresent(child::replayStore);
        child.auditLog(parent.auditLog()).commandRunner(parent.commandRunner())
                .weakerPathOpens(parent.weakerPathOpens());
        // exactly the parent's protected paths, never fewer, then the child's own
        child.defaultProtectedPaths(false).inheritProtectedPaths(parent.protection()).protectedPaths(extraProtectedPaths);

        narrowScopes(child);
        narrowRateLimit(child);
        narrowCommands(child);
        return child.build();
    }

    private PathEntry narrowed(PathEntry entry) {
        EnumSet<Permission> allowed = allows.getOrDefault(entry.slug(), copy(entry.allowed()));
        requireWithin(allowed, entry.allowed(), "entry " + Messages.quote(entry.mountPoint()), "allows");
        EnumSet<Permission> denied = copy(entry.denied());
        denied.addAll(denies.getOrDefault(entry.slug(), EnumSet.noneOf(Permission.class)));
        EnumSet<Permission> approval = copy(entry.approvalRequired());
        approval.addAll(entryApprovals.getOrDefault(entry.slug(), EnumSet.noneOf(Permission.class)));
        // the deny rules and approvals of a parent entry around this one applied here; they stay when it is dropped
        for (PathEntry outer : parent.paths()) {
            if (outer != entry && entry.realPath().startsWith(outer.realPath())) {
                denied.addAll(outer.denied());
                approval.addAll(outer.approvalRequired());
            }
        }
        // the directory the parent resolved (real path and identity), never resolved again
        return entry.withPermissions(allowed, denied, approval);
    }

    /**
     * A dropped entry inside a kept one stays mounted with nothing allowed: without it, the kept entry would
     * decide the paths below it, which the dropped entry restricted in the parent.
     */
    private static PathEntry closed(PathEntry entry) {
        return entry.withPermissions(EnumSet.noneOf(Permission.class), EnumSet.allOf(Permission.class),
                EnumSet.noneOf(Permission.class));
    }

    private static boolean insideAny(PathEntry entry, List<PathEntry> kept) {
        return kept.stream().anyMatch(outer -> entry.realPath().startsWith(outer.realPath()));
    }

    private void narrowScopes(SecurityContext.Builder child) {
        if (scopes == null) {
            if (parent.scopes().isRestricted()) {
                child.scopes(parent.scopes().grants().stream().map(Scope::toString).toList());
            }
            return;
        }
        for (String grant : scopes) {
            Scope wanted = Scope.parse(grant);
            boolean included = !parent.scopes().isRestricted()
                    || parent.scopes().grants().stream().anyMatch(held -> held.includes(wanted));
            if (!included) {
                throw widening("scope " + Messages.quote(grant) + " is not included in any of the parent's grants "
                        + parent.scopes().grants().stream().map(s -> Messages.quote(s.toString())).toList());
            }
        }
        child.scopes(scopes);
    }

    private void narrowRateLimit(SecurityContext.Builder child) {
        child.inheritRateLimiters(parent.rateLimiters());
        if (rateLimit == null) {
            return;
        }
        for (RateLimiter limiter : parent.rateLimiters()) {
            RateLimit held = limiter.limit();
            BigInteger childRate = BigInteger.valueOf(rateLimit.permits()).multiply(BigInteger.valueOf(held.per().toNanos()));
            BigInteger heldRate = BigInteger.valueOf(held.permits()).multiply(BigInteger.valueOf(rateLimit.per().toNanos()));
            if (childRate.compareTo(heldRate) > 0 || rateLimit.burst() > held.burst()) {
                throw widening("rate limit " + rateLimit.describe() + " (burst " + rateLimit.burst()
                        + ") exceeds the parent's " + held.describe() + " (burst " + held.burst() + ")");
            }
        }
        child.rateLimit(rateLimit);
    }

    private void narrowCommands(SecurityContext.Builder child) {
        var policy = parent.commandPolicy();
        child.commandSearchPath(policy.searchPath()).builtInArgumentGuards(policy.builtInGuards())
                .commandSandbox(policy.sandbox());
        for (ArgumentGuard guard : policy.customGuards()) {
            child.argumentGuard(guard);
        }
        List<String> parentRules = policy.allowRules().stream().map(CommandRule::text).toList();
        List<String> rules = keptAllowRules != null ? keptAllowRules : parentRules;
        for (String rule : rules) {
            String normalized = CommandRule.parse(rule).text();
            if (!parentRules.contains(normalized)) {
                throw widening("allow rule " + Messages.quote(rule) + " is not one of the parent's allow rules "
                        + parentRules.stream().map(Messages::quote).toList());
            }
            child.allowCommand(normalized);
        }
        for (CommandRule rule : policy.denyRules()) {
            child.denyCommand(rule.text());
        }
        extraDenyRules.forEach(child::denyCommand);
    }

    private void requireEntry(Map<String, PathEntry> entries, String slug) {
        if (!entries.containsKey(slug)) {
            StringJoiner mounted = new StringJoiner(", ");
            entries.keySet().forEach(s -> mounted.add(Messages.quote("/" + s)));
            throw new IllegalArgumentException("Cannot narrow context " + Messages.quote(parent.name()) + " into "
                    + Messages.quote(childName) + ": it has no entry " + Messages.quote("/" + slug)
                    + " (entries: " + (mounted.length() == 0 ? "none" : mounted) + ")");
        }
    }

    private void requireWithin(EnumSet<Permission> wanted, Set<Permission> held, String what, String verb) {
        EnumSet<Permission> extra = copy(wanted);
        extra.removeAll(held);
        if (!extra.isEmpty()) {
            throw widening(what + " " + verb + " " + Messages.permissions(held) + " in the parent; "
                    + Messages.permissions(extra) + " cannot be added");
        }
    }

    private IllegalArgumentException widening(String detail) {
        return new IllegalArgumentException("Cannot widen context " + Messages.quote(parent.name()) + " into "
                + Messages.quote(childName) + ": " + detail + ". A narrowed context can only take away.");
    }

    @SafeVarargs
    private static List<String> union(Collection<String>... sets) {
        List<String> all = new ArrayList<>();
        for (Collection<String> set : sets) {
            all.addAll(set);
        }
        return all;
    }

    private static EnumSet<Permission> set(Permission... permissions) {
        EnumSet<Permission> set = EnumSet.noneOf(Permission.class);
        for (Permission permission : Objects.requireNonNull(permissions, "permissions")) {
            set.add(Objects.requireNonNull(permission, "permission"));
        }
        return set;
    }

    private static EnumSet<Permission> copy(Set<Permission> permissions) {
        EnumSet<Permission> set = EnumSet.noneOf(Permission.class);
        set.addAll(permissions);
        return set;
    }
}
