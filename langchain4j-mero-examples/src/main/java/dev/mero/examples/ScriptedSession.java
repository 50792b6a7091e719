package dev.mero.examples;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mero.springai.testing.ScriptedSpringChatModel;
import dev.mero.tools.testing.ScriptedChatModel;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * The session the offline workspace examples play instead of a language model: what a model typically does
 * with {@link WorkspaceAgent#TASK}. It looks around and searches, reads the notes, writes a summary built from
 * what it actually read, edits the to-do list after a dry run, runs an allowed command, tries the two things
 * the policy forbids, and puts the copy where it may write instead. The same plan drives the LangChain4j and
 * the Spring AI example.
 */
final class ScriptedSession {

    /** The to-do line the agent ticks off, before and after. */
    static final String RETRO_ITEM_OPEN = "- book the room for the retro";
    /** The to-do line after the edit. */
    static final String RETRO_ITEM_DONE = "- [x] book the room for the retro";

    /** The scripted model's last message, the agent's answer to the user. */
    static final String FINAL_ANSWER = String.join("\n",
            "I summarised the meeting notes into /ws/summary.md (two decisions and two action items) and ticked off",
            "'book the room for the retro' in /ws/todo.txt after checking the diff. wc counts 11 lines in the notes",
            "and 6 in the summary.",
            "Two parts of the request were refused by the security policy, so I did not do them:",
            "- /etc/passwd is outside the folders I may access, so the list of user accounts is not included.",
            "- /docs is read-only for me, so I put the copy in /ws/outbox/summary.md; please move it to /docs.");

    private ScriptedSession() {
    }

    /** One scripted tool call. */
    record Call(String tool, String arguments) {
    }

    /**
     * The plan: each step chooses the next call from the text of the previous tool result.
     *
     * @return the steps, in order; a fresh plan each time (it remembers what it read)
     */
    static List<Function<String, Call>> plan() {
        AtomicReference<String> summary = new AtomicReference<>();
        return List.of(
                previous -> call("list_roots", Map.of()),
                previous -> call("search_text", ordered("path", "/ws", "pattern", "(?i)retro")),
                previous -> call("read_file", Map.of("path", "/ws/notes.md")),
                previous -> {
                    summary.set(summarise(previous));
                    return write("/ws/summary.md", summary.get());
                },
                previous -> call("edit_file", ordered("path", "/ws/todo.txt", "old_text", RETRO_ITEM_OPEN,
                        "new_text", RETRO_ITEM_DONE, "dry_run", true)),
                previous -> call("edit_file", ordered("path", "/ws/todo.txt", "old_text", RETRO_ITEM_OPEN,
                        "new_text", RETRO_ITEM_DONE)),
                previous -> call("run_command", ordered("command", "wc -l notes.md summary.md",
                        "working_directory", "/ws")),
                previous -> call("read_file", Map.of("path", "/etc/passwd")),
                previous -> write("/docs/summary.md", summary.get()),
                previous -> write("/ws/outbox/summary.md", summary.get()));
    }

    /**
     * A fresh LangChain4j model playing the plan.
     *
     * @return the model
     */
    static ScriptedChatModel model() {
        ScriptedChatModel model = new ScriptedChatModel();
        for (Function<String, Call> step : plan()) {
            model.then(request -> {
                Call call = step.apply(lastResult(request));
                return AiMessage.from(model.toolCall(call.tool(), call.arguments()));
            });
        }
        return model.reply(FINAL_ANSWER);
    }

    /**
     * A fresh Spring AI model playing the plan.
     *
     * @return the model
     */
    static ScriptedSpringChatModel springModel() {
        ScriptedSpringChatModel model = new ScriptedSpringChatModel();
        for (Function<String, Call> step : plan()) {
            model.then(prompt -> {
                Call call = step.apply(lastResult(prompt));
                return AssistantMessage.builder().content("")
                        .toolCalls(List.of(model.toolCall(call.tool(), call.arguments()))).build();
            });
        }
        return model.reply(FINAL_ANSWER);
    }

    /**
     * The bullet points of the notes, as a small Markdown document.
     *
     * @param notes the notes as the model read them
     * @return the summary
     */
    static String summarise(String notes) {
        List<String> bullets = notes.lines()
                .map(line -> line.replaceFirst("^\\s*\\d+[:|]\\s?", "")) // a line-numbered view, if any
                .filter(line -> line.startsWith("- "))
                .collect(Collectors.toList());
        return "# Summary of /ws/notes.md\n\n" + String.join("\n", bullets) + "\n";
    }

    private static Call call(String tool, Map<String, ?> arguments) {
        return new Call(tool, ScriptedChatModel.json(arguments));
    }

    private static Call write(String path, String content) {
        return call("write_file", ordered("path", path, "content", content));
    }

    /** Arguments in the order given: name, value, name, value, ... */
    private static Map<String, Object> ordered(Object... namesAndValues) {
        Map<String, Object> arguments = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            arguments.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return arguments;
    }

    private static String lastResult(ChatRequest request) {
        List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(request);
        return results.isEmpty() ? "" : results.get(results.size() - 1).text();
    }

    private static String lastResult(Prompt prompt) {
        var responses = ScriptedSpringChatModel.lastToolResponses(prompt);
        return responses.isEmpty() ? "" : responses.get(responses.size() - 1).responseData();
    }
}
