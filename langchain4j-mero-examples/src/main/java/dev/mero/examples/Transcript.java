package dev.mero.examples;

import dev.langchain4j.service.tool.ToolExecution;
import java.io.PrintStream;
import java.util.List;

/**
 * Prints what happens in a session so that a person can follow it: the task, every tool call with its
 * arguments and the result the model received, and the final answer. Tool calls are printed as
 * LangChain4j reports them, so the same transcript works for the scripted and for a real model.
 */
final class Transcript {

    private static final int MAX_ARGUMENT_CHARS = 300;
    private static final String INDENT = "           ";

    private final PrintStream out;

    /**
     * Creates a transcript.
     *
     * @param out where it is printed
     */
    Transcript(PrintStream out) {
        this.out = out;
    }

    /**
     * Prints which model runs and what the context mounts.
     *
     * @param modelDescription the model
     * @param mounts           one line per mount
     */
    void header(String modelDescription, List<String> mounts) {
        out.println("mero WorkspaceAgent (" + modelDescription + ")");
        out.println("Context '" + DemoWorkspace.CONTEXT_NAME + "' mounts: " + String.join(", ", mounts));
        out.println();
    }

    /**
     * Prints the user's message.
     *
     * @param message the message
     */
    void user(String message) {
        out.println("User: " + message);
        out.println();
    }

    /**
     * Prints one tool call and its result; LangChain4j calls it after each tool call, on the thread that
     * ran the tool.
     *
     * @param execution the finished call
     */
    synchronized void toolExecuted(ToolExecution execution) {
        out.println("Tool call  " + execution.request().name() + " " + abbreviate(execution.request().arguments()));
        String label = execution.hasFailed() ? "  failed   " : "  result   ";
        List<String> lines = String.valueOf(execution.result()).lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            out.println(((i == 0 ? label : INDENT) + lines.get(i)).stripTrailing());
        }
        if (lines.isEmpty()) {
            out.println(label.stripTrailing());
        }
        out.println();
    }

    /**
     * Prints the agent's final answer.
     *
     * @param answer the answer
     */
    void answer(String answer) {
        out.println("Agent: " + answer);
    }

    private static String abbreviate(String text) {
        return text.length() <= MAX_ARGUMENT_CHARS ? text : text.substring(0, MAX_ARGUMENT_CHARS) + "...";
    }
}
