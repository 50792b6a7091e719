package dev.mero.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.invocation.InvocationParameters;
import dev.mero.core.SecurityContext;
import dev.mero.core.catalogue.CommandToolTexts;
import dev.mero.core.ops.MeroOperations;
import java.util.Objects;

/**
 * The LangChain4j command tool {@code run_command}: runs one allowed command through the context's sandboxed
 * runner. A thin adapter over {@link MeroOperations}.
 */
public final class CommandTools {

    private final CallerOperations callers;

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
        this.callers = new CallerOperations(Objects.requireNonNull(operations, "operations"));
    }

    /**
     * Runs a command.
     *
     * @param command          the command line
     * @param workingDirectory the directory to run in, or {@code null}
     * @param timeoutSeconds   how long it may run, or {@code null}
     * @param parameters the AI-service call's invocation parameters: a {@link CallerIdentity} narrows the call
     * @return exit code and output
     */
    @Tool(name = CommandToolTexts.RUN_COMMAND, value = CommandToolTexts.RUN_COMMAND_DESCRIPTION)
    public String runCommand(@P(name = "command", value = CommandToolTexts.RUN_COMMAND_COMMAND) String command,
                             @P(name = "working_directory", value = CommandToolTexts.RUN_COMMAND_WORKING_DIRECTORY,
                                     required = false) String workingDirectory,
                             @P(name = "timeout_seconds", value = CommandToolTexts.RUN_COMMAND_TIMEOUT_SECONDS,
                                     required = false) Integer timeoutSeconds,
            InvocationParameters parameters) {
        return ToolCalls.call(callers, parameters, CommandToolTexts.RUN_COMMAND, "command", command,
                "working_directory", workingDirectory, "timeout_seconds", timeoutSeconds);
    }
}
