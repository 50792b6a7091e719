package dev.mero.core.command;

import dev.mero.core.message.Messages;
import dev.mero.core.OperationFailedException;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One run of one command: starts the process, drains its output, waits for it within the timeout, kills
 * its whole process tree afterwards, and assembles the {@link CommandResult}. Used once, by one thread.
 *
 * <p>Whatever happens (exit, timeout, interrupt, an unexpected error), the run's processes are killed and
 * its drainer threads stopped before this class returns or throws.
 */
final class CommandExecution {

    private static final long EXIT_CODE_WAIT_MILLIS = 5_000;

    private final List<String> argv;
    private final String shown;
    private final Duration timeout;
    private final int outputLimitBytes;
    private final ProcessKiller reaper;
    private final RunLimits limits;
    private boolean interrupted;

    /**
     * Prepares a run.
     *
     * @param argv             the command as the caller named it (for the result), not the sandbox's
     *                         command line
     * @param shown            how messages name the program: as the agent wrote it, never a mount's host path
     * @param timeout          how long it may run
     * @param outputLimitBytes the per-stream cap
     * @param reaper           what ends the run's processes after an exit, a timeout or an interrupt
     * @param limits           what bounds the run besides its timeout, released when the run ends
     */
    CommandExecution(List<String> argv, String shown, Duration timeout, int outputLimitBytes, ProcessKiller reaper,
                     RunLimits limits) {
        this.argv = argv;
        this.shown = shown;
        this.timeout = timeout;
        this.outputLimitBytes = outputLimitBytes;
        this.reaper = reaper;
        this.limits = limits;
    }

    /**
     * Runs the prepared process builder to the end.
     *
     * @throws OperationFailedException if the process cannot be started, or the calling thread was
     *                                  interrupted before the start (nothing is run) or while waiting (its
     *                                  interrupt flag is then set again)
     */
    CommandResult run(ProcessBuilder builder) {
        if (Thread.currentThread().isInterrupted()) {
            // a cancelled caller must not start something it would kill half-way through
            limits.release();
            throw new OperationFailedException("Command " + Messages.quote(shown) + " was not started: "
                    + "the calling thread was interrupted.");
        }
        long started = System.nanoTime();
        Process process = start(builder);
        closeStandardInput(process);
        String threadName = "mero-runner-" + process.pid();
        OutputDrainer stdout = null;
        OutputDrainer stderr = null;
        boolean exited = false;
        boolean waitInterrupted = false;
        boolean killed = false;
        int killedProcesses = 0;
        long ended;
        try {
            stdout = OutputDrainer.start(process.getInputStream(), outputLimitBytes, threadName + "-stdout");
            stderr = OutputDrainer.start(process.getErrorStream(), outputLimitBytes, threadName + "-stderr");
            try {
                exited = process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                waitInterrupted = true;
            }
            ended = System.nanoTime();
            // after a timeout this kills the command itself; after an exit, what it left running
            killedProcesses = reaper.killAll(process.toHandle());
            killed = true;
            if (!exited) {
                ended = System.nanoTime();
            }
        } finally {
            if (!killed) {
                reaper.killAll(process.toHandle()); // an unexpected failure must not leave processes behind
            }
            interrupted |= reaper.wasInterrupted();
            interrupted |= stdout != null && stdout.finish();
            interrupted |= stderr != null && stderr.finish();
            if (!killed) {
                interrupted |= limits.release(); // failed half-way: the limits' cgroups must not stay either
            }
        }
        BoundedOutput out = stdout.output();
        BoundedOutput err = stderr.output();
        int exitCode = exitCode(process);
        Optional<String> exceeded;
        try {
            exceeded = limits.exceeded(exitCode, !exited, out.text() + "\n" + err.text());
        } finally {
            interrupted |= limits.release(); // the run's processes are gone: its cgroups can go too
        }
        if (interrupted || waitInterrupted) {
            Thread.currentThread().interrupt();
        }
        if (waitInterrupted) {
            throw new OperationFailedException("Command " + Messages.quote(shown) + " was interrupted "
                    + "before it finished and was killed"
                    + (killedProcesses == 0 ? "" : " (with its " + CommandResult.processes(killedProcesses, "child")
                    + ")") + ".");
        }
        return CommandResult.builder()
                .argv(argv)
                .exitCode(exitCode)
                .stdout(out.text(), out.truncated(), out.totalBytes())
                .stderr(err.text(), err.truncated(), err.totalBytes())
                .duration(Duration.ofNanos(ended - started))
                .timeout(timeout)
                .timedOut(!exited)
                .killedProcesses(killedProcesses)
                .limitExceeded(exceeded.orElse(null))
                .build();
    }

    private Process start(ProcessBuilder builder) {
        try {
            return limits.start(builder);
        } catch (IOException e) {
            interrupted |= limits.release();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            // the JDK's cause carries the errno text ("error=13, Permission denied") without the wrapping
            String reason = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
            throw new OperationFailedException("Command " + Messages.quote(shown) + " could not be started: "
                    + reason + ".", e);
        }
    }

    /** The command reads end-of-file at once: it can never wait for input nobody will type. */
    private static void closeStandardInput(Process process) {
        try {
            process.getOutputStream().close();
        } catch (IOException e) {
            // already closed
        }
    }

    private int exitCode(Process process) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(EXIT_CODE_WAIT_MILLIS);
        while (true) {
            try {
                return process.waitFor(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)
                        ? process.exitValue() : -1;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }
}
