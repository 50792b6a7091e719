package dev.mero.examples;

import dev.mero.core.SecurityContext;
import dev.mero.springai.MeroToolCallbacks;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tool.ToolCallback;

/**
 * The workspace assistant on Spring AI: the same tools, from the same core catalogue, as Spring AI
 * {@link ToolCallback}s ({@link MeroToolCallbacks}), driven through {@link ChatClient} and its own tool loop.
 * A refusal reaches the model as {@code Denied: ...} text, exactly as with LangChain4j.
 */
final class SpringAiAgent {

    private SpringAiAgent() {
    }

    /**
     * Runs the example.
     *
     * @param root       an existing, empty directory for the workspace
     * @param models     which model drives the agent
     * @param transcript where the session is shown
     * @return the agent's final answer
     * @throws IOException if the workspace cannot be created
     */
    static String run(Path root, ModelSelection models, Transcript transcript) throws IOException {
        return run(root, models.springChatModel(ScriptedSession::springModel), transcript);
    }

    /**
     * Runs the example with a given Spring AI model.
     *
     * @param root       an existing, empty directory for the workspace
     * @param model      the model
     * @param transcript where the session is shown
     * @return the agent's final answer
     * @throws IOException if the workspace cannot be created
     */
    static String run(Path root, ChatModel model, Transcript transcript) throws IOException {
        DemoWorkspace workspace = DemoWorkspace.create(root);
        SecurityContext context = workspace.contextBuilder(transcript).build();
        transcript.context(context);
        ToolCallback[] tools = Arrays.stream(MeroToolCallbacks.forContext(context).getToolCallbacks())
                .map(callback -> new TranscribedToolCallback(callback, transcript))
                .toArray(ToolCallback[]::new);
        transcript.user(WorkspaceAgent.TASK);
        String answer = ChatClient.create(model).prompt()
                .system(Assistants.systemMessage(context))
                .user(WorkspaceAgent.TASK)
                .tools((Object[]) tools)
                .call()
                .content();
        transcript.answer("Agent", answer);
        return answer;
    }
}
