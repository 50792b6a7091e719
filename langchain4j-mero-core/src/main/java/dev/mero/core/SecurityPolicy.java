package dev.mero.core;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.mero.core.approval.ApprovalBackend;
import dev.mero.core.approval.ApprovalBackends;
import dev.mero.core.approval.ConsoleApproval;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.audit.JsonLinesAuditSink;
import dev.mero.core.command.CommandSandbox;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RetryBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads a security policy from a YAML or JSON file into a {@link SecurityContext}.
 *
 * <pre>{@code
 * SecurityContext context = SecurityPolicy.load(Path.of("mero-policy.yaml"));
 * // or, to add what a file cannot express (an application approval callback):
 * SecurityContext context = SecurityPolicy.read(Path.of("mero-policy.yaml")).approval(myBackend).build();
 * }</pre>
 *
 * <p>The format (every key optional except each path's {@code path} and {@code slug}; relative
 * directories resolve against the policy file's own directory):
 * <pre>
 * name: worker_1                      # context name, used in every message
 * permissions: [READ, WRITE, EXECUTE] # ceiling over every entry (default: all four)
 * paths:                              # the first entry is the default mount
 *   - path: workspace
 *     slug: ws
 *     allow: [READ, WRITE, EXECUTE]
 *     deny: [DELETE]
 *     require_approval: [WRITE]
 * commands:
 *   allow: ["git status", "ls"]       # allowlist mode: no allow rule, no command
 *   deny: ["git push"]
 *   search_path: /usr/local/bin:/usr/bin:/bin
 *   sandbox:                          # how the kernel isolates commands (see CommandSandbox)
 *     enabled: true                   # false: opt out, run commands unsandboxed (logs a warning)
 *     network: false                  # true: commands may use the network
 *     bubblewrap: /usr/bin/bwrap      # the bwrap executable
 * approval:
 *   require: [EXECUTE]
 *   backend: console                  # deny | approve | console; absent: fail-safe deny
 *   timeout: PT2M                     # console only
 * scopes: ["files:*:read", "commands:command:execute"]
 * limits:
 *   rate: {permits: 60, per: PT1M, burst: 10}
 *   retry_budget: {max_failures: 3, window: PT10M}
 * audit:
 *   jsonl: audit/mero.jsonl           # JSON Lines audit file, appended to
 * </pre>
 * Accepted spellings: {@code allowed}, {@code allowed_permissions} (or {@code allowed_permission}) for
 * {@code allow}; {@code denied}, {@code denied_permissions} (or {@code denied_permission}) for {@code deny};
 * {@code approval_required} for an entry's {@code require_approval}; top-level {@code allowed_commands},
 * {@code denied_commands} and {@code require_approval} next to the sections above. Permission names are read
 * case-insensitively. Two spellings of one setting in the same place are refused.
 *
 * <p>Unknown keys, duplicate keys, wrong types, bad permission names, missing directories and malformed rules
 * all fail with an {@link InvalidPolicyException} naming the file, the field and the value: a broken policy
 * never becomes a permissive one. Files larger than {@value #MAX_FILE_BYTES} bytes are refused.
 */
public final class SecurityPolicy {

    /** The largest policy file read. */
    public static final int MAX_FILE_BYTES = 1 << 20;

    private SecurityPolicy() {
    }

    /**
     * Loads a policy file into a context.
     *
     * @param file a {@code .yaml}, {@code .yml} or {@code .json} file
     * @return the context
     * @throws InvalidPolicyException if the file cannot be read or is not a valid policy
     */
    public static SecurityContext load(Path file) {
        SecurityContext.Builder builder = read(file);
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw new InvalidPolicyException(file, null, e.getMessage(), e);
        }
    }

    /**
     * Reads a policy file into a builder, so that an application can add what a file cannot express (an
     * approval callback, an extra audit sink) before building.
     *
     * @param file a {@code .yaml}, {@code .yml} or {@code .json} file
     * @return a builder holding the policy
     * @throws InvalidPolicyException if the file cannot be read or is not a valid policy
     */
    public static SecurityContext.Builder read(Path file) {
        PolicyNode root = new PolicyNode(file, "", parse(file)).object(
                "name", "permissions", "paths", "commands", "approval", "scopes", "limits", "audit",
                "allowed_commands", "denied_commands", "require_approval");
        Path base = file.toAbsolutePath().getParent();
        SecurityContext.Builder builder = SecurityContext.builder();
        apply(root, "name", node -> builder.name(node.text()));
        apply(root, "permissions", node -> builder.permissions(node.permissions()));
        if (root.has("paths")) {
            for (PolicyNode entry : root.get("paths").list()) {
                builder.path(pathEntry(entry, base));
            }
        }
        if (root.has("commands")) {
            commands(root.get("commands"), builder, base);
        }
        rules(root, "allowed_commands", builder::allowCommand);
        rules(root, "denied_commands", builder::denyCommand);
        apply(root, "require_approval", node -> builder.requireApproval(node.permissions()));
        if (root.has("approval")) {
            approval(root.get("approval"), builder);
        }
        apply(root, "scopes", node -> builder.scopes(node.texts()));
        if (root.has("limits")) {
            limits(root.get("limits"), builder);
        }
        if (root.has("audit")) {
            PolicyNode audit = root.get("audit").object("jsonl");
            apply(audit, "jsonl", node -> builder.auditLog(AuditLog.builder()
                    .sink(openSink(node, base.resolve(node.text()))).build()));
        }
        return builder;
    }

    private static JsonNode parse(Path file) {
        String name = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
        ObjectMapper mapper;
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            mapper = new ObjectMapper(new YAMLFactory());
        } else if (name.endsWith(".json")) {
            mapper = new ObjectMapper();
        } else {
            throw new InvalidPolicyException(file, null, "unknown format: name the file *.yaml, *.yml or *.json", null);
        }
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        byte[] bytes;
        try {
            if (Files.size(file) > MAX_FILE_BYTES) {
                throw new InvalidPolicyException(file, null, "the file is larger than " + MAX_FILE_BYTES + " bytes", null);
            }
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new InvalidPolicyException(file, null, "cannot be read (" + e.getClass().getSimpleName() + ")", e);
        }
        try {
            JsonNode node = mapper.readTree(bytes);
            if (node == null || node.isMissingNode() || node.isNull()) {
                throw new InvalidPolicyException(file, null, "the file is empty", null);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new InvalidPolicyException(file, null, "is not valid " + (mapper.getFactory() instanceof YAMLFactory
                    ? "YAML" : "JSON") + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new InvalidPolicyException(file, null, "cannot be parsed (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    private static PathEntry pathEntry(PolicyNode entry, Path base) {
        entry.object("path", "slug", "allow", "allowed", "allowed_permissions", "allowed_permission",
                "deny", "denied", "denied_permissions", "denied_permission", "require_approval", "approval_required");
        if (!entry.has("path")) {
            throw entry.get("path").fail("every path entry needs a 'path'");
        }
        if (!entry.has("slug")) {
            throw entry.get("slug").fail("every path entry needs a 'slug'");
        }
        PathEntry.Builder builder = PathEntry.builder();
        apply(entry, "path", node -> builder.path(base.resolve(node.text())));
        apply(entry, "slug", node -> builder.slug(node.text()));
        apply(entry, entry.oneOf("allow", "allowed", "allowed_permissions", "allowed_permission"),
                node -> builder.allow(node.permissions()));
        apply(entry, entry.oneOf("deny", "denied", "denied_permissions", "denied_permission"),
                node -> builder.deny(node.permissions()));
        apply(entry, entry.oneOf("require_approval", "approval_required"),
                node -> builder.requireApproval(node.permissions()));
        try {
            return builder.build();
        } catch (IllegalArgumentException e) {
            throw entry.fail(e);
        }
    }

    private static void commands(PolicyNode commands, SecurityContext.Builder builder, Path base) {
        commands.object("allow", "deny", "search_path", "sandbox");
        rules(commands, "allow", builder::allowCommand);
        rules(commands, "deny", builder::denyCommand);
        apply(commands, "search_path", node -> builder.commandSearchPath(node.text()));
        if (commands.has("sandbox")) {
            PolicyNode sandbox = commands.get("sandbox").object("enabled", "network", "bubblewrap");
            CommandSandbox.Builder settings = CommandSandbox.builder();
            apply(sandbox, "enabled", node -> settings.enabled(node.bool()));
            apply(sandbox, "network", node -> settings.network(node.bool()));
            apply(sandbox, "bubblewrap", node -> settings.bubblewrap(base.resolve(node.text())));
            builder.commandSandbox(settings.build());
        }
    }

    private static void rules(PolicyNode parent, String key, java.util.function.Consumer<String> add) {
        if (parent.has(key)) {
            for (PolicyNode rule : parent.get(key).list()) {
                apply(rule, node -> add.accept(node.text()));
            }
        }
    }

    private static void approval(PolicyNode approval, SecurityContext.Builder builder) {
        approval.object("require", "backend", "timeout");
        apply(approval, "require", node -> builder.requireApproval(node.permissions()));
        if (!approval.has("backend")) {
            if (approval.has("timeout")) {
                throw approval.get("timeout").fail("a timeout needs backend: console");
            }
            return;
        }
        PolicyNode backend = approval.get("backend");
        String kind = backend.text();
        ApprovalBackend chosen;
        switch (kind) {
            case "deny" -> chosen = ApprovalBackends.alwaysDeny();
            case "approve" -> chosen = ApprovalBackends.alwaysApprove();
            case "console" -> {
                ConsoleApproval.Builder console = ConsoleApproval.builder();
                apply(approval, "timeout", node -> console.timeout(node.duration()));
                chosen = console.build();
            }
            default -> throw backend.fail(Messages.quote(kind) + " is not an approval backend (expected deny, "
                    + "approve or console; an application callback is added in code)");
        }
        if (!kind.equals("console") && approval.has("timeout")) {
            throw approval.get("timeout").fail("a timeout applies to backend: console only");
        }
        builder.approval(chosen);
    }

    private static void limits(PolicyNode limits, SecurityContext.Builder builder) {
        limits.object("rate", "retry_budget");
        if (limits.has("rate")) {
            PolicyNode rate = limits.get("rate").object("permits", "per", "burst");
            if (!rate.has("permits") || !rate.has("per")) {
                throw rate.fail("a rate limit needs 'permits' and 'per', e.g. {permits: 60, per: PT1M}");
            }
            int permits = rate.get("permits").integer(1, 1_000_000);
            RateLimit[] limit = {null};
            apply(rate, "per", node -> limit[0] = RateLimit.of(permits, node.duration()));
            apply(rate, "burst", node -> limit[0] = limit[0].withBurst(node.integer(1, 1_000_000)));
            builder.rateLimit(limit[0]);
        }
        if (limits.has("retry_budget")) {
            PolicyNode budget = limits.get("retry_budget").object("max_failures", "window");
            RetryBudget.Builder retry = RetryBudget.builder();
            apply(budget, "max_failures", node -> retry.maxFailures(node.integer(1, 1000)));
            apply(budget, "window", node -> retry.window(node.duration()));
            builder.retryBudget(retry.build());
        }
    }

    private static JsonLinesAuditSink openSink(PolicyNode node, Path file) {
        try {
            return JsonLinesAuditSink.open(file);
        } catch (IOException e) {
            throw node.fail("the audit file " + Messages.quote(file.toString()) + " cannot be opened ("
                    + e.getClass().getSimpleName() + ")");
        }
    }

    /** Applies a setter to an optional key, turning the library's refusal into an error naming the field. */
    private static void apply(PolicyNode parent, String key, java.util.function.Consumer<PolicyNode> setter) {
        if (parent.has(key)) {
            apply(parent.get(key), setter);
        }
    }

    private static void apply(PolicyNode node, java.util.function.Consumer<PolicyNode> setter) {
        try {
            setter.accept(node);
        } catch (InvalidPolicyException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw node.fail(e);
        }
    }
}
