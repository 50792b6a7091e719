package dev.mero.core.command;

import java.io.IOException;
import java.util.Optional;

/**
 * The limits of one sandboxed run at work. The {@link RunStarter}'s thread, which stands in the run's cgroups,
 * starts the process, so {@code bwrap} and all it starts are born in them; the new process's membership is
 * checked before the run goes on, so no process of the run ever runs outside them.
 * Afterwards the cgroups' counters, the exit code and the output tell which limit a failed run hit.
 */
final class SandboxRunLimits implements RunLimits {

    /** 128 + SIGKILL: what the CPU hard limit (and the memory cgroup's OOM kill) leaves. */
    private static final int KILLED = 137;
    /** 128 + SIGXCPU and 128 + SIGXFSZ, as a shell in the sandbox reports a child killed by a limit. */
    private static final int CPU_SIGNAL = 152;
    private static final int FILE_SIZE_SIGNAL = 153;

    private final SandboxLimits limits;
    private final LimitEnforcement enforcement;
    /** The run's cgroups, once started in them; null before, or when the plan uses none. */
    private RunCgroup cgroup;

    private SandboxRunLimits(SandboxLimits limits, LimitEnforcement enforcement) {
        this.limits = limits;
        this.enforcement = enforcement;
    }

    /**
     * Plans the run's limits; the cgroups, when the plan uses them, come with the start.
     *
     * @param limits      the limits
     * @param enforcement how this machine enforces them
     * @return the run's limits
     */
    static SandboxRunLimits prepare(SandboxLimits limits, LimitEnforcement enforcement) {
        return new SandboxRunLimits(limits, enforcement);
    }

    @Override
    public Process start(ProcessBuilder builder) throws IOException {
        if (enforcement.cgroups().isEmpty()) {
            return builder.start();
        }
        // the starter's thread forks: bwrap's --die-with-parent follows the thread that forked it, which lives as
        // long as the JVM
        RunStarter.Started started = RunStarter.of(enforcement.cgroups().get()).start(builder, limits);
        cgroup = started.cgroup();
        Process process = started.process();
        // checked all the same (fail closed). A process that has already ended (a quick command) can no longer
        // be asked, nor run anywhere
        if (!cgroup.holds(process.pid()) && ProcFs.isRunning(process.toHandle())) {
            process.destroyForcibly();
            throw failure(new IllegalStateException("the process was not born in the run's cgroups"));
        }
        return process;
    }

    /** The start's failure when the run's limits could not be set up (not the program's own failure to start). */
    static IOException failure(Throwable cause) {
        IOException failure = new IOException("its sandbox limits could not be applied");
        failure.addSuppressed(cause);
        return failure;
    }

    @Override
    public Optional<String> exceeded(int exitCode, boolean timedOut, String output) {
        Optional<SandboxLimits.Kind> kind = cgroup == null ? Optional.empty() : cgroup.exceeded();
        if (kind.isEmpty() && cgroup != null && exitCode == KILLED && !timedOut && cgroup.memoryLimitReached()) {
            kind = Optional.of(SandboxLimits.Kind.MEMORY);
        }
        if (kind.isEmpty()) {
            kind = fromExit(exitCode, timedOut, output);
        }
        return kind.map(limit -> limit.label() + " (" + limits.describe(limit) + ")");
    }

    private Optional<SandboxLimits.Kind> fromExit(int exitCode, boolean timedOut, String output) {
        boolean cpu = enforcement.enforced(SandboxLimits.Kind.CPU_SECONDS);
        if (cpu && (exitCode == CPU_SIGNAL || exitCode == KILLED && !timedOut)) {
            return Optional.of(SandboxLimits.Kind.CPU_SECONDS);
        }
        if (enforcement.enforced(SandboxLimits.Kind.FILE_SIZE)
                && (exitCode == FILE_SIZE_SIGNAL || output.contains("File too large"))) {
            return Optional.of(SandboxLimits.Kind.FILE_SIZE);
        }
        if (output.contains("No space left on device")) {
            return Optional.of(SandboxLimits.Kind.TMP_SIZE);
        }
        return Optional.empty();
    }

    @Override
    public boolean release() {
        if (cgroup == null) {
            return false;
        }
        cgroup.close();
        return cgroup.wasInterrupted();
    }
}
