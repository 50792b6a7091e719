package dev.mero.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.CommandToolTexts;
import dev.mero.core.ops.MeroOperations;
import java.util.Objects;

/**
 * The LangChain4j command tool {@code run_command}: runs one allowed command through the context's sandboxed
 * runner. A thin adapter over {@link MeroOperations}.
 */
public final class CommandTools {

    private final MeroOperations operations;

    /**
     * Creates the tool for a context.
     *
     * @param context the context that decides every call
     */
    public CommandTools(SecurityContext context) {
        this(MeroOperations.forContext(context));
    }

    /**
     * Creates the tool over operations.
     *
     * @param operations the operations bound to a context
     */
    public CommandTools(MeroOperations operations) {
        this.operations = Objects.requireNonNull(operations, "operations");
    }

    /**
     * Runs a command.
     *
     * @param command          the command line
     * @param workingDirectory the directory to run in, or {@code null}
     * @param timeoutSeconds   how long it may run, or {@code null}
     * @return exit code and output
     */
    @Tool(name = CommandToolTexts.RUN_COMMAND, value = CommandToolTexts.RUN_COMMAND_DESCRIPTION)
    public String runCommand(@P(name = "command", value = CommandToolTexts.RUN_COMMAND_COMMAND) String command,
                             @P(name = "working_directory", value = CommandToolTexts.RUN_COMMAND_WORKING_DIRECTORY,
                                     required = false) String workingDirectory,
                             @P(name = "timeout_seconds", value = CommandToolTexts.RUN_COMMAND_TIMEOUT_SECONDS,
                                     required = false) Integer timeoutSeconds) {
        return ToolCalls.call(operations, CommandToolTexts.RUN_COMMAND, "command", command,
                "working_directory", workingDirectory, "timeout_seconds", timeoutSeconds);
    }
}
