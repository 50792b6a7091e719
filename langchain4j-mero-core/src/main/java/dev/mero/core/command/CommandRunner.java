package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidInputException;
import dev.mero.core.message.Messages;
import dev.mero.core.OperationFailedException;
import dev.mero.core.path.ResolvedPath;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Runs one command, given as an argument vector, the safe way: inside the kernel-enforced
 * {@link CommandSandbox bubblewrap sandbox}, never through a shell, with standard input closed, an
 * environment built from an allowlist, a timeout that ends every process of the run, and output capped per
 * stream. The runner decides nothing about which commands may run; callers check the command policy first
 * ({@link dev.mero.core.SecurityContext#guardCommand(String, String)}) and hand the runner the checked
 * command, which carries the checking context's mounts and sandbox settings.
 *
 * <pre>{@code
 * CommandRunner runner = CommandRunner.builder()
 *         .defaultTimeout(Duration.ofSeconds(30))
 *         .maxTimeout(Duration.ofMinutes(5))
 *         .outputLimitBytes(64 * 1024)
 *         .environment("PATH", "/usr/bin:/bin")
 *         .build();
 * CommandResult result = runner.run(context.guardCommand("git status", "/repo"));
 * }</pre>
 *
 * <h2>Sandbox</h2>
 * A checked command runs inside the sandbox its context requires: the program sees only the context's mounts
 * at their virtual paths ({@code /ws/...}) and works in the virtual path of its working directory. Where
 * {@code bwrap} is missing or cannot create its namespaces, the command is refused with a
 * {@link CommandDeniedException} that says what to install, never run unsandboxed in silence. Only a context
 * that opted out ({@link CommandSandbox#disabled()}) runs its commands as plain child processes.
 * {@link #run(List, Path)}, which has no context, always uses the sandbox, with the working directory as its
 * only mount (read-write, at its own path), and the default {@link SandboxLimits}. A sandboxed run starts as
 * {@code prlimit ... -- flock --shared --no-fork <filter> bwrap ... --seccomp 3 ...} (rlimits, then the
 * seccomp filter's file opened as descriptor 3, both util-linux, no shell), from a thread that has joined the
 * run's cgroups for that moment.
 *
 * <h2>Environment</h2>
 * The child sees only variables named in the allowlist ({@code PATH, HOME, LANG, LC_ALL, TERM, TZ} by
 * default, extended with {@link Builder#allowEnvironment(String...)}) that the JVM itself has, plus fixed
 * values set with {@link Builder#environment(String, String)}, which win. Every other variable of the JVM, its
 * secrets included, never reaches the child. Without the sandbox, the runner adds
 * {@code MERO_RUN_ID=<random uuid>} to tag the run's processes.
 *
 * <h2>Timeout and processes</h2>
 * In the sandbox, the command is PID 1 of a new PID namespace: when it exits, or its timeout kills it, the
 * kernel kills every process it left behind (daemons that double-forked or called {@code setsid} included),
 * and the run returns only after that. Nothing is searched for, so {@link CommandResult#killedProcesses()} is
 * zero for sandboxed runs.
 *
 * <p>Without the sandbox (opt-out), a command still running at its timeout is killed with its whole process
 * tree: {@code SIGTERM}, a short grace period ({@link Builder#killGracePeriod(Duration)}), then
 * {@code SIGKILL}. The tree is found twice over: the processes carrying the run's {@code MERO_RUN_ID} in
 * {@code /proc/<pid>/environ} and the command's descendants. Background processes still running when the
 * command exits are killed the same way and counted in {@link CommandResult#killedProcesses()}. A process
 * that both clears its environment and leaves the process tree escapes both nets, and a set-user-ID
 * program's environment cannot be read; the sandbox's PID namespace is what catches those.
 *
 * <p>If the calling thread is interrupted while it waits, the run is killed the same way, the thread's
 * interrupt flag is set again and an {@link dev.mero.core.OperationFailedException} says so; a thread
 * interrupted before the call starts nothing.
 *
 * <p>A requested timeout must be positive and at most {@link #maxTimeout()}; a longer one is refused
 * (an {@link InvalidInputException} naming the maximum), never silently shortened.
 *
 * <h2>Output</h2>
 * Standard output and standard error are drained as they are written, so the command never blocks on a
 * full pipe. The first {@link #outputLimitBytes()} bytes of each are kept, the rest counted and discarded;
 * a command that keeps writing past the cap runs on until it exits or times out. Once the command itself has
 * exited, the JDK closes its end of the pipes, so output its background processes write later is lost. The
 * kept bytes are decoded as UTF-8 with malformed input replaced, never cutting a character in half, and a
 * truncated stream ends with {@code \n[... output truncated: N more bytes not shown ...]}.
 *
 * <h2>Programs</h2>
 * The program must be an ELF binary or a script starting with {@code #!}: the JDK (and {@code bwrap}'s
 * {@code execvp}) would hand any other executable file to {@code /bin/sh}, so the runner refuses it.
 *
 * <p>Instances are immutable and thread-safe; concurrent runs are independent. Each run uses two daemon
 * threads named {@code mero-runner-<pid>-stdout} and {@code -stderr}, which end before the run returns.
 */
public final class CommandRunner {

    /** The variables a child may inherit from the JVM unless more are allowed. */
    public static final List<String> DEFAULT_ENVIRONMENT = List.of("PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ");
    /** The default timeout of a run. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    /** The default longest timeout a run may ask for. */
    public static final Duration DEFAULT_MAX_TIMEOUT = Duration.ofMinutes(5);
    /** The default number of bytes kept of each output stream. */
    public static final int DEFAULT_OUTPUT_LIMIT_BYTES = 64 * 1024;
    /** The largest per-stream output limit a runner may be built with. */
    public static final int MAX_OUTPUT_LIMIT_BYTES = 16 * 1024 * 1024;
    /** The default time between {@code SIGTERM} and {@code SIGKILL} when a process tree is killed. */
    public static final Duration DEFAULT_KILL_GRACE_PERIOD = Duration.ofMillis(200);

    private static final Duration MIN_TIMEOUT = Duration.ofMillis(1);
    private static final Duration MAX_KILL_GRACE_PERIOD = Duration.ofSeconds(10);
    private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,255}");

    private final Duration defaultTimeout;
    private final Duration maxTimeout;
    private final int outputLimitBytes;
    private final Set<String> allowedEnvironment;
    private final Map<String, String> fixedEnvironment;
    private final Duration killGracePeriod;

    private CommandRunner(Builder builder) {
        this.defaultTimeout = builder.defaultTimeout;
        this.maxTimeout = builder.maxTimeout;
        this.outputLimitBytes = builder.outputLimitBytes;
        this.allowedEnvironment = Collections.unmodifiableSet(new LinkedHashSet<>(builder.allowedEnvironment));
        this.fixedEnvironment = Collections.unmodifiableMap(new LinkedHashMap<>(builder.fixedEnvironment));
        this.killGracePeriod = builder.killGracePeriod;
    }

    /**
     * Starts a builder with the defaults: 30 s timeout, 5 min maximum, 64 KiB per stream, the default
     * environment allowlist, 200 ms kill grace period.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs a command the policy checked with its working directory (see
     * {@link dev.mero.core.SecurityContext#guardCommand(String, String)}), with the default timeout. Pass the
     * result of {@code guardCommand}: a command from {@code checkCommand} has passed the policy but not the
     * scope, rate limit, approval and audit steps.
     *
     * @param command a checked command that carries its working directory
     * @return the result, a non-zero exit or timeout included
     * @throws IllegalArgumentException if the command was checked without a working directory
     * @throws CommandDeniedException   if the command's context requires the sandbox and it is not available
     *                                  on this machine
     */
    public CommandResult run(CheckedCommand command) {
        return run(command, defaultTimeout);
    }

    /**
     * Runs a command the policy checked with its working directory, with the given timeout.
     *
     * @param command a checked command that carries its working directory
     * @param timeout how long the command may run, at most {@link #maxTimeout()}
     * @return the result, a non-zero exit or timeout included
     * @throws IllegalArgumentException if the command was checked without a working directory
     * @throws InvalidInputException    if the timeout is not positive or above the maximum
     * @throws CommandDeniedException   if the command's context requires the sandbox and it is not available
     *                                  on this machine, or the sandbox would not show its working directory
     */
    public CommandResult run(CheckedCommand command, Duration timeout) {
        Objects.requireNonNull(command, "command");
        ResolvedPath workingDirectory = command.workingDirectory()
                .orElseThrow(() -> new IllegalArgumentException("Command " + Messages.quote(command.commandLine())
                        + " was checked without a working directory; check it with one before running it"));
        if (!command.sandbox().enabled()) {
            return unsandboxed(command.processCommand(), workingDirectory.realPath(), timeout,
                    command.environment(), command.argv().get(0));
        }
        SandboxView view = command.sandboxView();
        String directory = view.locate(workingDirectory.realPath()).orElseThrow(() -> new CommandDeniedException(
                "Command " + Messages.quote(command.commandLine()) + " cannot run in "
                        + Messages.quote(workingDirectory.virtualPath()) + ": the command sandbox shows only "
                        + "directories the context grants READ in. Run it in such a directory.")
                .withAuditDetail("working directory " + Messages.quote(workingDirectory.realPath().toString())));
        Bubblewrap.Program program = Bubblewrap.place(view, command.executable(), command.realExecutable(),
                command.commandLine());
        return runSandboxed(command.sandbox(), view, directory, program, command.processCommand(), timeout,
                command.commandLine(), command.argv().get(0), command.environment());
    }

    /**
     * Runs a command with the {@link #defaultTimeout() default timeout}.
     *
     * @param argv             the argument vector; element 0 is the absolute path of the program
     * @param workingDirectory an existing absolute directory, one the policy allows to execute in
     * @return the result, a non-zero exit or timeout included
     * @throws IllegalArgumentException if argv is empty, has a null or NUL-containing element, or names a
     *                                  relative program, or the directory is not an existing absolute one
     * @throws dev.mero.core.OperationFailedException if the program cannot be started, or the calling
     *                                  thread is interrupted before the start (nothing runs) or while
     *                                  waiting (the run is killed and the interrupt flag set again)
     * @throws CommandDeniedException   if the sandbox is not available on this machine
     */
    public CommandResult run(List<String> argv, Path workingDirectory) {
        return run(argv, workingDirectory, defaultTimeout);
    }

    /**
     * Runs a command with the given timeout, inside the {@link CommandSandbox#required() default sandbox}:
     * the working directory is its only mount, read-write at its own path, besides the system directories.
     *
     * @param argv             the argument vector; element 0 is the absolute path of the program
     * @param workingDirectory an existing absolute directory, one the policy allows to execute in, which is
     *                         not the root nor a system directory the sandbox provides itself
     * @param timeout          how long the command may run, at most {@link #maxTimeout()}
     * @return the result, a non-zero exit or timeout included
     * @throws IllegalArgumentException as for {@link #run(List, Path)}, or if the timeout is null
     * @throws InvalidInputException    if the timeout is not positive or above the maximum
     * @throws dev.mero.core.OperationFailedException as for {@link #run(List, Path)}
     * @throws CommandDeniedException   if the sandbox is not available on this machine
     */
    public CommandResult run(List<String> argv, Path workingDirectory, Duration timeout) {
        List<String> command = checkedArgv(argv);
        Path directory = checkedDirectory(workingDirectory);
        if (!mountable(directory)) {
            throw new IllegalArgumentException("Working directory " + Messages.quote(directory.toString())
                    + " cannot be mounted into the command sandbox: it is the root or a system directory");
        }
        SandboxView view = SandboxView.directory(directory);
        Path program = Path.of(command.get(0));
        Bubblewrap.Program placed = Bubblewrap.place(view, program, realOrSelf(program), String.join(" ", command));
        return runSandboxed(CommandSandbox.required(), view, directory.toString(), placed, command, timeout,
                String.join(" ", command), command.get(0), Map.of());
    }

    /**
     * Runs an argument vector as a plain child process, without the sandbox: the opt-out mode. Its processes
     * carry a {@link RunMarker} and are found through {@code /proc} and the process tree after the run.
     * {@code policy} holds the variables the policy requires ({@link CheckedCommand#environment()}), which win
     * over the runner's.
     */
    CommandResult runUnsandboxed(List<String> argv, Path workingDirectory, Duration timeout,
                                 Map<String, String> policy) {
        return unsandboxed(argv, workingDirectory, timeout, policy, null);
    }

    /** As {@link #runUnsandboxed}, naming the program in messages as {@code shown}. */
    private CommandResult unsandboxed(List<String> argv, Path workingDirectory, Duration timeout,
                                      Map<String, String> policy, String shown) {
        List<String> command = checkedArgv(argv);
        Path directory = checkedDirectory(workingDirectory);
        Duration limit = checkedTimeout(timeout);
        ExecutableFile.requireDirectlyExecutable(Path.of(command.get(0)), shown == null ? command.get(0) : shown);

        RunMarker marker = RunMarker.create();
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.PIPE);
        Map<String, String> environment = builder.environment();
        environment.clear();
        environment.putAll(childEnvironment());
        environment.putAll(policy);
        environment.put(RunMarker.VARIABLE, marker.value());
        return new CommandExecution(command, shown == null ? command.get(0) : shown, limit, outputLimitBytes,
                new ProcessTreeReaper(marker, killGracePeriod), RunLimits.NONE).run(builder);
    }

    /**
     * Runs an argument vector inside the sandbox without any policy check: what the caller passes is what
     * runs, which is why this is not public. Tests use it to prove that the sandbox alone contains a
     * program.
     *
     * @param sandbox          the sandbox settings
     * @param view             the mounts
     * @param workingDirectory the working directory inside the sandbox
     * @param argv             the program's host path first, then its arguments
     * @param timeout          the timeout
     */
    CommandResult runInSandbox(CommandSandbox sandbox, SandboxView view, String workingDirectory, List<String> argv,
                               Duration timeout) {
        List<String> command = checkedArgv(argv);
        Path program = Path.of(command.get(0));
        Bubblewrap.Program placed = Bubblewrap.place(view, program, realOrSelf(program), String.join(" ", command));
        return runSandboxed(sandbox, view, workingDirectory, placed, command, timeout, String.join(" ", command),
                command.get(0), Map.of());
    }

    private CommandResult runSandboxed(CommandSandbox sandbox, SandboxView view, String workingDirectory,
                                       Bubblewrap.Program program, List<String> argv, Duration timeout,
                                       String commandLine, String shown, Map<String, String> policy) {
        List<String> command = checkedArgv(argv);
        Duration limit = checkedTimeout(timeout);
        ExecutableFile.requireDirectlyExecutable(Path.of(command.get(0)), shown);
        sandbox.requireAvailable(commandLine);
        refuseMovedMounts(view, commandLine);
        Map<String, String> environment = sandboxEnvironment();
        environment.putAll(policy);
        Optional<List<Path>> seccomp = LimitEnforcement.seccompLauncher(sandbox.network());
        LimitEnforcement enforcement = LimitEnforcement.plan(sandbox.limits(), CgroupSupport.layout(),
                LimitEnforcement.findPrlimit(), commandLine);
        List<String> bwrap = enforcement.wrap(Bubblewrap.command(sandbox, view, environment, workingDirectory,
                program, command.subList(1, command.size()), seccomp.isPresent()), seccomp);
        ProcessBuilder builder = new ProcessBuilder(bwrap)
                .redirectInput(ProcessBuilder.Redirect.PIPE)
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.PIPE);
        builder.environment().clear();
        SandboxRunLimits limits;
        try {
            limits = SandboxRunLimits.prepare(sandbox.limits(), enforcement);
        } catch (java.io.IOException e) {
            throw new OperationFailedException("Command " + Messages.quote(shown) + " was not started: the "
                    + "command sandbox could not set up its limits.", e);
        }
        return new CommandExecution(command, shown, limit, outputLimitBytes, new SandboxTeardown(), limits)
                .run(builder);
    }

    /**
     * {@code bwrap} follows symbolic links in a mount's source, so a mounted directory that was replaced by a
     * link (say, by a command of another context that could write its parent) would show the link's target.
     * Each source must still be the real directory the context was built with. The window between this check
     * and {@code bwrap}'s mount remains; inside a sandbox a nested mount point cannot be renamed (it is busy).
     */
    private static void refuseMovedMounts(SandboxView view, String commandLine) {
        for (SandboxView.Mount mount : view.mounts()) {
            if (mount.mode() == SandboxView.Mode.MASKED) {
                continue;
            }
            boolean unchanged;
            try {
                unchanged = Files.isDirectory(mount.source(), java.nio.file.LinkOption.NOFOLLOW_LINKS)
                        && mount.source().toRealPath().equals(mount.source());
            } catch (java.io.IOException e) {
                unchanged = false;
            }
            if (!unchanged) {
                throw new CommandDeniedException("Command " + Messages.quote(commandLine) + " was not run: the "
                        + "directory mounted at " + Messages.quote(mount.target()) + " is missing or was replaced "
                        + "since the context was built. Nothing was run.")
                        .withAuditDetail("mount source " + Messages.quote(mount.source().toString()));
            }
        }
    }

    /** Whether a directory can be mounted at its own path without hiding a system part of the sandbox. */
    private static boolean mountable(Path directory) {
        if (directory.getNameCount() == 0) {
            return false;
        }
        String first = directory.getName(0).toString();
        return !Bubblewrap.SYSTEM_NAMES.contains(first)
                || directory.getNameCount() > 1 && (first.equals("tmp") || first.equals("usr"));
    }

    private static Path realOrSelf(Path program) {
        try {
            return program.toRealPath();
        } catch (java.io.IOException e) {
            return program;
        }
    }

    /**
     * The timeout of a run that asks for none.
     *
     * @return the default timeout
     */
    public Duration defaultTimeout() {
        return defaultTimeout;
    }

    /**
     * The longest timeout a run may ask for.
     *
     * @return the maximum timeout
     */
    public Duration maxTimeout() {
        return maxTimeout;
    }

    /**
     * How many bytes of each output stream are kept.
     *
     * @return the per-stream limit
     */
    public int outputLimitBytes() {
        return outputLimitBytes;
    }

    /**
     * The names of the JVM's variables a child may inherit, the defaults included.
     *
     * @return an immutable set in the order names were allowed
     */
    public Set<String> allowedEnvironment() {
        return allowedEnvironment;
    }

    /**
     * The variables every child gets with a fixed value, whatever the JVM has.
     *
     * @return an immutable map
     */
    public Map<String, String> fixedEnvironment() {
        return fixedEnvironment;
    }

    /**
     * The time killed processes get between {@code SIGTERM} and {@code SIGKILL}.
     *
     * @return the grace period
     */
    public Duration killGracePeriod() {
        return killGracePeriod;
    }

    @Override
    public String toString() {
        return "CommandRunner{defaultTimeout=" + DurationText.of(defaultTimeout)
                + ", maxTimeout=" + DurationText.of(maxTimeout) + ", outputLimitBytes=" + outputLimitBytes
                + ", allowedEnvironment=" + allowedEnvironment + ", fixedEnvironment=" + fixedEnvironment.keySet()
                + "}";
    }

    /**
     * The child's environment, the one place it is built: the allowlisted variables the JVM has, then the
     * fixed values, which win. Sandboxed or not, the child gets exactly these.
     */
    private Map<String, String> childEnvironment() {
        Map<String, String> environment = new LinkedHashMap<>();
        for (String name : allowedEnvironment) {
            String value = System.getenv(name);
            if (value != null) {
                environment.put(name, value);
            }
        }
        environment.putAll(fixedEnvironment);
        return environment;
    }

    /**
     * The environment inside the sandbox: {@link #childEnvironment()}, except that {@code HOME}, unless fixed
     * by the operator, is the sandbox's private {@code /tmp}: the JVM's home directory is a host path that the
     * sandbox does not show.
     */
    private Map<String, String> sandboxEnvironment() {
        Map<String, String> environment = childEnvironment();
        if (!fixedEnvironment.containsKey("HOME")) {
            environment.put("HOME", "/tmp");
        }
        return environment;
    }

    private static List<String> checkedArgv(List<String> argv) {
        if (argv == null || argv.isEmpty()) {
            throw new IllegalArgumentException("argv must hold at least the program, got " + argv);
        }
        List<String> command = new ArrayList<>(argv.size());
        for (int i = 0; i < argv.size(); i++) {
            String argument = argv.get(i);
            if (argument == null) {
                throw new IllegalArgumentException("argv[" + i + "] is null in " + argv);
            }
            if (argument.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("argv[" + i + "] " + Messages.quote(argument)
                        + " contains a NUL character");
            }
            command.add(argument);
        }
        if (!Path.of(command.get(0)).isAbsolute()) {
            throw new IllegalArgumentException("Program " + Messages.quote(command.get(0))
                    + " must be an absolute path, resolved by the command policy");
        }
        return List.copyOf(command);
    }

    private static Path checkedDirectory(Path directory) {
        if (directory == null || !directory.isAbsolute() || !Files.isDirectory(directory)) {
            throw new IllegalArgumentException("Working directory "
                    + Messages.quote(directory == null ? null : directory.toString())
                    + " must be an existing absolute directory");
        }
        return directory;
    }

    private Duration checkedTimeout(Duration timeout) {
        if (timeout == null) {
            throw new IllegalArgumentException("timeout must not be null; use run(argv, directory) for the default");
        }
        if (timeout.compareTo(MIN_TIMEOUT) < 0) {
            throw new InvalidInputException("Timeout " + DurationText.of(timeout) + " is too short: ask for a "
                    + "timeout between " + DurationText.of(MIN_TIMEOUT) + " and " + DurationText.of(maxTimeout) + ".");
        }
        if (timeout.compareTo(maxTimeout) > 0) {
            throw new InvalidInputException("Timeout " + DurationText.of(timeout) + " is above the maximum of "
                    + DurationText.of(maxTimeout) + ": ask for at most " + DurationText.of(maxTimeout) + ".");
        }
        return timeout;
    }

    /** Builds a {@link CommandRunner}. */
    public static final class Builder {

        private Duration defaultTimeout = DEFAULT_TIMEOUT;
        private Duration maxTimeout = DEFAULT_MAX_TIMEOUT;
        private int outputLimitBytes = DEFAULT_OUTPUT_LIMIT_BYTES;
        private final Set<String> allowedEnvironment = new LinkedHashSet<>(DEFAULT_ENVIRONMENT);
        private final Map<String, String> fixedEnvironment = new LinkedHashMap<>();
        private Duration killGracePeriod = DEFAULT_KILL_GRACE_PERIOD;

        private Builder() {
        }

        /**
         * Sets the timeout of runs that ask for none (default 30 s); it must not exceed the maximum.
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder defaultTimeout(Duration timeout) {
            this.defaultTimeout = positive("defaultTimeout", timeout);
            return this;
        }

        /**
         * Sets the longest timeout a run may ask for (default 5 min); longer requests are refused.
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder maxTimeout(Duration timeout) {
            this.maxTimeout = positive("maxTimeout", timeout);
            return this;
        }

        /**
         * Sets how many bytes of each output stream are kept (default 64 KiB).
         *
         * @param bytes between 1 and {@value CommandRunner#MAX_OUTPUT_LIMIT_BYTES} (16 MiB)
         * @return this builder
         */
        public Builder outputLimitBytes(int bytes) {
            if (bytes < 1 || bytes > MAX_OUTPUT_LIMIT_BYTES) {
                throw new IllegalArgumentException("outputLimitBytes " + bytes + " must be between 1 and "
                        + MAX_OUTPUT_LIMIT_BYTES);
            }
            this.outputLimitBytes = bytes;
            return this;
        }

        /**
         * Lets children inherit more of the JVM's variables, by name, in addition to the defaults
         * ({@code PATH, HOME, LANG, LC_ALL, TERM, TZ}). A name the JVM does not have is simply not
         * passed.
         *
         * @param names variable names, {@code [A-Za-z_][A-Za-z0-9_]*}
         * @return this builder
         */
        public Builder allowEnvironment(String... names) {
            Objects.requireNonNull(names, "names");
            for (String name : names) {
                allowedEnvironment.add(checkedName(name));
            }
            return this;
        }

        /**
         * Gives every child a variable with a fixed value, whatever the JVM has; for example a {@code PATH}
         * equal to the context's command search path. Overrides an inherited value of the same name.
         *
         * @param name  a variable name, {@code [A-Za-z_][A-Za-z0-9_]*}
         * @param value the value, without NUL characters
         * @return this builder
         */
        public Builder environment(String name, String value) {
            String checked = checkedName(name);
            if (value == null || value.indexOf('\0') >= 0) {
                throw new IllegalArgumentException("Value " + Messages.quote(value) + " of variable "
                        + Messages.quote(name) + " must be non-null and free of NUL characters");
            }
            fixedEnvironment.put(checked, value);
            return this;
        }

        /**
         * Sets the time killed processes get between {@code SIGTERM} and {@code SIGKILL} (default 200 ms).
         *
         * @param gracePeriod between zero and 10 s
         * @return this builder
         */
        public Builder killGracePeriod(Duration gracePeriod) {
            if (gracePeriod == null || gracePeriod.isNegative() || gracePeriod.compareTo(MAX_KILL_GRACE_PERIOD) > 0) {
                throw new IllegalArgumentException("killGracePeriod " + text(gracePeriod)
                        + " must be between zero and " + DurationText.of(MAX_KILL_GRACE_PERIOD));
            }
            this.killGracePeriod = gracePeriod;
            return this;
        }

        /**
         * Builds the runner.
         *
         * @return the runner
         * @throws IllegalArgumentException if the default timeout exceeds the maximum
         */
        public CommandRunner build() {
            if (defaultTimeout.compareTo(maxTimeout) > 0) {
                throw new IllegalArgumentException("defaultTimeout " + DurationText.of(defaultTimeout)
                        + " must not exceed maxTimeout " + DurationText.of(maxTimeout));
            }
            return new CommandRunner(this);
        }

        private static Duration positive(String what, Duration timeout) {
            if (timeout == null || timeout.compareTo(MIN_TIMEOUT) < 0) {
                throw new IllegalArgumentException(what + " " + text(timeout) + " must be at least "
                        + DurationText.of(MIN_TIMEOUT));
            }
            return timeout;
        }

        private static String text(Duration duration) {
            return duration == null ? "null" : DurationText.of(duration);
        }

        private static String checkedName(String name) {
            if (name == null || !VARIABLE_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("Environment variable name " + Messages.quote(name)
                        + " must match [A-Za-z_][A-Za-z0-9_]* (at most 256 characters)");
            }
            if (name.equals(RunMarker.VARIABLE)) {
                throw new IllegalArgumentException("Environment variable name " + Messages.quote(name)
                        + " is reserved: the runner tags each run's processes with it");
            }
            return name;
        }
    }
}
