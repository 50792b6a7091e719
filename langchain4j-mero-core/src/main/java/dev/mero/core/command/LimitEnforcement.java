package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.message.Messages;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How this machine enforces a sandbox's {@link SandboxLimits}: the cgroups of the run for processes and memory,
 * {@code prlimit} (util-linux) around {@code bwrap} for file size and CPU time (and for memory, as address
 * space, where no cgroup can be had and the memory limit was set explicitly), the tmpfs size for {@code /tmp}.
 * It also places the seccomp filter: {@code flock --no-fork} (util-linux) opens the filter's file as file
 * descriptor 3 and executes {@code bwrap}, which reads it ({@code --seccomp 3}).
 *
 * <p>A limit set explicitly that the machine cannot enforce refuses the run unless the limits allow best
 * effort; a default one is reported once in the log.
 */
final class LimitEnforcement {

    private static final Logger LOGGER = LoggerFactory.getLogger(LimitEnforcement.class);
    private static final List<Path> PRLIMIT = List.of(Path.of("/usr/bin/prlimit"), Path.of("/bin/prlimit"));
    private static final List<Path> FLOCK = List.of(Path.of("/usr/bin/flock"), Path.of("/bin/flock"));
    /** The descriptor {@code flock} opens the filter as: the first after standard input, output and error. */
    static final int SECCOMP_FD = 3;
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private final SandboxLimits limits;
    private final Optional<CgroupSupport.Layout> cgroups;
    private final Optional<Path> prlimit;
    private final Set<SandboxLimits.Kind> unenforced;

    private LimitEnforcement(SandboxLimits limits, Optional<CgroupSupport.Layout> cgroups, Optional<Path> prlimit,
                             Set<SandboxLimits.Kind> unenforced) {
        this.limits = limits;
        this.cgroups = cgroups;
        this.prlimit = prlimit;
        this.unenforced = unenforced;
    }

    /**
     * Plans the enforcement of a run's limits on this machine.
     *
     * @param limits      the limits
     * @param cgroups     where the run's cgroups can go, if anywhere
     * @param prlimit     the {@code prlimit} executable, if installed
     * @param commandLine the command line, for a refusal
     * @return the plan
     * @throws CommandDeniedException if a limit set explicitly cannot be enforced and best effort is not allowed
     */
    static LimitEnforcement plan(SandboxLimits limits, Optional<CgroupSupport.Layout> cgroups,
                                 Optional<Path> prlimit, String commandLine) {
        Set<SandboxLimits.Kind> unenforced = EnumSet.noneOf(SandboxLimits.Kind.class);
        if (cgroups.isEmpty()) {
            unenforced.add(SandboxLimits.Kind.PROCESSES);
            if (prlimit.isEmpty() || !limits.configured(SandboxLimits.Kind.MEMORY)) {
                unenforced.add(SandboxLimits.Kind.MEMORY);
            }
        }
        if (prlimit.isEmpty()) {
            unenforced.add(SandboxLimits.Kind.FILE_SIZE);
            unenforced.add(SandboxLimits.Kind.CPU_SECONDS);
        }
        List<SandboxLimits.Kind> refused = unenforced.stream().filter(limits::configured).toList();
        if (!refused.isEmpty() && !limits.bestEffort()) {
            StringJoiner names = new StringJoiner(", ");
            refused.forEach(kind -> names.add(kind.label() + " (" + limits.describe(kind) + ")"));
            report("refused " + refused, "The command sandbox cannot enforce the configured {} on this machine "
                    + "(cgroups: {}, prlimit: {}), so every command is refused. Give the process writable memory "
                    + "and pids cgroups, or allow best effort (commands.sandbox.limits.best_effort: true; "
                    + "SandboxLimits.Builder.bestEffort(true)).", names, cgroups.isPresent(), prlimit.isPresent());
            throw new CommandDeniedException("Command " + Messages.quote(commandLine) + " was not run: the command "
                    + "sandbox cannot enforce its " + names + " on this machine. No command can run here; use the "
                    + "file tools instead.")
                    .withAuditDetail("unenforceable sandbox limits " + refused + "; cgroups available: "
                            + cgroups.isPresent() + ", prlimit: " + prlimit.map(Path::toString).orElse("missing"));
        }
        if (!unenforced.isEmpty()) {
            report("unenforced " + unenforced, "The command sandbox cannot enforce these limits on this machine "
                    + "and runs commands without them: {} (cgroups: {}, prlimit: {}).", unenforced,
                    cgroups.isPresent(), prlimit.isPresent());
        }
        return new LimitEnforcement(limits, cgroups, prlimit, Set.copyOf(unenforced));
    }

    /** The {@code prlimit} executable of this machine. */
    static Optional<Path> findPrlimit() {
        return PRLIMIT.stream().filter(Files::isExecutable).findFirst();
    }

    /**
     * The file of the seccomp filter and the {@code flock} that opens it for {@code bwrap}, when both exist;
     * otherwise the runs go without the filter, which is logged once.
     *
     * @param network whether the run shares the host's network
     * @return the filter's file and the {@code flock} executable
     */
    static Optional<List<Path>> seccompLauncher(boolean network) {
        Optional<Path> filter = SeccompFilter.file(network);
        Optional<Path> flock = FLOCK.stream().filter(Files::isExecutable).findFirst();
        if (filter.isEmpty() || flock.isEmpty()) {
            report("seccomp", "The command sandbox runs commands without its seccomp filter: {}.", filter.isEmpty()
                    ? "this architecture (" + System.getProperty("os.arch") + ") has no filter" : "flock (util-linux) "
                    + "is not installed");
            return Optional.empty();
        }
        return Optional.of(List.of(flock.get(), filter.get()));
    }

    /**
     * Where the run's cgroups go, when they are used.
     *
     * @return the layout, or empty
     */
    Optional<CgroupSupport.Layout> cgroups() {
        return cgroups;
    }

    /**
     * Whether a limit is enforced on this run.
     *
     * @param kind the limit
     * @return {@code true} if the kernel enforces it
     */
    boolean enforced(SandboxLimits.Kind kind) {
        return !unenforced.contains(kind);
    }

    /**
     * The {@code bwrap} command line with the rlimits in front: {@code prlimit} sets them and executes
     * {@code bwrap}, which keeps its process and passes them on to the command. Core dumps are switched off,
     * so that a process killed for a limit writes no core file into a mount.
     *
     * @param bubblewrap the {@code bwrap} argument vector
     * @param seccomp    the {@code flock} executable and the filter's file, when {@code bwrap} reads a filter
     * @return the argument vector to start
     */
    List<String> wrap(List<String> bubblewrap, Optional<List<Path>> seccomp) {
        List<String> argv = new ArrayList<>();
        if (prlimit.isPresent()) {
            argv.addAll(rlimits());
        }
        seccomp.ifPresent(launcher -> argv.addAll(List.of(launcher.get(0).toString(), "--shared", "--no-fork",
                launcher.get(1).toString())));
        argv.addAll(bubblewrap);
        return argv;
    }

    private List<String> rlimits() {
        List<String> argv = new ArrayList<>(List.of(prlimit.get().toString(), "--core=0",
                "--fsize=" + limits.fileSizeBytes(),
                // SIGXCPU at the limit (ignored by the namespace's PID 1), SIGKILL a second later
                "--cpu=" + limits.cpuSeconds() + ":" + ((long) limits.cpuSeconds() + 1)));
        if (cgroups.isEmpty() && enforced(SandboxLimits.Kind.MEMORY)) {
            argv.add("--as=" + limits.memoryBytes());
        }
        argv.add("--");
        return argv;
    }

    private static void report(String key, String message, Object... arguments) {
        if (REPORTED.add(key)) {
            LOGGER.warn(message, arguments);
        }
    }
}
