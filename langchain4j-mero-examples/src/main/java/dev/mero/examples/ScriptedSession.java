package dev.mero.examples;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mero.tools.testing.ScriptedChatModel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * The session the offline demo plays instead of a language model: what a model typically does with
 * {@link WorkspaceAgent#TASK}. It looks around, reads the notes, writes a summary built from what it
 * actually read, then tries two things the policy forbids and reports back.
 */
final class ScriptedSession {

    /** The scripted model's last message, the agent's answer to the user. */
    static final String FINAL_ANSWER = String.join("\n",
            "I summarised the meeting notes into /ws/summary.md (two decisions and two action items).",
            "Two parts of the request were refused by the security policy, so I did not do them:",
            "- /etc/passwd is outside the folders I may access, so the list of user accounts is not included.",
            "- /docs is read-only for me, so I could not publish the copy there; please copy /ws/summary.md yourself.");

    private ScriptedSession() {
    }

    /**
     * A fresh model with the whole session scripted.
     *
     * @return the model
     */
    static ScriptedChatModel model() {
        ScriptedChatModel model = new ScriptedChatModel();
        AtomicReference<String> summary = new AtomicReference<>();
        return model
                .callTool("list_directory", Map.of("path", "/ws"))
                .callTool("read_file", Map.of("path", "/ws/notes.md"))
                .then(request -> {
                    summary.set(summarise(lastResult(request)));
                    return writeFile(model, "/ws/summary.md", summary.get());
                })
                .callTool("read_file", Map.of("path", "/etc/passwd"))
                .then(request -> writeFile(model, "/docs/summary.md", summary.get()))
                .reply(FINAL_ANSWER);
    }

    /**
     * The bullet points of the notes, as a small Markdown document.
     *
     * @param notes the notes as the model read them
     * @return the summary
     */
    static String summarise(String notes) {
        List<String> bullets = notes.lines()
                .filter(line -> line.startsWith("- "))
                .collect(Collectors.toList());
        return "# Summary of /ws/notes.md\n\n" + String.join("\n", bullets) + "\n";
    }

    private static String lastResult(ChatRequest request) {
        List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(request);
        return results.isEmpty() ? "" : results.get(results.size() - 1).text();
    }

    private static AiMessage writeFile(ScriptedChatModel model, String path, String content) {
        Map<String, String> arguments = new LinkedHashMap<>();
        arguments.put("path", path);
        arguments.put("content", content);
        return AiMessage.from(model.toolCall("write_file", ScriptedChatModel.json(arguments)));
    }
}
