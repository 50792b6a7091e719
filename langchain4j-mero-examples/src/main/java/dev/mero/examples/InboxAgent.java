package dev.mero.examples;

import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.PendingApprovals;
import dev.mero.core.approval.StandingApproval;
import dev.mero.inbox.ApprovalInboxServer;
import dev.mero.inbox.ApprovalInboxServlet;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The approval inbox: every write waits until a person decides it on a web page served on loopback. The example
 * prints the page's address and waits; open it, look at the diff, and approve or deny. Offline, the scripted
 * model edits {@code /ws/todo.txt} and the session waits for your click (at most {@value #WAIT_MINUTES} minutes,
 * then the write times out to a denial).
 */
final class InboxAgent {

    /** What the user asks the agent to do. */
    static final String TASK = "Add 'order pizza for the retro' to /ws/todo.txt.";
    /** The scripted model's answer to the user. */
    static final String FINAL_ANSWER = "I asked to edit /ws/todo.txt; the result above says whether you approved it.";
    /** How long a request waits for a decision in the inbox. */
    static final int WAIT_MINUTES = 5;

    private InboxAgent() {
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
        return run(root, models, transcript, uri -> { });
    }

    /**
     * Runs the example and tells {@code started} where the inbox is, once it listens.
     *
     * @param root       an existing, empty directory for the workspace
     * @param models     which model drives the agent
     * @param transcript where the session is shown
     * @param started    told the page's address
     * @return the agent's final answer
     * @throws IOException if the workspace cannot be created
     */
    static String run(Path root, ModelSelection models, Transcript transcript, Consumer<URI> started)
            throws IOException {
        DemoWorkspace workspace = DemoWorkspace.create(root);
        Duration wait = Duration.ofMinutes(WAIT_MINUTES);
        PendingApprovals pending = PendingApprovals.builder().timeout(wait).build();
        StandingApproval standing = StandingApproval.wrap(pending);
        SecurityContext context = workspace.contextBuilder(transcript)
                .requireApproval(Permission.WRITE)
                .approval(standing)
                .build();
        ApprovalInboxServlet inbox = ApprovalInboxServlet.builder().store(pending).standingApproval(standing)
                .auditLog(context.auditLog()).contexts(List.of(context.name())).timeout(wait).build();
        try (ApprovalInboxServer server = ApprovalInboxServer.builder().servlet(inbox).start()) {
            transcript.context(context);
            transcript.note("Every WRITE waits for a decision in the approval inbox. Open " + server.uri()
                    + " in a browser on this machine (loopback only) to approve or deny; a request nobody decides"
                    + " within " + WAIT_MINUTES + " minutes is denied.");
            started.accept(server.uri());
            Assistant assistant = Assistants.create(models.chatModel(InboxAgent::script), context, transcript, null);
            transcript.user(TASK);
            String answer = assistant.chat(TASK);
            transcript.answer("Agent", answer);
            return answer;
        }
    }

    /**
     * The offline session: one edit, which waits in the inbox.
     *
     * @return the model
     */
    static ScriptedChatModel script() {
        Map<String, String> edit = new LinkedHashMap<>();
        edit.put("path", "/ws/todo.txt");
        edit.put("old_text", "- book the room for the retro\n");
        edit.put("new_text", "- book the room for the retro\n- order pizza for the retro\n");
        return new ScriptedChatModel().callTool("edit_file", edit).reply(FINAL_ANSWER);
    }
}
