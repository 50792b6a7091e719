package dev.mero.core.command;

import java.io.IOException;
import java.util.Optional;

/**
 * What bounds one run beyond its timeout, seen by {@link CommandExecution}: it starts the process (so that the
 * process is born inside the run's cgroups), names the limit a failed run hit, and releases what it holds
 * once the run's processes are gone.
 */
interface RunLimits {

    /** No limits: unsandboxed runs. */
    RunLimits NONE = new RunLimits() {
        @Override
        public Process start(ProcessBuilder builder) throws IOException {
            return builder.start();
        }

        @Override
        public Optional<String> exceeded(int exitCode, boolean timedOut, String output) {
            return Optional.empty();
        }

        @Override
        public boolean release() {
            return false;
        }
    };

    /**
     * Starts the run's process inside its limits.
     *
     * @param builder the prepared process
     * @return the started process
     * @throws IOException if the process cannot be started, or not inside its limits (nothing then runs)
     */
    Process start(ProcessBuilder builder) throws IOException;

    /**
     * The limit the run hit, in words ({@code memory limit (1 GiB)}).
     *
     * @param exitCode the exit code
     * @param timedOut whether the run was killed at its timeout
     * @param output   what the run printed (both streams, as kept)
     * @return the limit, or empty when none was hit
     */
    Optional<String> exceeded(int exitCode, boolean timedOut, String output);

    /**
     * Releases what the run held (its cgroups). Called after the run's processes are gone, also after a failure.
     *
     * @return whether the calling thread was interrupted meanwhile; the caller restores the flag
     */
    boolean release();
}
