package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidInputException;
import dev.mero.core.message.Messages;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.PermissionDeniedException;
import dev.mero.core.path.PathResolver;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.command.guard.ArgumentGuard;
import dev.mero.core.command.guard.ArgumentGuards;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Decides which command lines a context may run: an allowlist with deny rules on top, a fixed program search
 * path, and the hardening an allowlist needs to mean anything.
 *
 * <pre>{@code
 * SecurityContext context = SecurityContext.builder()
 *         .name("worker_1")
 *         .path(PathEntry.of("/srv/repo", "repo", Permission.READ, Permission.EXECUTE))
 *         .allowCommand("git status")
 *         .allowCommand("git log")
 *         .allowCommand("rm")
 *         .denyCommand("rm -rf")
 *         .build();
 * CheckedCommand command = context.checkCommand("git log --oneline -5", "/repo");
 * }</pre>
 *
 * <p>A command passes these steps in order; the first that fails throws, and nothing is ever run here:
 * <ol>
 *   <li>the line is split by {@link CommandLineParser}, which refuses everything a shell would interpret;</li>
 *   <li>the program must be a bare name, found as an executable file on the context's
 *       {@link Builder#searchPath(String) search path}, or an absolute path that an allow rule names exactly;
 *       {@code ./cat}, {@code sub/cat} and {@code ../x} are refused whatever the rules say;</li>
 *   <li>deny rules win: a matching deny rule refuses the command (see {@link CommandRule} for how generously a
 *       deny rule matches);</li>
 *   <li>a program that runs other programs or code (a shell, an interpreter, {@code env}, {@code xargs},
 *       {@code timeout}, {@code sudo}, {@code ssh}, ...; by the name used and by the real file a symlink leads
 *       to, so {@code sh -> dash} counts) runs only when the matching allow rule itself names such a program.
 *       Its payload never satisfies a rule of its own: allowing {@code git} never allows {@code env git}.
 *       When such a program is allowed, deny rules and argument guards also apply to every program name in
 *       its arguments, and a second wrapper in the arguments beyond the rule's tokens is refused;</li>
 *   <li>an allow rule must match as a token prefix (allowlist mode: no allow rule, no command);</li>
 *   <li>the executable must not lie inside an entry that grants WRITE, where the agent could have changed it;</li>
 *   <li>{@link ArgumentGuard argument guards} (the {@link ArgumentGuards built-in ones} unless turned off, then
 *       the added ones) refuse code-executing and file-writing options of allowed programs;</li>
 *   <li>for {@link #check(PathResolver, String, String) a check with a working directory}: the directory
 *       needs EXECUTE;</li>
 *   <li>every argument that names a path must name one inside an entry that grants READ, resolved as the
 *       program will resolve it (see {@link PathArguments}): {@code cat /etc/passwd} stays denied with
 *       {@code cat} allowed. Relative paths resolve against the working directory, or, without one, against
 *       the context's first (default) entry like the file tools' paths. Inside the sandbox an absolute
 *       argument names what the sandbox shows there ({@code /ws/notes.txt}); without it, a host path.</li>
 * </ol>
 *
 * <p>A checked command carries the context's mounts and {@link #sandbox() sandbox settings}; the runner starts
 * it inside that sandbox, which enforces with the kernel what these checks explain. With the sandbox
 * required, a context that mounts an entry under the name of a system directory ({@code /usr}, {@code /etc},
 * {@code /tmp}, ...) can run no command.
 *
 * <p>Refusals are {@link CommandDeniedException}s whose message starts with {@code Command '...'} and says
 * what to do instead (a path argument included); the seed's two messages are used word for word for deny and
 * allowlist decisions. An empty, over-long or unterminated line is an {@link InvalidInputException}; a
 * working directory without EXECUTE is a {@link PermissionDeniedException} or
 * {@link dev.mero.core.PathAccessDeniedException}.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class CommandPolicy {

    private final List<CommandRule> allowRules;
    private final List<CommandRule> denyRules;
    private final ProgramLocator locator;
    private final boolean builtInGuards;
    private final List<ArgumentGuard> guards;
    private final List<ArgumentGuard> customGuards;
    private final CommandSandbox sandbox;

    private CommandPolicy(Builder builder) {
        this.allowRules = List.copyOf(builder.allowRules);
        this.denyRules = List.copyOf(builder.denyRules);
        this.locator = builder.locator;
        this.builtInGuards = builder.builtInGuards;
        List<ArgumentGuard> all = new ArrayList<>();
        if (builtInGuards) {
            all.addAll(ArgumentGuards.builtIns());
        }
        all.addAll(builder.guards);
        this.guards = List.copyOf(all);
        this.customGuards = List.copyOf(builder.guards);
        this.sandbox = builder.sandbox;
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
     * The allow rules, in the order they were added.
     *
     * @return an immutable list, possibly empty (then every command is denied)
     */
    public List<CommandRule> allowRules() {
        return allowRules;
    }

    /**
     * The deny rules, in the order they were added.
     *
     * @return an immutable list
     */
    public List<CommandRule> denyRules() {
        return denyRules;
    }

    /**
     * The colon-separated directories bare program names are looked up in.
     *
     * @return the search path
     */
    public String searchPath() {
        return locator.text();
    }

    /**
     * The argument guards added to the built-in ones, in the order they were added.
     *
     * @return an immutable list
     */
    public List<ArgumentGuard> customGuards() {
        return customGuards;
    }

    /**
     * How the context's commands are isolated (see {@link CommandSandbox}).
     *
     * @return the sandbox settings; {@link CommandSandbox#required()} unless configured
     */
    public CommandSandbox sandbox() {
        return sandbox;
    }

    /**
     * Whether the built-in argument guards are on.
     *
     * @return {@code true} unless turned off
     */
    public boolean builtInGuards() {
        return builtInGuards;
    }

    /**
     * Checks a command on its own, without a working directory: relative path arguments resolve against the
     * context's first entry.
     *
     * @param resolver    the context's paths: its name, entries, ceiling and path checks
     * @param commandLine the command line
     * @return the checked command, without a working directory
     * @throws CommandDeniedException if the policy refuses the command
     * @throws InvalidInputException  if the line is empty, too long or malformed
     */
    public CheckedCommand check(PathResolver resolver, String commandLine) {
        Objects.requireNonNull(resolver, "resolver");
        List<PathEntry> entries = resolver.entries();
        return check(resolver, commandLine, false, null, entries.isEmpty() ? null : entries.get(0).realPath());
    }

    /**
     * Checks a command and the working directory it is to run in, which needs EXECUTE.
     *
     * @param resolver         the context's paths: its name, entries, ceiling and path checks
     * @param commandLine      the command line
     * @param workingDirectory the working directory as the agent names it ({@code /slug/dir}, relative to the
     *                         default entry, or a host path inside an entry); {@code null} or blank for the
     *                         first entry that grants EXECUTE
     * @return the checked command with its resolved working directory
     * @throws CommandDeniedException    if the policy refuses the command
     * @throws PermissionDeniedException if the working directory lacks EXECUTE, or no entry grants it
     * @throws InvalidInputException     if the line is malformed or the working directory is not a directory
     */
    public CheckedCommand check(PathResolver resolver, String commandLine, String workingDirectory) {
        Objects.requireNonNull(resolver, "resolver");
        return check(resolver, commandLine, true, workingDirectory, null);
    }

    private CheckedCommand check(PathResolver resolver, String line, boolean withWorkingDirectory,
                                 String workingDirectoryText, Path defaultBase) {
        List<String> argv = CommandLineParser.parse(line);
        String program = argv.get(0);
        if (ProgramName.of(program) == ProgramName.RELATIVE) {
            throw relativeProgram(resolver, line, program);
        }
        Optional<ProgramLocator.Located> located = locator.locate(program);
        Set<String> names = names(program, located);
        refuseDenied(resolver, line, argv, 0, names);
        boolean wrapper = isWrapper(program, located);
        if (wrapper) {
            for (int i = 1; i < argv.size(); i++) {
                refuseDenied(resolver, line, argv, i, names(argv.get(i), payloadProgram(argv.get(i))));
            }
        }
        CommandRule rule = allowRule(argv);
        if (wrapper && (rule == null || !WrapperPrograms.isWrapper(rule.programName()))) {
            throw unnamedWrapper(line, program, located);
        }
        if (rule == null) {
            throw new CommandDeniedException("Command " + Messages.quote(line) + " does not match any allowed-command "
                    + "rule in context " + Messages.quote(resolver.contextName()) + " (allowlist mode: default-deny).");
        }
        ProgramLocator.Located executable = located.orElseThrow(() -> notFound(resolver, line, program));
        refuseWritableExecutable(resolver, line, executable);
        if (wrapper) {
            refuseNestedWrapper(line, argv, rule);
        }
        applyGuards(line, argv, names, wrapper);
        ResolvedPath workingDirectory = null;
        Path base = defaultBase;
        if (withWorkingDirectory) {
            workingDirectory = workingDirectory(resolver, workingDirectoryText);
            base = workingDirectory.realPath();
        }
        SandboxView view = SandboxView.of(resolver.entries(), resolver.ceiling()).protecting(resolver::protectedPattern);
        if (sandbox.enabled()) {
            refuseSystemMountPoints(resolver, line, view);
        }
        UnaryOperator<String> hostPathOf = sandbox.enabled() ? view::hostPath : UnaryOperator.identity();
        List<ResolvedPath> pathArguments = new PathArguments(MountedPaths.of(resolver), line, base, names,
                ModifyingPrograms.pathPermissions(names, argv), hostPathOf).check(argv);
        return new CheckedCommand(line, argv, executable.executable(), executable.real(), rule, workingDirectory,
                pathArguments, sandbox, view, sandbox.enabled() ? environment(view) : environment(resolver.entries()));
    }

    /** A mount named like a system directory would hide what every program needs to start. */
    private static void refuseSystemMountPoints(PathResolver resolver, String line, SandboxView view) {
        for (String name : view.topLevelNames()) {
            if (Bubblewrap.SYSTEM_NAMES.contains(name)) {
                throw new CommandDeniedException("Command " + Messages.quote(line) + " cannot run in context "
                        + Messages.quote(resolver.contextName()) + ": its mount " + Messages.quote("/" + name) + " has the "
                        + "name of a system directory that the command sandbox needs. No command can run until the "
                        + "operator gives that PathEntry another slug.");
            }
        }
    }

    /**
     * Variables that keep git inside the mounts of a command run without the sandbox: git never searches a
     * ceiling directory from below it, so the parent of every entry's real directory is one (a repository at
     * an entry's root is still found, none above it), and discovery never crosses a file-system boundary.
     */
    private static Map<String, String> environment(List<PathEntry> entries) {
        Set<String> ceilings = new LinkedHashSet<>();
        for (PathEntry entry : entries) {
            Path parent = entry.realPath().getParent();
            ceilings.add((parent == null ? entry.realPath() : parent).toString());
        }
        return gitEnvironment(ceilings);
    }

    /**
     * The same variables inside the sandbox, where a program sees each mount at its virtual mount point: the
     * ceilings are the parents of the mount points as the sandbox shows them ({@code /} for {@code /ws},
     * {@code /ws} for an entry nested at {@code /ws/docs}), never host paths, which the sandbox does not show.
     */
    private static Map<String, String> environment(SandboxView view) {
        Set<String> ceilings = new LinkedHashSet<>();
        for (SandboxView.Mount mount : view.mounts()) {
            Path parent = Path.of(mount.target()).getParent();
            ceilings.add((parent == null ? Path.of(mount.target()) : parent).toString());
        }
        return gitEnvironment(ceilings);
    }

    private static Map<String, String> gitEnvironment(Set<String> ceilings) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("GIT_CEILING_DIRECTORIES", String.join(":", ceilings));
        environment.put("GIT_DISCOVERY_ACROSS_FILESYSTEM", "0");
        return environment;
    }

    /** The most specific allow rule that matches, or {@code null}. */
    private CommandRule allowRule(List<String> argv) {
        CommandRule best = null;
        for (CommandRule rule : allowRules) {
            if (rule.isPrefixOf(argv) && (best == null || rule.tokens().size() > best.tokens().size())) {
                best = rule;
            }
        }
        return best;
    }

    private void refuseDenied(PathResolver resolver, String line, List<String> argv, int at, Set<String> names) {
        for (CommandRule rule : denyRules) {
            if (rule.blocks(argv, at, names)) {
                throw new CommandDeniedException("Command " + Messages.quote(line) + " is blocked by denied-command "
                        + "rule " + Messages.quote(rule.text()) + " in context " + Messages.quote(resolver.contextName())
                        + ".");
            }
        }
    }

    private void applyGuards(String line, List<String> argv, Set<String> names, boolean wrapper) {
        for (String name : names) {
            applyGuards(line, name, argv.subList(1, argv.size()));
        }
        if (wrapper) {
            for (int i = 1; i < argv.size(); i++) {
                for (String name : names(argv.get(i), payloadProgram(argv.get(i)))) {
                    applyGuards(line, name, argv.subList(i + 1, argv.size()));
                }
            }
        }
    }

    private void applyGuards(String line, String program, List<String> arguments) {
        for (ArgumentGuard guard : guards) {
            Optional<String> reason = guard.check(program, arguments);
            if (reason.isPresent()) {
                String text = reason.get().strip();
                throw new CommandDeniedException("Command " + Messages.quote(line) + " is refused by the argument "
                        + "guard for " + Messages.quote(program) + ": " + text + (text.endsWith(".") ? "" : "."));
            }
        }
    }

    private void refuseNestedWrapper(String line, List<String> argv, CommandRule rule) {
        for (int i = rule.tokens().size(); i < argv.size(); i++) {
            String name = ProgramName.baseName(argv.get(i));
            if (WrapperPrograms.isWrapper(name)) {
                throw new CommandDeniedException("Command " + Messages.quote(line) + " is allowed by the rule "
                        + Messages.quote(rule.text()) + ", but its argument " + Messages.quote(argv.get(i))
                        + " names another program that runs programs or code, which the rule does not name. Run "
                        + "that program directly, or name it in an allowed-command rule explicitly.");
            }
        }
    }

    private static void refuseWritableExecutable(PathResolver resolver, String line,
                                                 ProgramLocator.Located executable) {
        for (PathEntry entry : resolver.entries()) {
            if (entry.allowed().contains(Permission.WRITE) && executable.real().startsWith(entry.realPath())) {
                String virtual = resolver.virtualPath(executable.real()).orElse(entry.mountPoint() + "/...");
                throw (CommandDeniedException) new CommandDeniedException("Command " + Messages.quote(line)
                        + " would run " + Messages.quote(virtual) + ", which lies inside "
                        + Messages.quote(entry.mountPoint()) + " where the agent may write; a program the agent "
                        + "can change is never run. Use a program installed on the command search path.")
                        .withAuditDetail("executable " + Messages.quote(executable.real().toString()));
            }
        }
    }

    private static ResolvedPath workingDirectory(PathResolver resolver, String text) {
        ResolvedPath resolved;
        if (text == null || text.isBlank()) {
            resolver.checkPermission(EnumSet.of(Permission.EXECUTE));
            PathEntry entry = resolver.entries().stream()
                    .filter(e -> e.allowed().contains(Permission.EXECUTE) && !e.denied().contains(Permission.EXECUTE))
                    .findFirst()
                    .orElseThrow(() -> new PermissionDeniedException("Context " + Messages.quote(resolver.contextName())
                            + " has no PathEntry that grants 'EXECUTE', so no command can run: a command needs "
                            + "EXECUTE on its working directory."));
            // named by its mount point, so that no message shows the entry's host directory (unless another
            // entry's host directory has that very name)
            resolved = resolver.resolve(entry.mountPoint(), EnumSet.of(Permission.EXECUTE));
            if (!resolved.realPath().equals(entry.realPath())) {
                resolved = resolver.resolve(entry.realPath().toString(), EnumSet.of(Permission.EXECUTE));
            }
        } else {
            resolved = resolver.resolve(text, EnumSet.of(Permission.EXECUTE));
        }
        if (!Files.isDirectory(resolved.realPath())) {
            throw new InvalidInputException("Working directory " + Messages.quote(resolved.input()) + " is not a "
                    + "directory. Give a directory such as " + Messages.quote(resolved.entry().mountPoint()) + ".");
        }
        return resolved;
    }

    private boolean isWrapper(String program, Optional<ProgramLocator.Located> located) {
        if (WrapperPrograms.isWrapper(ProgramName.baseName(program))) {
            return true;
        }
        if (located.isEmpty()) {
            return false;
        }
        String real = located.get().real().getFileName().toString();
        return WrapperPrograms.isWrapper(real) && !WrapperPrograms.isMultiCall(real);
    }

    /** A payload token resolved like a program, when it could be one. */
    private Optional<ProgramLocator.Located> payloadProgram(String token) {
        return ProgramName.of(token) == ProgramName.RELATIVE ? Optional.empty() : locator.locate(token);
    }

    /** The names a program goes by: as written, and as its real file is named. */
    private static Set<String> names(String program, Optional<ProgramLocator.Located> located) {
        Set<String> names = new LinkedHashSet<>();
        names.add(ProgramName.baseName(program));
        located.ifPresent(l -> names.add(l.real().getFileName().toString()));
        return names;
    }

    private CommandDeniedException relativeProgram(PathResolver resolver, String line, String program) {
        String name = ProgramName.baseName(program);
        String advice = ProgramName.of(name) == ProgramName.BARE ? ": write " + Messages.quote(name) + " instead."
                : ".";
        return new CommandDeniedException("Command " + Messages.quote(line) + " names its program "
                + Messages.quote(program) + " by a relative path. A program runs only by a bare name found on the "
                + "command search path of context " + Messages.quote(resolver.contextName()) + " ("
                + Messages.quote(locator.text()) + ") or by an absolute path that an allowed-command rule names "
                + "exactly" + advice);
    }

    private CommandDeniedException notFound(PathResolver resolver, String line, String program) {
        String where = ProgramName.of(program) == ProgramName.BARE
                ? " on the command search path of context " + Messages.quote(resolver.contextName()) + " ("
                + Messages.quote(locator.text()) + ")" : "";
        return new CommandDeniedException("Command " + Messages.quote(line) + " names the program "
                + Messages.quote(program) + ", which is not an executable file" + where
                + ". Use a program that is installed there.");
    }

    private static CommandDeniedException unnamedWrapper(String line, String program,
                                                         Optional<ProgramLocator.Located> located) {
        String name = ProgramName.baseName(program);
        String resolves = WrapperPrograms.isWrapper(name) || located.isEmpty() ? ""
                : ", which is the program " + Messages.quote(located.get().real().getFileName().toString());
        return new CommandDeniedException("Command " + Messages.quote(line) + " runs " + Messages.quote(program)
                + resolves + ", a program that runs other programs or code (a shell, an interpreter or a launcher "
                + "such as env, xargs or timeout). Such a program runs only when an allowed-command rule names it "
                + "explicitly, and what it runs never counts as an allowed command of its own: run the program you "
                + "mean directly.");
    }

    /**
     * Checks the policy against the entries of the context it belongs to: no directory of the search path may
     * lie inside an entry that grants WRITE, where the agent could plant a program.
     *
     * @param entries the context's entries
     * @throws IllegalArgumentException naming the directory and the entry
     */
    public void validateAgainst(List<PathEntry> entries) {
        for (Path directory : locator.directories()) {
            Path real = realOrSelf(directory);
            for (PathEntry entry : entries) {
                if (entry.allowed().contains(Permission.WRITE) && real.startsWith(entry.realPath())) {
                    throw new IllegalArgumentException("Command search path directory "
                            + Messages.quote(directory.toString()) + " lies inside PathEntry "
                            + Messages.quote(entry.mountPoint()) + ", which grants WRITE: the agent could place "
                            + "programs there; keep the search path outside writable entries");
                }
            }
        }
    }

    private static Path realOrSelf(Path directory) {
        try {
            return directory.toRealPath();
        } catch (IOException e) {
            return directory;
        }
    }

    @Override
    public String toString() {
        return "CommandPolicy{allow=" + allowRules.size() + ", deny=" + denyRules.size() + ", searchPath="
                + Messages.quote(locator.text()) + ", builtInGuards=" + builtInGuards + ", sandbox=" + sandbox + "}";
    }

    /** Builds a {@link CommandPolicy}. Rules are validated as they are added. */
    public static final class Builder {

        private final List<CommandRule> allowRules = new ArrayList<>();
        private final List<CommandRule> denyRules = new ArrayList<>();
        private final List<ArgumentGuard> guards = new ArrayList<>();
        private ProgramLocator locator = ProgramLocator.of(ProgramLocator.DEFAULT_SEARCH_PATH);
        private boolean builtInGuards = true;
        private CommandSandbox sandbox = CommandSandbox.required();

        private Builder() {
        }

        /**
         * Sets how commands are isolated (default {@link CommandSandbox#required()}).
         *
         * @param sandbox the sandbox settings
         * @return this builder
         */
        public Builder sandbox(CommandSandbox sandbox) {
            this.sandbox = Objects.requireNonNull(sandbox, "sandbox");
            return this;
        }

        /**
         * Adds an allow rule; without any, every command is denied.
         *
         * @param rule a rule such as {@code "git status"}
         * @return this builder
         * @throws IllegalArgumentException if the rule is malformed
         */
        public Builder allow(String rule) {
            allowRules.add(CommandRule.parse(rule));
            return this;
        }

        /**
         * Adds a deny rule; deny rules win over allow rules.
         *
         * @param rule a rule such as {@code "rm -rf"}
         * @return this builder
         * @throws IllegalArgumentException if the rule is malformed
         */
        public Builder deny(String rule) {
            denyRules.add(CommandRule.parse(rule));
            return this;
        }

        /**
         * Sets the directories bare program names are looked up in (default
         * {@code /usr/local/bin:/usr/bin:/bin}); never taken from the agent or the environment.
         *
         * @param searchPath colon-separated, normalised absolute directories
         * @return this builder
         * @throws IllegalArgumentException if an element is empty or relative
         */
        public Builder searchPath(String searchPath) {
            this.locator = ProgramLocator.of(searchPath);
            return this;
        }

        /**
         * Adds an argument guard, applied after the built-in ones.
         *
         * @param guard the guard
         * @return this builder
         */
        public Builder guard(ArgumentGuard guard) {
            guards.add(Objects.requireNonNull(guard, "guard"));
            return this;
        }

        /**
         * Turns the {@link ArgumentGuards built-in argument guards} on (the default) or off. Turning them off
         * lets an allowed {@code find}, {@code git}, {@code tar}, ... run code; do it only for programs whose
         * rules pin every argument.
         *
         * @param enabled whether the built-in guards apply
         * @return this builder
         */
        public Builder builtInGuards(boolean enabled) {
            this.builtInGuards = enabled;
            return this;
        }

        /**
         * Builds the policy.
         *
         * @return the policy
         */
        public CommandPolicy build() {
            return new CommandPolicy(this);
        }
    }
}
