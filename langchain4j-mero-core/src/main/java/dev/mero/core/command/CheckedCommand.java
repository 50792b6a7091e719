package dev.mero.core.command;

import dev.mero.core.message.Messages;
import dev.mero.core.path.ResolvedPath;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A command that passed its context's command policy: what was asked, how it was split, which executable it
 * stands for and which allow rule let it through.
 *
 * <p>A runner starts {@link #processCommand()} directly (never through a shell), inside the checking
 * context's {@link #sandbox() sandbox} (in the virtual path of {@link #workingDirectory()}) or, after an
 * opt-out, in its real directory, with an environment it fixes itself. Instances are immutable and are created
 * only by {@link CommandPolicy}.
 */
public final class CheckedCommand {

    private final String commandLine;
    private final List<String> argv;
    private final Path executable;
    private final Path realExecutable;
    private final CommandRule allowRule;
    private final ResolvedPath workingDirectory;
    private final List<ResolvedPath> pathArguments;
    private final CommandSandbox sandbox;
    private final SandboxView sandboxView;
    private final Map<String, String> environment;

    CheckedCommand(String commandLine, List<String> argv, Path executable, Path realExecutable,
                   CommandRule allowRule, ResolvedPath workingDirectory, List<ResolvedPath> pathArguments,
                   CommandSandbox sandbox, SandboxView sandboxView, Map<String, String> environment) {
        this.commandLine = commandLine;
        this.argv = List.copyOf(argv);
        this.executable = executable;
        this.realExecutable = realExecutable;
        this.allowRule = allowRule;
        this.workingDirectory = workingDirectory;
        this.pathArguments = List.copyOf(pathArguments);
        this.sandbox = sandbox;
        this.sandboxView = sandboxView;
        this.environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    }

    /**
     * The command line exactly as it was checked.
     *
     * @return the command line
     */
    public String commandLine() {
        return commandLine;
    }

    /**
     * The argument vector, program first as written ({@code git}, not {@code /usr/bin/git}).
     *
     * @return an immutable, non-empty list
     */
    public List<String> argv() {
        return argv;
    }

    /**
     * The arguments after the program.
     *
     * @return an immutable list, possibly empty
     */
    public List<String> arguments() {
        return argv.subList(1, argv.size());
    }

    /**
     * The program as written in the command: a bare name or an absolute path.
     *
     * @return the program
     */
    public String program() {
        return argv.get(0);
    }

    /**
     * The program's name without directories.
     *
     * @return the program name, for example {@code git}
     */
    public String programName() {
        return ProgramName.baseName(program());
    }

    /**
     * The absolute path of the executable found on the context's search path (or named by a rule). Symlinks
     * are kept, so that a multi-call binary still sees the name it was invoked as; run this path.
     *
     * @return the executable's absolute path
     */
    public Path executable() {
        return executable;
    }

    /**
     * The canonical file the executable resolves to, symlinks resolved; what actually runs.
     *
     * @return the real executable
     */
    public Path realExecutable() {
        return realExecutable;
    }

    /**
     * The allow rule that let the command through.
     *
     * @return the matching allow rule
     */
    public CommandRule allowRule() {
        return allowRule;
    }

    /**
     * The working directory the command was checked for (EXECUTE granted), when it was checked with one.
     *
     * @return the resolved working directory, or empty for a check of the command alone
     */
    public Optional<ResolvedPath> workingDirectory() {
        return Optional.ofNullable(workingDirectory);
    }

    /**
     * The paths the arguments name, each checked for the permissions the program needs there (READ, and WRITE
     * or DELETE for programs that change files). Approval requirements of the entries holding them apply to
     * the command, and a re-check after approval must find them unchanged.
     *
     * @return an immutable list, in argument order
     */
    public List<ResolvedPath> pathArguments() {
        return pathArguments;
    }

    /**
     * How the command is to be isolated: the sandbox settings of the context that checked it.
     *
     * @return the settings
     */
    public CommandSandbox sandbox() {
        return sandbox;
    }

    /** The checking context's mounts, as the sandbox shows them. */
    SandboxView sandboxView() {
        return sandboxView;
    }

    /**
     * Variables the policy requires in the command's environment, on top of whatever the runner sets: they
     * win over the runner's own values. Today these keep git inside the mounts:
     * {@code GIT_CEILING_DIRECTORIES} lists the parent of every mount point as the program sees it (git then
     * never looks for a repository above a mount: a ceiling directory itself is never searched from below it),
     * and {@code GIT_DISCOVERY_ACROSS_FILESYSTEM=0}. Inside the {@link #sandbox() sandbox} the mount points are
     * the virtual ones ({@code /ws}, so the ceiling is {@code /}, and {@code /ws} for an entry nested at
     * {@code /ws/docs}); after an opt-out they are the entries' real host directories.
     *
     * @return an immutable map in a stable order
     */
    public Map<String, String> environment() {
        return environment;
    }

    /**
     * The command to hand to a process builder: the executable's absolute path followed by the arguments.
     *
     * @return an immutable list
     */
    public List<String> processCommand() {
        List<String> command = new ArrayList<>(argv.size());
        command.add(executable.toString());
        command.addAll(arguments());
        return List.copyOf(command);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckedCommand other && commandLine.equals(other.commandLine) && argv.equals(other.argv)
                && executable.equals(other.executable) && allowRule.equals(other.allowRule)
                && Objects.equals(workingDirectory, other.workingDirectory)
                && pathArguments.equals(other.pathArguments) && environment.equals(other.environment);
    }

    @Override
    public int hashCode() {
        return Objects.hash(commandLine, argv, executable);
    }

    @Override
    public String toString() {
        return "CheckedCommand{" + Messages.quote(commandLine) + " -> " + executable
                + (workingDirectory == null ? "" : " in " + workingDirectory.virtualPath()) + "}";
    }
}
