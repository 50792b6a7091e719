package dev.mero.core.ops;

import dev.mero.core.SecurityContext;
import dev.mero.core.command.CommandResult;
import dev.mero.core.metrics.MeroMetrics;
import java.time.Duration;
import java.util.OptionalInt;

/**
 * {@code run_command(command, working_directory?, timeout_seconds?)}: runs one command through
 * {@link SecurityContext#runCommand(String, String, Duration)}, so every policy rule, approval, audit and the
 * sandboxed runner apply. The result shows the exit code, the output, and whether it was cut or timed out; a
 * non-zero exit is a result, not an error.
 */
final class RunCommand implements ToolOperation {

    private final SecurityContext context;
    private final MeroMetrics metrics;

    RunCommand(SecurityContext context, MeroMetrics metrics) {
        this.context = context;
        this.metrics = metrics;
    }

    @Override
    public String run(ToolArguments arguments) {
        String command = arguments.string("command");
        String directory = arguments.optionalString("working_directory").filter(d -> !d.isBlank()).orElse(null);
        OptionalInt seconds = arguments.optionalInt("timeout_seconds");
        if (seconds.isPresent() && seconds.getAsInt() < 1) {
            throw ToolArguments.invalid(arguments.tool(), "'timeout_seconds' is " + seconds.getAsInt()
                    + "; give at least 1");
        }
        CommandResult result = seconds.isPresent()
                ? context.runCommand(command, directory, Duration.ofSeconds(seconds.getAsInt()))
                : context.runCommand(command, directory);
        metrics.sandboxRun(result.timedOut() ? MeroMetrics.EXIT_TIMEOUT : Integer.toString(result.exitCode()));
        return render(result);
    }

    private static String render(CommandResult result) {
        StringBuilder out = new StringBuilder();
        if (result.timedOut()) {
            out.append("Timed out after ").append(result.timeout().toSeconds()).append(" s and was killed")
                    .append(result.killedProcesses() > 0 ? " (with " + result.killedProcesses() + " processes)" : "")
                    .append(".");
        } else {
            out.append("Exit code: ").append(result.exitCode());
        }
        out.append("\n[stdout]\n").append(result.stdout().isEmpty() ? "(empty)" : result.stdout());
        if (result.stdoutTruncated()) {
            out.append("\n[stdout cut: showing part of ").append(result.stdoutBytes()).append(" bytes]");
        }
        if (!result.stderr().isEmpty() || result.stderrTruncated()) {
            out.append("\n[stderr]\n").append(result.stderr());
            if (result.stderrTruncated()) {
                out.append("\n[stderr cut: showing part of ").append(result.stderrBytes()).append(" bytes]");
            }
        }
        return out.toString();
    }
}
