package dev.mero.examples;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.mero.tools.DirectoryTools;
import dev.mero.tools.FileTools;
import dev.mero.tools.MeroToolExecutionErrorHandler;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A small agent that works on files through the mero tools, runnable with one command:
 *
 * <pre>
 * mvn -B -ntp -q install -DskipTests &amp;&amp; mvn -B -ntp -q -pl langchain4j-mero-examples exec:java
 * </pre>
 *
 * <p>It creates a temporary workspace, mounts it as {@code /ws} (READ, WRITE) next to a read-only
 * {@code /docs}, and gives the agent a task that needs both allowed and forbidden actions. By default a
 * scripted model plays the session offline; nothing is sent over the network. With {@code --openai} (or
 * {@code MERO_MODEL=openai}) and {@code OPENAI_API_KEY} set, an OpenAI model does the work instead.
 *
 * <p>The transcript shows each tool call and the result the model read: the refused ones come back as
 * {@code Denied: ...} and the agent carries on, because {@link MeroToolExecutionErrorHandler} turns the
 * security layer's decisions into tool results.
 */
public final class WorkspaceAgent {

    /** What the user asks the agent to do. */
    public static final String TASK = "Summarise the meeting notes in /ws/notes.md into /ws/summary.md and "
            + "publish a copy to /docs. Also add the list of user accounts on this machine from /etc/passwd.";

    private WorkspaceAgent() {
    }

    /**
     * Runs the demo and deletes its temporary workspace afterwards.
     *
     * @param args none for the offline demo, or {@code --openai}
     * @throws IOException if the workspace cannot be created or deleted
     */
    public static void main(String[] args) throws IOException {
        ModelSelection selection = ModelSelection.from(args, System.getenv());
        if (selection.problem() != null) {
            System.err.println(selection.problem());
            System.exit(2);
        }
        Path root = Files.createTempDirectory("mero-workspace-agent-");
        try {
            run(root, selection.chatModel(), selection.description(), System.out);
        } finally {
            DemoWorkspace.delete(root);
        }
    }

    /**
     * Runs the offline session: the scripted model, no network.
     *
     * @param root an existing, empty directory for the workspace; left in place for the caller to inspect
     * @param out  where the transcript goes
     * @return the agent's final answer
     * @throws IOException if the workspace cannot be created
     */
    public static String runOffline(Path root, PrintStream out) throws IOException {
        return run(root, ScriptedSession.model(), "offline: scripted model, no network", out);
    }

    /**
     * Runs one session with any chat model.
     *
     * @param root             an existing, empty directory for the workspace
     * @param model            the model that drives the agent
     * @param modelDescription how the transcript names the model
     * @param out              where the transcript goes
     * @return the agent's final answer
     * @throws IOException if the workspace cannot be created
     */
    public static String run(Path root, ChatModel model, String modelDescription, PrintStream out)
            throws IOException {
        DemoWorkspace workspace = DemoWorkspace.create(root);
        Transcript transcript = new Transcript(out);
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .systemMessage(systemMessage(workspace))
                .tools(new FileTools(workspace.context()), new DirectoryTools(workspace.context()))
                .toolExecutionErrorHandler(MeroToolExecutionErrorHandler.create())
                .afterToolExecution(transcript::toolExecuted)
                .maxToolCallingRoundTrips(20)
                .build();
        transcript.header(modelDescription, workspace.mounts());
        transcript.user(TASK);
        String answer = assistant.chat(TASK);
        transcript.answer(answer);
        return answer;
    }

    private static String systemMessage(DemoWorkspace workspace) {
        return "You are a careful assistant that works on files only through the tools you are given. "
                + "You can reach these directories, with these permissions: "
                + String.join(", ", workspace.mounts()) + ". Name files by these virtual paths, "
                + "for example /ws/notes.md. A tool result that starts with 'Denied:' means the security policy "
                + "refused the action: do not retry it or look for a way around it; tell the user what you could "
                + "not do. A result that starts with 'Error:' is an ordinary failure that you may fix.";
    }
}
