package dev.mero.examples;

import dev.langchain4j.data.message.AiMessage;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ConsoleApproval;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Human approval: every write and every delete waits for a person on the console ({@link ConsoleApproval}).
 * The session shows an approved write, a refused delete and a write nobody answers, which times out to a
 * denial; the refused and the timed-out actions leave the files exactly as they were.
 *
 * <p>Offline, a scripted human answers {@code y}, then {@code n}, then nothing (the prompt waits
 * {@value #SCRIPTED_TIMEOUT_SECONDS} seconds). With a real model, you answer on the console.
 */
final class ApprovalAgent {

    /** What the user asks the agent to do. */
    static final String TASK = "Add 'order pizza for the retro' to /ws/todo.txt, delete the old metrics in "
            + "/ws/data/metrics.csv, and write a short /ws/release-notes.md for version 1.2.";
    /** What the offline human answers, prompt by prompt; the third prompt gets no answer. */
    static final List<String> SCRIPTED_ANSWERS = List.of("y", "n");
    /** How long the offline human has to answer. */
    static final int SCRIPTED_TIMEOUT_SECONDS = 2;
    /** The scripted model's answer to the user. */
    static final String FINAL_ANSWER = String.join("\n",
            "- /ws/todo.txt: updated (you approved it).",
            "- /ws/data/metrics.csv: kept, you refused the delete.",
            "- /ws/release-notes.md: not written, the approval timed out. Ask me again when you are at the console.");

    private static final Duration CONSOLE_TIMEOUT = Duration.ofSeconds(60);

    private ApprovalAgent() {
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
        PrintWriter console = transcript.console();
        ConsoleApproval.Builder approval = ConsoleApproval.builder().output(console);
        if (models.isScripted()) {
            approval.input(new ScriptedAnswers(SCRIPTED_ANSWERS, console))
                    .discardTypeAhead(false) // the scripted answers are there before the prompts
                    .timeout(Duration.ofSeconds(SCRIPTED_TIMEOUT_SECONDS));
        } else {
            Reader keyboard = new InputStreamReader(System.in, Charset.defaultCharset());
            approval.input(keyboard).timeout(CONSOLE_TIMEOUT);
        }
        SecurityContext context = workspace.contextBuilder(transcript, Permission.DELETE)
                .requireApproval(Permission.WRITE, Permission.DELETE)
                .approval(approval.build())
                .build();
        transcript.context(context);
        transcript.note("Every WRITE and DELETE needs a human's approval on the console.");
        Assistant assistant = Assistants.create(models.chatModel(ApprovalAgent::script), context, transcript, null);
        transcript.user(TASK);
        String answer = assistant.chat(TASK);
        transcript.answer("Agent", answer);
        return answer;
    }

    /**
     * The offline session: a write, a delete and a write, one per decision.
     *
     * @return the model
     */
    static ScriptedChatModel script() {
        ScriptedChatModel model = new ScriptedChatModel();
        return model
                .callTool("read_file", Map.of("path", "/ws/todo.txt"))
                .then(request -> write(model, "/ws/todo.txt",
                        "- book the room for the retro\n- order pizza for the retro\n"))
                .callTool("delete_file", Map.of("path", "/ws/data/metrics.csv"))
                .then(request -> write(model, "/ws/release-notes.md",
                        "# Version 1.2\n\n- Faster nightly builds.\n- The flaky login test is fixed.\n"))
                .reply(FINAL_ANSWER);
    }

    private static AiMessage write(ScriptedChatModel model, String path, String content) {
        Map<String, String> arguments = new LinkedHashMap<>();
        arguments.put("path", path);
        arguments.put("content", content);
        return AiMessage.from(model.toolCall("write_file", ScriptedChatModel.json(arguments)));
    }
}
