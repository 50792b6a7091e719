package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.message.Messages;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How a context's commands are isolated by the kernel: inside a bubblewrap sandbox ({@code bwrap}, Debian
 * package {@code bubblewrap}) that shows the program nothing but the context's mounts, or, after an explicit
 * opt-out, as plain child processes of the JVM.
 *
 * <pre>{@code
 * SecurityContext context = SecurityContext.builder()
 *         .path(PathEntry.of("/srv/repo", "repo", Permission.READ, Permission.WRITE, Permission.EXECUTE))
 *         .allowCommand("git")
 *         .commandSandbox(CommandSandbox.builder().network(true).build()) // default: required, no network
 *         .build();
 * }</pre>
 *
 * <h2>What a sandboxed command sees</h2>
 * A new mount, PID, IPC, UTS and network namespace (and a user namespace where the platform needs one); an
 * empty, read-only root holding only:
 * <ul>
 *   <li>each path entry at its mount point {@code /<slug>}: read-write where the entry grants READ and
 *       WRITE or DELETE, read-only where it grants READ alone, absent where it does not grant READ (a program
 *       cannot be given a directory to write without letting it read); a nested entry without READ is covered
 *       by an empty read-only directory, and a nested entry with other permissions
 *       than its parent is mounted again at its place inside the parent;</li>
 *   <li>{@code /usr} read-only, {@code /bin}, {@code /lib}, {@code /lib64} and {@code /sbin} as on the host,
 *       and only the {@code /etc} files programs need to start ({@code ld.so.cache}, {@code passwd},
 *       {@code group}, {@code nsswitch.conf}, {@code localtime}, {@code alternatives}; with network also the
 *       resolver and certificate files); never a {@code gitconfig};</li>
 *   <li>a private, empty {@code /tmp}, a {@code /proc} of the new PID namespace and a minimal {@code /dev}.</li>
 * </ul>
 * The command runs in its working directory's virtual path ({@code /ws/sub}), so what it prints
 * ({@code pwd}, {@code git status}, error messages) names virtual paths. Entries are not mounted at their host
 * paths as well: host paths would then appear in program output. A consequence is that a symbolic link
 * holding an absolute host path does not resolve inside the sandbox, even when its target is mounted; a
 * relative link within one mount does.
 *
 * <p>{@code HOME} is the private {@code /tmp} unless the runner fixes it: the JVM's home directory is a host
 * path the sandbox does not show.
 *
 * <p>The command runs as PID 1 of its namespace, so when it exits or its timeout kills it, the kernel ends
 * every process it left behind; nothing has to be searched for. Without network, only the loopback interface
 * exists.
 *
 * <h2>Identity, system calls and limits</h2>
 * The program runs as the unprivileged user and group 65534 (nobody) of a user namespace of its own, also when
 * the library runs as root, with every capability dropped, {@code NoNewPrivs} set and no way to create further
 * user namespaces; files it writes belong to the library's own user on the host. A seccomp filter
 * ({@link SeccompFilter}) refuses what agent tools never need: {@code ptrace}, mounts, {@code unshare},
 * {@code setns} and namespace flags of {@code clone}, the key ring, {@code bpf}, {@code perf_event_open},
 * {@code userfaultfd}, {@code io_uring}, {@code kexec_*}, module loading, {@code reboot}, and socket families
 * other than {@code AF_UNIX} without network (with network also {@code AF_INET}, {@code AF_INET6} and
 * {@code AF_NETLINK}). Each run is bounded by {@link #limits()} (processes, memory, file size, {@code /tmp}
 * size, CPU time; see {@link SandboxLimits} for how each is enforced); a failed run that hit one says which:
 * {@code Error: the command exceeded its memory limit (2 GiB). ...}.
 *
 * <h2>Availability</h2>
 * The sandbox needs Linux and either root or unprivileged user namespaces. Whether {@code bwrap} works is
 * probed once per JVM and executable. Where it is missing or cannot create its namespaces, {@code run_command}
 * is not offered to the model, the operator is told once in the log (what to install only when {@code bwrap}
 * is missing, what the kernel or container lacks when its namespaces fail, and how to opt out), and every
 * command of a context that requires the sandbox is refused with a short message the model can act on;
 * nothing ever runs unsandboxed in silence. {@link #disabled()} (policy file: {@code commands: {sandbox: {enabled: false}}})
 * runs commands as plain processes instead, with the policy checks as the only protection; each context built
 * that way logs a warning.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class CommandSandbox {

    /** Where the Debian package {@code bubblewrap} installs {@code bwrap}. */
    public static final Path DEFAULT_BUBBLEWRAP = Path.of("/usr/bin/bwrap");

    private static final CommandSandbox REQUIRED = builder().build();
    private static final CommandSandbox DISABLED = builder().enabled(false).build();

    private final boolean enabled;
    private final boolean network;
    private final Path bubblewrap;
    private final SandboxLimits limits;

    private CommandSandbox(Builder builder) {
        this.enabled = builder.enabled;
        this.network = builder.network;
        this.bubblewrap = builder.bubblewrap;
        this.limits = builder.limits;
    }

    /**
     * The default: commands run only inside the sandbox, without network, with {@link #DEFAULT_BUBBLEWRAP}.
     *
     * @return the default settings
     */
    public static CommandSandbox required() {
        return REQUIRED;
    }

    /**
     * The explicit opt-out: commands run as plain child processes, guarded by the policy checks alone.
     *
     * @return settings that switch the sandbox off
     */
    public static CommandSandbox disabled() {
        return DISABLED;
    }

    /**
     * Starts a builder with the defaults of {@link #required()}.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Whether commands run inside the sandbox.
     *
     * @return {@code false} only after an explicit opt-out
     */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Whether sandboxed commands share the host's network.
     *
     * @return {@code true} if the network is allowed
     */
    public boolean network() {
        return network;
    }

    /**
     * The {@code bwrap} executable.
     *
     * @return an absolute path
     */
    public Path bubblewrap() {
        return bubblewrap;
    }

    /**
     * What each sandboxed run may consume (see {@link SandboxLimits}).
     *
     * @return the limits
     */
    public SandboxLimits limits() {
        return limits;
    }

    /**
     * Whether commands can run with these settings on this machine: always after the opt-out; with the
     * sandbox, whether {@code bwrap} works here (probed once per JVM and executable, then cached) and the
     * limits set explicitly can be enforced. An application can call this at start-up to fail early;
     * {@code run_command} is offered to a model only where it is {@code true}.
     *
     * @return {@code true} if commands can run
     */
    public boolean available() {
        return !enabled || BubblewrapProbe.check(bubblewrap).available()
                && limitsEnforceable(CgroupSupport.layout(), LimitEnforcement.findPrlimit());
    }

    /** Whether this machine enforces the limits (or the limits allow best effort), given what it has. */
    boolean limitsEnforceable(Optional<CgroupSupport.Layout> cgroups, Optional<Path> prlimit) {
        try {
            LimitEnforcement.plan(limits, cgroups, prlimit, "");
            return true;
        } catch (CommandDeniedException e) {
            return false;
        }
    }

    /**
     * Refuses a command that cannot run because the sandbox it requires does not work on this machine, with a
     * short message for the model; what to install or how to opt out is operator advice, which goes to the log
     * (once, when the sandbox is first probed) and to the audit detail. Guarding a command calls this, so such
     * a command is denied (and audited as denied) before anyone is asked to approve it.
     *
     * @param commandLine the command line, for the message
     * @throws CommandDeniedException if the sandbox is required and {@code bwrap} is missing or cannot create
     *                                its namespaces, or a limit set explicitly cannot be enforced here
     */
    public void requireAvailable(String commandLine) {
        if (!enabled) {
            return;
        }
        BubblewrapProbe.Availability availability = BubblewrapProbe.check(bubblewrap);
        if (!availability.available()) {
            throw new CommandDeniedException("Command " + Messages.quote(commandLine) + " was not run: commands "
                    + "run only inside the bubblewrap sandbox, and " + availability.problem() + ". No command can "
                    + "run here; use the file tools instead.")
                    .withAuditDetail(availability.detail());
        }
        LimitEnforcement.plan(limits, CgroupSupport.layout(), LimitEnforcement.findPrlimit(), commandLine);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CommandSandbox other && enabled == other.enabled && network == other.network
                && bubblewrap.equals(other.bubblewrap) && limits.equals(other.limits);
    }

    @Override
    public int hashCode() {
        return Objects.hash(enabled, network, bubblewrap, limits);
    }

    @Override
    public String toString() {
        return enabled ? "CommandSandbox{bubblewrap=" + bubblewrap + ", network=" + network + ", limits=" + limits
                + "}" : "CommandSandbox{disabled}";
    }

    /** Builds a {@link CommandSandbox}. */
    public static final class Builder {

        private boolean enabled = true;
        private boolean network;
        private Path bubblewrap = DEFAULT_BUBBLEWRAP;
        private SandboxLimits limits = SandboxLimits.defaults();

        private Builder() {
        }

        /**
         * Sets what each sandboxed run may consume (default {@link SandboxLimits#defaults()}).
         *
         * @param limits the limits
         * @return this builder
         */
        public Builder limits(SandboxLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * Requires the sandbox (the default) or opts out of it.
         *
         * @param enabled {@code false} to run commands unsandboxed, as plain processes
         * @return this builder
         */
        public Builder enabled(boolean enabled) {
            this.enabled = enabled;
            return this;
        }

        /**
         * Lets sandboxed commands use the host's network, its loopback services included (default: no network,
         * only a loopback interface of the sandbox's own).
         *
         * @param allowed whether the network is shared
         * @return this builder
         */
        public Builder network(boolean allowed) {
            this.network = allowed;
            return this;
        }

        /**
         * Sets the {@code bwrap} executable (default {@link #DEFAULT_BUBBLEWRAP}).
         *
         * @param executable an absolute path
         * @return this builder
         * @throws IllegalArgumentException if the path is relative
         */
        public Builder bubblewrap(Path executable) {
            Objects.requireNonNull(executable, "executable");
            if (!executable.isAbsolute()) {
                throw new IllegalArgumentException("The bubblewrap executable " + Messages.quote(executable.toString())
                        + " must be an absolute path, such as " + Messages.quote(DEFAULT_BUBBLEWRAP.toString()));
            }
            this.bubblewrap = executable.normalize();
            return this;
        }

        /**
         * Builds the settings.
         *
         * @return the settings
         */
        public CommandSandbox build() {
            return new CommandSandbox(this);
        }
    }
}
