package dev.mero.core.policy;

import dev.mero.core.InvalidPolicyException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.SecurityContext;
import dev.mero.core.message.Messages;
import dev.mero.core.path.ProtectedPaths;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.mero.core.approval.ApprovalBackend;
import dev.mero.core.approval.ApprovalBackends;
import dev.mero.core.approval.ConsoleApproval;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.audit.JsonLinesAuditSink;
import dev.mero.core.command.CommandSandbox;
import dev.mero.core.command.SandboxLimits;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RetryBudget;
import dev.mero.core.store.PolicyStore;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.UnaryOperator;

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
 *     limits:                         # what one run may consume (see SandboxLimits; these are the defaults)
 *       processes: 512                # processes and threads at once (cgroup pids)
 *       memory: 2GiB                  # memory, /tmp included (cgroup memory)
 *       file_size: 1GiB               # largest file written (RLIMIT_FSIZE)
 *       tmp_size: 512MiB              # size of the private /tmp
 *       cpu_seconds: 600              # CPU time of each process (RLIMIT_CPU)
 *       best_effort: false            # true: run even if a limit set here cannot be enforced
 * approval:
 *   require: [EXECUTE]
 *   backend: console                  # deny | approve | console | store; absent: fail-safe deny
 *   timeout: PT2M                     # console and store only
 * scopes: ["files:*:read", "commands:command:execute"]
 * protected_paths: ["**&#47;secrets/**", "*.sqlite"] # globs no tool or command may read, write or delete
 * protected_paths_defaults: true      # false: drop the default set (.env, keys, .ssh, credentials)
 * limits:
 *   rate: {permits: 60, per: PT1M, burst: 10}
 *   retry_budget: {max_failures: 3, window: PT10M}
 * audit:
 *   jsonl: audit/mero.jsonl           # JSON Lines audit file (a regular file), appended to
 *   fail_closed: true                 # deny what the audit file cannot record (default false)
 * store:                              # state shared by several application instances
 *   url: jdbc:postgresql://db:5432/agents
 *   user: mero
 *   password_env: MERO_DB_PASSWORD    # the password comes from this environment variable, never inline
 *   migrate: true                     # apply the schema migrations on start (default false)
 *   timeout: PT5S                     # bound on every wait for the store
 * </pre>
 * A {@code store} makes the rate limit, the retry budget and replayed tool calls shared through it, adds an
 * audit sink writing one row per decision to it, and offers {@code approval.backend: store} (pending
 * approvals any instance can decide). The store is opened by a {@link dev.mero.core.store.PolicyStoreProvider}
 * on the class path (the {@code langchain4j-mero-postgres} module for {@code jdbc:postgresql:} URLs); without
 * one, the policy is refused.
 * Accepted spellings: {@code allowed}, {@code allowed_permissions} (or {@code allowed_permission}) for
 * {@code allow}; {@code denied}, {@code denied_permissions} (or {@code denied_permission}) for {@code deny};
 * {@code approval_required} for an entry's {@code require_approval}; top-level {@code allowed_commands},
 * {@code denied_commands} and {@code require_approval} next to the sections above. Permission names are read
 * case-insensitively. Two spellings of one setting in the same place are refused.
 *
 * <p>Unknown keys, duplicate keys, wrong types, bad permission names, missing directories and malformed rules
 * all fail with an {@link InvalidPolicyException} naming the file, the field and the value: a broken policy
 * never becomes a permissive one. So do content after the first JSON value or YAML document (a second document,
 * a stray brace), YAML anchors and aliases, an empty {@code path} or {@code jsonl}, a policy file or audit file
 * that is not a regular file (a FIFO, a device, a directory: refused before it is opened), and files larger than
 * {@value #MAX_FILE_BYTES} bytes (counted in bytes actually read).
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
        return load(file, System::getenv);
    }

    /**
     * Loads a policy file into a context, reading environment variables (a store's {@code password_env})
     * through the given function, for example from a secret manager.
     *
     * @param file        a {@code .yaml}, {@code .yml} or {@code .json} file
     * @param environment maps a variable's name to its value, {@code null} when unset
     * @return the context
     * @throws InvalidPolicyException if the file cannot be read or is not a valid policy
     */
    public static SecurityContext load(Path file, UnaryOperator<String> environment) {
        SecurityContext.Builder builder = read(file, environment);
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
        return read(file, System::getenv);
    }

    /**
     * Reads a policy file into a builder, reading environment variables (a store's {@code password_env})
     * through the given function.
     *
     * @param file        a {@code .yaml}, {@code .yml} or {@code .json} file
     * @param environment maps a variable's name to its value, {@code null} when unset
     * @return a builder holding the policy
     * @throws InvalidPolicyException if the file cannot be read or is not a valid policy
     * @throws PolicyStoreUnavailableException if the file names a store that cannot be reached
     */
    public static SecurityContext.Builder read(Path file, UnaryOperator<String> environment) {
        java.util.Objects.requireNonNull(environment, "environment");
        PolicyNode root = new PolicyNode(file, "", parse(file)).object(
                "name", "permissions", "paths", "commands", "approval", "scopes", "limits", "audit",
                "allowed_commands", "denied_commands", "require_approval", "store", "protected_paths",
                "protected_paths_defaults", "server", "weaker_path_opens");
        Path base = file.toAbsolutePath().getParent();
        if (root.has("server")) {
            ServerSection.read(root.get("server"), base); // checked here, so that no binding runs a broken one
        }
        SecurityContext.Builder builder = SecurityContext.builder();
        apply(root, "name", node -> builder.name(node.text()));
        String contextName = root.has("name") ? root.get("name").text() : "default";
        PolicyStore store = root.has("store") ? StoreSection.open(root.get("store"), environment) : null;
        if (store != null) {
            builder.rateLimitStore(store.rateLimits()).replayStore(store.replays());
        }
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
            approval(root.get("approval"), builder, store, contextName);
        }
        apply(root, "scopes", node -> builder.scopes(node.texts()));
        apply(root, "protected_paths_defaults", node -> builder.defaultProtectedPaths(node.bool()));
        apply(root, "weaker_path_opens", node -> builder.weakerPathOpens(node.bool()));
        rules(root, "protected_paths", glob -> builder.protectedPaths(ProtectedPaths.none().plus(List.of(glob), false)
                .patterns()));
        if (root.has("limits")) {
            limits(root.get("limits"), builder, store, contextName);
        }
        AuditLog.Builder auditLog = AuditLog.builder();
        if (root.has("audit")) {
            PolicyNode audit = root.get("audit").object("jsonl", "fail_closed");
            apply(audit, "fail_closed", node -> auditLog.failClosed(node.bool()));
            apply(audit, "jsonl", node -> auditLog.sink(openSink(node,
                    base.resolve(nonEmpty(node, "the JSON Lines file to append to")))));
        }
        if (store != null) {
            auditLog.sink(store.auditSink());
        }
        if (root.has("audit") || store != null) {
            builder.auditLog(auditLog.build());
        }
        return builder;
    }

    /**
     * Reads a policy file's {@code server:} section: the credentials and origins a remote server of the policy
     * accepts ({@link ServerSettings}). The rest of the file is not checked here; {@link #read(Path)} checks it.
     *
     * @param file a {@code .yaml}, {@code .yml} or {@code .json} file
     * @return the settings, or empty if the file has no {@code server:} section
     * @throws InvalidPolicyException if the file cannot be read or its {@code server:} section is invalid
     */
    public static java.util.Optional<ServerSettings> serverSettings(Path file) {
        PolicyNode root = new PolicyNode(file, "", parse(file));
        if (!root.has("server")) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(ServerSection.read(root.get("server"), file.toAbsolutePath().getParent()));
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
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        byte[] bytes = readBounded(file);
        String format = mapper.getFactory() instanceof YAMLFactory ? "YAML" : "JSON";
        try {
            requireOneValueWithoutAliases(file, mapper, bytes);
            JsonNode node = mapper.readTree(bytes);
            if (node == null || node.isMissingNode() || node.isNull()) {
                throw new InvalidPolicyException(file, null, "the file is empty", null);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new InvalidPolicyException(file, null, "is not valid " + format + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new InvalidPolicyException(file, null, "cannot be parsed (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    /**
     * Refuses what a parser would otherwise read as something else: content after the first JSON value or YAML
     * document (a stray brace or a second document would silently drop every later key), and YAML anchors and
     * aliases (an alias would be read as its anchor's name).
     */
    private static void requireOneValueWithoutAliases(Path file, ObjectMapper mapper, byte[] bytes)
            throws IOException {
        try (JsonParser parser = mapper.getFactory().createParser(bytes)) {
            int values = 0;
            int depth = 0;
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (parser instanceof YAMLParser yaml && (yaml.isCurrentAlias() || yaml.getObjectId() != null)) {
                    throw new InvalidPolicyException(file, null, "uses a YAML anchor or alias near line "
                            + parser.currentLocation().getLineNr() + "; anchors (&name) and aliases (*name) are "
                            + "not accepted in a policy: write every value out", null);
                }
                boolean opens = token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY;
                if (depth == 0 && (opens || token.isScalarValue()) && ++values > 1) {
                    throw new InvalidPolicyException(file, null, "has content after its first "
                            + (parser instanceof YAMLParser ? "document" : "value") + " (near line "
                            + parser.currentLocation().getLineNr() + "); a policy is exactly one mapping, "
                            + "with nothing after it", null);
                }
                if (opens) {
                    depth++;
                } else if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) {
                    depth--;
                }
            }
        }
    }

    /**
     * Reads at most {@value #MAX_FILE_BYTES} bytes of a regular file. What the path names (after its links) is
     * checked without following a link before anything is opened, so a FIFO, a device or a directory is refused
     * instead of blocking or flooding the loader; the opened file must still be that regular file; and the size
     * is bounded by the bytes actually read, never by what the file system reports.
     */
    private static byte[] readBounded(Path file) {
        try {
            Path real = file.toRealPath();
            Object identity = regularFile(file, real);
            try (SeekableByteChannel channel = Files.newByteChannel(real, StandardOpenOption.READ,
                    LinkOption.NOFOLLOW_LINKS)) {
                if (!Objects.equals(regularFile(file, real), identity)) {
                    throw new InvalidPolicyException(file, null, "changed while it was being opened", null);
                }
                channel.position(0); // a pipe cannot seek
                // up to the end of the file or one byte past the limit
                byte[] content = Channels.newInputStream(channel).readNBytes(MAX_FILE_BYTES + 1);
                if (content.length > MAX_FILE_BYTES) {
                    throw new InvalidPolicyException(file, null, "the file is larger than " + MAX_FILE_BYTES
                            + " bytes", null);
                }
                return content;
            }
        } catch (IOException e) {
            throw new InvalidPolicyException(file, null, "cannot be read (" + e.getClass().getSimpleName() + ")", e);
        }
    }

    /** The identity of the regular file {@code real}, checked without following a link. */
    private static Object regularFile(Path file, Path real) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile()) {
            throw new InvalidPolicyException(file, null, "is not a regular file (it is a " + (attributes.isDirectory()
                    ? "directory" : "FIFO, socket or device") + "); a policy is read from a regular file only", null);
        }
        return attributes.fileKey() != null ? attributes.fileKey() : real;
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
        apply(entry, "path", node -> builder.path(base.resolve(nonEmpty(node, "the directory to mount"))));
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
            PolicyNode sandbox = commands.get("sandbox").object("enabled", "network", "bubblewrap", "limits");
            CommandSandbox.Builder settings = CommandSandbox.builder();
            apply(sandbox, "enabled", node -> settings.enabled(node.bool()));
            apply(sandbox, "network", node -> settings.network(node.bool()));
            apply(sandbox, "bubblewrap", node -> settings.bubblewrap(base.resolve(node.text())));
            if (sandbox.has("limits")) {
                settings.limits(sandboxLimits(sandbox.get("limits")));
            }
            builder.commandSandbox(settings.build());
        }
    }

    private static SandboxLimits sandboxLimits(PolicyNode node) {
        PolicyNode limits = node.object("processes", "memory", "file_size", "tmp_size", "cpu_seconds", "best_effort");
        SandboxLimits.Builder settings = SandboxLimits.builder();
        apply(limits, "processes", value -> settings.processes(value.integer(1, 1_000_000)));
        apply(limits, "memory", value -> settings.memoryBytes(value.bytes()));
        apply(limits, "file_size", value -> settings.fileSizeBytes(value.bytes()));
        apply(limits, "tmp_size", value -> settings.tmpSizeBytes(value.bytes()));
        apply(limits, "cpu_seconds", value -> settings.cpuSeconds(value.integer(1, 1_000_000)));
        apply(limits, "best_effort", value -> settings.bestEffort(value.bool()));
        return settings.build();
    }

    private static void rules(PolicyNode parent, String key, java.util.function.Consumer<String> add) {
        if (parent.has(key)) {
            for (PolicyNode rule : parent.get(key).list()) {
                apply(rule, node -> add.accept(node.text()));
            }
        }
    }

    private static void approval(PolicyNode approval, SecurityContext.Builder builder, PolicyStore store,
                                 String contextName) {
        approval.object("require", "backend", "timeout");
        apply(approval, "require", node -> builder.requireApproval(node.permissions()));
        if (!approval.has("backend")) {
            if (approval.has("timeout")) {
                throw approval.get("timeout").fail("a timeout needs backend: console or store");
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
            case "store" -> {
                if (store == null) {
                    throw backend.fail("backend: store needs a 'store' section naming the shared store");
                }
                chosen = store.approvals(approval.has("timeout") ? approval.get("timeout").duration()
                        : dev.mero.core.approval.CallbackApproval.DEFAULT_TIMEOUT, contextName);
            }
            default -> throw backend.fail(Messages.quote(kind) + " is not an approval backend (expected deny, "
                    + "approve, console or store; an application callback is added in code)");
        }
        if (!kind.equals("console") && !kind.equals("store") && approval.has("timeout")) {
            throw approval.get("timeout").fail("a timeout applies to backend: console or store only");
        }
        builder.approval(chosen);
    }

    private static void limits(PolicyNode limits, SecurityContext.Builder builder, PolicyStore store,
                               String contextName) {
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
            if (store != null) {
                retry.store(store.retryBudgets(), contextName);
            }
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

    /** A text that names a file: an empty one would silently mean the policy file's own directory. */
    private static String nonEmpty(PolicyNode node, String what) {
        String text = node.text();
        if (text.isBlank()) {
            throw node.fail("is empty; give " + what);
        }
        return text;
    }

    /** Applies a setter to an optional key, turning the library's refusal into an error naming the field. */
    private static void apply(PolicyNode parent, String key, java.util.function.Consumer<PolicyNode> setter) {
        if (parent.has(key)) {
            apply(parent.get(key), setter);
        }
    }

    static void apply(PolicyNode node, java.util.function.Consumer<PolicyNode> setter) {
        try {
            setter.accept(node);
        } catch (InvalidPolicyException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw node.fail(e);
        }
    }
}
