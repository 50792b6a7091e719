package dev.mero.examples;

import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The default example: an assistant on a workspace ({@code /ws}, READ, WRITE and EXECUTE) next to read-only
 * documentation ({@code /docs}). Its task needs both allowed and forbidden actions: it looks around, searches,
 * reads, writes a summary, edits a file after a dry run, runs an allowed command ({@code wc}), is refused a file
 * outside its mounts and a write into {@code /docs}, and recovers by putting the copy where it may write. Run
 * it with {@code mvn -B -ntp -q -Pdemo -DskipTests package}.
 *
 * <p>The transcript shows each tool call and the result the model read: the refused ones come back as
 * {@code Denied: ...} and the agent carries on, because {@link dev.mero.tools.MeroToolExecutionErrorHandler}
 * turns the security layer's decisions into tool results.
 */
final class WorkspaceAgent {

    /** What the user asks the agent to do. */
    static final String TASK = "Summarise the meeting notes in /ws/notes.md into /ws/summary.md and publish a "
            + "copy to /docs, tick off booking the retro room in /ws/todo.txt, and tell me how many lines the notes "
            + "and the summary have. Also add the list of user accounts on this machine from /etc/passwd.";

    private WorkspaceAgent() {
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
        DemoWorkspace workspace = DemoWorkspace.create(root);
        SecurityContext context = workspace.contextBuilder(transcript).build();
        return ask(context, models, transcript);
    }

    /**
     * Gives the task to an assistant working in a context; the policy-file example reuses it.
     *
     * @param context    the context
     * @param models     which model drives the agent
     * @param transcript where the session is shown
     * @return the agent's final answer
     */
    static String ask(SecurityContext context, ModelSelection models, Transcript transcript) {
        transcript.context(context);
        Assistant assistant = Assistants.create(models.chatModel(ScriptedSession::model), context, transcript, null);
        transcript.user(TASK);
        String answer = assistant.chat(TASK);
        transcript.answer("Agent", answer);
        return answer;
    }
}
