package dev.mero.core.command;

import dev.mero.core.message.Messages;
import dev.mero.core.OperationFailedException;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What one run of a command produced: exit code, captured output, duration, and whether the runner had to
 * kill it or processes it left behind.
 *
 * <p>A non-zero exit or a timeout is an ordinary failure, not a security decision: {@link #toModelText()}
 * renders it as {@code Error: ...} with the output, and {@link #orThrow()} turns it into an
 * {@link OperationFailedException}.
 *
 * <pre>{@code
 * CommandResult result = runner.run(List.of("/usr/bin/git", "status"), workspace);
 * String forTheModel = result.toModelText();   // output, or "Error: command exited with code 128. Output: ..."
 * }</pre>
 *
 * <p>{@link #stdout()} and {@link #stderr()} hold at most the runner's byte limit of each stream, decoded
 * as UTF-8 (malformed bytes become U+FFFD); a truncated stream ends with the marker
 * {@code \n[... output truncated: N more bytes not shown ...]}. Instances are immutable.
 */
public final class CommandResult {

    private final List<String> argv;
    private final int exitCode;
    private final String stdout;
    private final String stderr;
    private final boolean stdoutTruncated;
    private final boolean stderrTruncated;
    private final long stdoutBytes;
    private final long stderrBytes;
    private final Duration duration;
    private final Duration timeout;
    private final boolean timedOut;
    private final int killedProcesses;
    private final String limitExceeded;

    private CommandResult(Builder builder) {
        if (builder.argv == null || builder.argv.isEmpty()) {
            throw new IllegalArgumentException("A command result needs the command's argv, got " + builder.argv);
        }
        if (builder.killedProcesses < 0) {
            throw new IllegalArgumentException("killedProcesses must not be negative, got "
                    + builder.killedProcesses);
        }
        this.argv = List.copyOf(builder.argv);
        this.exitCode = builder.exitCode;
        this.stdout = Objects.requireNonNull(builder.stdout, "stdout");
        this.stderr = Objects.requireNonNull(builder.stderr, "stderr");
        this.stdoutTruncated = builder.stdoutTruncated;
        this.stderrTruncated = builder.stderrTruncated;
        this.stdoutBytes = builder.stdoutBytes;
        this.stderrBytes = builder.stderrBytes;
        this.duration = Objects.requireNonNull(builder.duration, "duration");
        this.timeout = Objects.requireNonNull(builder.timeout, "timeout");
        this.timedOut = builder.timedOut;
        this.killedProcesses = builder.killedProcesses;
        this.limitExceeded = builder.limitExceeded;
    }

    /**
     * Starts a builder, for runners and for tests that need a result without running anything.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The argument vector that was run; element 0 is the absolute program path.
     *
     * @return an immutable, non-empty list
     */
    public List<String> argv() {
        return argv;
    }

    /**
     * The exit code as Java reports it; for a process killed by a signal {@code 128 + signal} (137 for
     * {@code SIGKILL}, 143 for {@code SIGTERM}), and {@code -1} if the process could not be reaped.
     *
     * @return the exit code
     */
    public int exitCode() {
        return exitCode;
    }

    /**
     * Standard output, decoded, capped, with the truncation marker at the end when it was truncated.
     *
     * @return the captured standard output, possibly empty
     */
    public String stdout() {
        return stdout;
    }

    /**
     * Standard error, decoded, capped, with the truncation marker at the end when it was truncated.
     *
     * @return the captured standard error, possibly empty
     */
    public String stderr() {
        return stderr;
    }

    /**
     * Whether standard output exceeded the byte limit and was cut.
     *
     * @return {@code true} if bytes were left out
     */
    public boolean stdoutTruncated() {
        return stdoutTruncated;
    }

    /**
     * Whether standard error exceeded the byte limit and was cut.
     *
     * @return {@code true} if bytes were left out
     */
    public boolean stderrTruncated() {
        return stderrTruncated;
    }

    /**
     * How many bytes the command wrote to standard output in all, shown or not.
     *
     * @return the byte count
     */
    public long stdoutBytes() {
        return stdoutBytes;
    }

    /**
     * How many bytes the command wrote to standard error in all, shown or not.
     *
     * @return the byte count
     */
    public long stderrBytes() {
        return stderrBytes;
    }

    /**
     * Wall-clock time from the start until the command exited or, after a timeout, until it was killed.
     *
     * @return the duration
     */
    public Duration duration() {
        return duration;
    }

    /**
     * The timeout the run was given.
     *
     * @return the timeout
     */
    public Duration timeout() {
        return timeout;
    }

    /**
     * Whether the command ran out of time and was killed, together with all its processes.
     *
     * @return {@code true} after a timeout
     */
    public boolean timedOut() {
        return timedOut;
    }

    /**
     * How many processes other than the command's own the runner killed: its children after a timeout,
     * or background processes still running after it exited.
     *
     * @return the count, zero if the command left nothing behind
     */
    public int killedProcesses() {
        return killedProcesses;
    }

    /**
     * The sandbox limit the run hit, in words ({@code memory limit (1 GiB)}), as far as the runner can tell:
     * from the run's cgroups (memory, processes), from the signal a limit sends (CPU time, file size), or from
     * the error the command printed ({@code File too large}, {@code No space left on device}).
     *
     * @return the limit, or empty when none was hit
     */
    public Optional<String> limitExceeded() {
        return Optional.ofNullable(limitExceeded);
    }

    /**
     * Whether the command exited with code 0 within its timeout.
     *
     * @return {@code true} on success
     */
    public boolean succeeded() {
        return exitCode == 0 && !timedOut;
    }

    /**
     * The text a tool binding hands to the model. On success the output: standard output, then standard
     * error under a {@code [stderr]} line, or {@code (no output)}. On failure
     * {@code Error: command exited with code N. Output:} or
     * {@code Error: command timed out after 30 s and was killed (with its N child processes). Output before
     * the timeout:}, followed by the output; when a sandbox limit was hit,
     * {@code Error: the command exceeded its memory limit (1 GiB).} and how it ended. A note follows when
     * background processes had to be killed.
     *
     * @return the model-facing text
     */
    public String toModelText() {
        if (!succeeded()) {
            return "Error: " + failureMessage();
        }
        String output = output();
        return (output.isEmpty() ? "(no output)" : output) + backgroundNote();
    }

    /**
     * The same result with both output streams rewritten, for example to show host paths as the virtual paths
     * the model knows. Byte counts, truncation flags and everything else stay as they were.
     *
     * @param rewrite applied to standard output and to standard error
     * @return a new result
     */
    public CommandResult withOutput(UnaryOperator<String> rewrite) {
        Objects.requireNonNull(rewrite, "rewrite");
        return builder().argv(argv).exitCode(exitCode)
                .stdout(rewrite.apply(stdout), stdoutTruncated, stdoutBytes)
                .stderr(rewrite.apply(stderr), stderrTruncated, stderrBytes)
                .duration(duration).timeout(timeout).timedOut(timedOut).killedProcesses(killedProcesses)
                .limitExceeded(limitExceeded).build();
    }

    /**
     * Returns this result if the command succeeded, else throws the failure as an ordinary error.
     *
     * @return this result, when {@link #succeeded()}
     * @throws OperationFailedException if the command exited non-zero or timed out; its
     *                                  {@link OperationFailedException#toModelText()} equals this result's
     *                                  {@link #toModelText()}
     */
    public CommandResult orThrow() {
        if (!succeeded()) {
            throw new OperationFailedException(failureMessage());
        }
        return this;
    }

    private String failureMessage() {
        String output = output();
        if (limitExceeded != null) {
            String ending = timedOut ? "It was killed at its timeout of " + DurationText.of(timeout) + "."
                    : "It exited with code " + exitCode + ".";
            return "the command exceeded its " + limitExceeded + ". " + ending
                    + (output.isEmpty() ? " It printed nothing." : " Output:\n" + output);
        }
        if (timedOut) {
            String killed = "command timed out after " + DurationText.of(timeout) + " and was killed"
                    + (killedProcesses == 0 ? "" : " (with its " + processes(killedProcesses, "child") + ")");
            return killed + (output.isEmpty() ? "; it printed nothing." : ". Output before the timeout:\n" + output);
        }
        return "command exited with code " + exitCode
                + (output.isEmpty() ? " and printed nothing." : ". Output:\n" + output) + backgroundNote();
    }

    /** Standard output, then standard error under a label, without a final line break. */
    private String output() {
        StringBuilder text = new StringBuilder(stdout);
        if (!stderr.isEmpty()) {
            if (text.length() > 0 && text.charAt(text.length() - 1) != '\n') {
                text.append('\n');
            }
            text.append("[stderr]\n").append(stderr);
        }
        if (text.length() > 0 && text.charAt(text.length() - 1) == '\n') {
            text.setLength(text.length() - 1);
        }
        return text.toString();
    }

    private String backgroundNote() {
        if (timedOut || killedProcesses == 0) {
            return "";
        }
        String verb = killedProcesses == 1 ? " was" : " were";
        return "\n[note: " + processes(killedProcesses, "background") + verb
                + " still running when the command exited and" + verb + " killed]";
    }

    /** {@code 1 child process}, {@code 2 background processes}. */
    static String processes(int count, String kind) {
        return count + " " + kind + (count == 1 ? " process" : " processes");
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof CommandResult)) {
            return false;
        }
        CommandResult that = (CommandResult) other;
        return exitCode == that.exitCode && stdoutTruncated == that.stdoutTruncated
                && stderrTruncated == that.stderrTruncated && stdoutBytes == that.stdoutBytes
                && stderrBytes == that.stderrBytes && timedOut == that.timedOut
                && killedProcesses == that.killedProcesses && argv.equals(that.argv) && stdout.equals(that.stdout)
                && stderr.equals(that.stderr) && duration.equals(that.duration) && timeout.equals(that.timeout)
                && Objects.equals(limitExceeded, that.limitExceeded);
    }

    @Override
    public int hashCode() {
        return Objects.hash(argv, exitCode, stdout, stderr, stdoutTruncated, stderrTruncated, stdoutBytes,
                stderrBytes, duration, timeout, timedOut, killedProcesses, limitExceeded);
    }

    /** A summary without the output itself, safe to log. */
    @Override
    public String toString() {
        return "CommandResult{program=" + Messages.quote(argv.get(0)) + ", exitCode=" + exitCode
                + ", timedOut=" + timedOut + ", duration=" + duration.toMillis() + "ms"
                + ", stdoutBytes=" + stdoutBytes + (stdoutTruncated ? " (truncated)" : "")
                + ", stderrBytes=" + stderrBytes + (stderrTruncated ? " (truncated)" : "")
                + ", killedProcesses=" + killedProcesses
                + (limitExceeded == null ? "" : ", limitExceeded=" + limitExceeded) + "}";
    }

    /** Builds a {@link CommandResult}. */
    public static final class Builder {

        private List<String> argv;
        private int exitCode;
        private String stdout = "";
        private String stderr = "";
        private boolean stdoutTruncated;
        private boolean stderrTruncated;
        private long stdoutBytes;
        private long stderrBytes;
        private Duration duration = Duration.ZERO;
        private Duration timeout = Duration.ZERO;
        private boolean timedOut;
        private int killedProcesses;
        private String limitExceeded;

        private Builder() {
        }

        /**
         * Sets the sandbox limit the run hit (default none).
         *
         * @param limit the limit in words, such as {@code memory limit (1 GiB)}, or null for none
         * @return this builder
         */
        public Builder limitExceeded(String limit) {
            this.limitExceeded = limit;
            return this;
        }

        /**
         * Sets the argument vector that was run (required).
         *
         * @param argv the non-empty argument vector
         * @return this builder
         */
        public Builder argv(List<String> argv) {
            this.argv = argv;
            return this;
        }

        /**
         * Sets the exit code (default 0).
         *
         * @param exitCode the exit code
         * @return this builder
         */
        public Builder exitCode(int exitCode) {
            this.exitCode = exitCode;
            return this;
        }

        /**
         * Sets the captured standard output (default empty).
         *
         * @param stdout the text, with the truncation marker if it was truncated
         * @param truncated whether bytes were left out
         * @param totalBytes how many bytes the stream produced in all
         * @return this builder
         */
        public Builder stdout(String stdout, boolean truncated, long totalBytes) {
            this.stdout = stdout;
            this.stdoutTruncated = truncated;
            this.stdoutBytes = totalBytes;
            return this;
        }

        /**
         * Sets the captured standard error (default empty).
         *
         * @param stderr the text, with the truncation marker if it was truncated
         * @param truncated whether bytes were left out
         * @param totalBytes how many bytes the stream produced in all
         * @return this builder
         */
        public Builder stderr(String stderr, boolean truncated, long totalBytes) {
            this.stderr = stderr;
            this.stderrTruncated = truncated;
            this.stderrBytes = totalBytes;
            return this;
        }

        /**
         * Sets how long the command ran (default zero).
         *
         * @param duration the wall-clock duration
         * @return this builder
         */
        public Builder duration(Duration duration) {
            this.duration = duration;
            return this;
        }

        /**
         * Sets the timeout the run was given (default zero).
         *
         * @param timeout the timeout
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * Marks the command as killed for running out of time (default {@code false}).
         *
         * @param timedOut whether it timed out
         * @return this builder
         */
        public Builder timedOut(boolean timedOut) {
            this.timedOut = timedOut;
            return this;
        }

        /**
         * Sets how many processes other than the command's own were killed (default 0).
         *
         * @param killedProcesses the count, not negative
         * @return this builder
         */
        public Builder killedProcesses(int killedProcesses) {
            this.killedProcesses = killedProcesses;
            return this;
        }

        /**
         * Builds the result.
         *
         * @return the result
         * @throws IllegalArgumentException if argv is missing or the kill count is negative
         */
        public CommandResult build() {
            return new CommandResult(this);
        }
    }
}
