package dev.mero.examples;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.mero.core.SecurityContext;
import dev.mero.tools.MeroTools;

/**
 * Builds the LangChain4j assistants of the examples: {@link MeroTools} wires a context's tools and both error
 * handlers in one line; every call is shown in the transcript.
 */
final class Assistants {

    private Assistants() {
    }

    /**
     * An assistant whose every tool call is decided by a context and printed in the transcript.
     *
     * @param model      the model
     * @param context    the context
     * @param transcript where calls are shown
     * @param agent      the agent's name in the transcript, or {@code null} for an example's only agent
     * @return the assistant
     */
    static Assistant create(ChatModel model, SecurityContext context, Transcript transcript, String agent) {
        AiServices<Assistant> builder = AiServices.builder(Assistant.class)
                .chatModel(model)
                .systemMessage(systemMessage(context));
        return transcribed(MeroTools.configure(builder, context), transcript, agent).build();
    }

    /**
     * Shows every tool call of an AI service in the transcript: the call before it runs, the result after.
     *
     * @param builder    the AI service's builder
     * @param transcript where calls are shown
     * @param agent      the agent's name in the transcript, or {@code null} for an example's only agent
     * @return the same builder
     */
    static AiServices<Assistant> transcribed(AiServices<Assistant> builder, Transcript transcript, String agent) {
        return builder
                .beforeToolExecution(before -> transcript.toolCall(agent, before.request().name(),
                        before.request().arguments()))
                .afterToolExecution(execution -> transcript.toolResult(execution.result(), execution.hasFailed()))
                .maxToolCallingRoundTrips(20);
    }

    /**
     * What every example tells its model: where it may work and what the tool results mean.
     *
     * @param context the context
     * @return the system message
     */
    static String systemMessage(SecurityContext context) {
        StringBuilder mounts = new StringBuilder();
        context.paths().forEach(entry -> mounts.append(mounts.length() == 0 ? "" : ", ")
                .append(entry.mountPoint()).append(' ').append(entry.allowed()));
        return "You are a careful assistant that works on files only through the tools you are given. "
                + "You can reach these directories, with these permissions: " + mounts + " (list_roots tells you "
                + "the same). Name files by these virtual paths, for example /ws/notes.md. A tool result that "
                + "starts with 'Denied:' means the security policy refused the action: do not retry it or look "
                + "for a way around it; do what you can within the rules and tell the user what you could not "
                + "do. A result that starts with 'Error:' is an ordinary failure that you may fix.";
    }
}
