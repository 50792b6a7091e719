package dev.mero.examples;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.ops.UntrustedContent;
import dev.mero.tools.DelegationTools;
import dev.mero.tools.MeroToolExecutionErrorHandler;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * A manager agent and two workers ({@code delegate_task}). The manager mounts {@code /ws}, {@code /docs} and
 * {@code /drafts}; each worker runs with a context narrowed from the manager's: the {@code reader} may only
 * read, the {@code writer} may write only in its own folder, {@code /drafts}. The writer is refused a write into
 * {@code /ws}; its answer carries the {@code Denied: ...} text back to the manager, which sends it to
 * {@code /drafts} instead.
 */
final class ManagerAgent {

    /** What the user asks the manager to do. */
    static final String TASK = "Collect the action items from /ws/notes.md and save them as /ws/action-items.md.";
    /** The manager's final answer in the offline session. */
    static final String FINAL_ANSWER = String.join("\n",
            "The action items are saved in /drafts/action-items.md.",
            "The writer may not write into /ws (the policy refused it), so please move the file there yourself.");

    private static final String SYSTEM_MESSAGE = "You are a manager agent. You have no file tools of your own: "
            + "hand each piece of work to a worker with delegate_task. The reader may only read files; the "
            + "writer may write only in /drafts. A worker's answer that contains 'Denied:' means the security "
            + "policy refused it something: do not ask for the same thing again, find another way or tell the user.";

    private ManagerAgent() {
    }

    /**
     * Runs the example.
     *
     * @param root       an existing, empty directory for the workspace
     * @param models     which model drives the agents
     * @param transcript where the session is shown
     * @return the manager's final answer
     * @throws IOException if the workspace cannot be created
     */
    static String run(Path root, ModelSelection models, Transcript transcript) throws IOException {
        DemoWorkspace workspace = DemoWorkspace.create(root);
        Path drafts = Files.createDirectories(root.resolve("drafts"));
        SecurityContext manager = SecurityContext.builder()
                .name("manager")
                .path(PathEntry.of(workspace.workspace().toString(), "ws", Permission.READ, Permission.WRITE))
                .path(PathEntry.of(workspace.docs().toString(), "docs", Permission.READ))
                .path(PathEntry.of(drafts.toString(), "drafts", Permission.READ, Permission.WRITE))
                .auditLog(AuditLog.builder().sink(transcript.auditSink()).build())
                .build();
        DelegationTools delegation = DelegationTools.builder(manager)
                .worker("reader", "reads files and reports what they say",
                        narrowing -> narrowing.permissions(Permission.READ),
                        context -> worker(context, models.chatModel(ManagerAgent::readerScript), transcript))
                .worker("writer", "writes files, only in /drafts",
                        narrowing -> narrowing.paths("ws", "drafts").allow("ws", Permission.READ),
                        context -> worker(context, models.chatModel(ManagerAgent::writerScript), transcript))
                .build();
        transcript.context(manager);
        transcript.context(delegation.workerContext("reader"));
        transcript.context(delegation.workerContext("writer"));
        AiServices<Assistant> builder = AiServices.builder(Assistant.class)
                .chatModel(models.chatModel(ManagerAgent::managerScript))
                .systemMessage(SYSTEM_MESSAGE)
                .tools(delegation)
                .toolExecutionErrorHandler(new MeroToolExecutionErrorHandler());
        Assistant assistant = Assistants.transcribed(builder, transcript, "manager").build();
        transcript.user(TASK);
        String answer = assistant.chat(TASK);
        transcript.answer("Manager", answer);
        return answer;
    }

    private static DelegationTools.Worker worker(SecurityContext context, ChatModel model, Transcript transcript) {
        Assistant assistant = Assistants.create(model, context, transcript, context.name());
        return task -> {
            String answer = assistant.chat(task);
            transcript.answer("[" + context.name() + "] answers", answer);
            return answer;
        };
    }

    /**
     * The manager's offline session: ask the reader, hand its list to the writer, and when the writer was
     * refused, send it to {@code /drafts}.
     *
     * @return the model
     */
    static ScriptedChatModel managerScript() {
        ScriptedChatModel model = new ScriptedChatModel();
        AtomicReference<String> items = new AtomicReference<>();
        return model
                .then(request -> delegate(model, "reader", "List the action items in /ws/notes.md, one per line."))
                .then(request -> {
                    items.set(answerOf(lastResult(request)));
                    return delegate(model, "writer", "Save these action items as /ws/action-items.md:\n" + items.get());
                })
                .then(request -> lastResult(request).contains("Denied:")
                        ? delegate(model, "writer", "/ws is not yours to write. Save these action items as "
                                + "/drafts/action-items.md instead:\n" + items.get())
                        : AiMessage.from("The action items are saved in /ws/action-items.md."))
                .reply(FINAL_ANSWER);
    }

    /**
     * The reader's offline session: read the notes, answer with their action items.
     *
     * @return the model
     */
    static ScriptedChatModel readerScript() {
        return new ScriptedChatModel()
                .callTool("read_file", Map.of("path", "/ws/notes.md"))
                .then(request -> AiMessage.from(actionItems(lastResult(request))));
    }

    /**
     * The writer's offline session over its two tasks: it writes where it is told; the first write is
     * refused and it says so, quoting the refusal; the second lands.
     *
     * @return the model
     */
    static ScriptedChatModel writerScript() {
        ScriptedChatModel model = new ScriptedChatModel();
        return model
                .then(request -> write(model, "/ws/action-items.md", itemsIn(lastUserText(request))))
                .then(request -> AiMessage.from("I could not save /ws/action-items.md. " + lastResult(request)))
                .then(request -> write(model, "/drafts/action-items.md", itemsIn(lastUserText(request))))
                .then(request -> AiMessage.from("Saved the action items as /drafts/action-items.md."));
    }

    private static AiMessage write(ScriptedChatModel model, String path, String content) {
        Map<String, String> arguments = new LinkedHashMap<>();
        arguments.put("path", path);
        arguments.put("content", content);
        return AiMessage.from(model.toolCall("write_file", ScriptedChatModel.json(arguments)));
    }

    private static AiMessage delegate(ScriptedChatModel model, String worker, String task) {
        Map<String, String> arguments = new LinkedHashMap<>();
        arguments.put("worker", worker);
        arguments.put("task", task);
        return AiMessage.from(model.toolCall("delegate_task", ScriptedChatModel.json(arguments)));
    }

    private static String actionItems(String notes) {
        List<String> items = notes.lines()
                .dropWhile(line -> !line.startsWith("## Action items"))
                .filter(line -> line.startsWith("- "))
                .collect(Collectors.toList());
        return String.join("\n", items);
    }

    /** The worker's answer: what follows "Worker '...' answered:", without the data markers around it. */
    private static String answerOf(String delegateResult) {
        String answer = delegateResult.substring(delegateResult.indexOf('\n') + 1);
        return UntrustedContent.unwrap(answer).orElse(answer);
    }

    private static String lastUserText(ChatRequest request) {
        return request.messages().stream()
                .filter(message -> message instanceof UserMessage)
                .map(message -> ((UserMessage) message).singleText())
                .reduce((first, second) -> second).orElse("");
    }

    /** The lines of a task after its first one: the items to save. */
    private static String itemsIn(String task) {
        return task.substring(task.indexOf('\n') + 1) + "\n";
    }

    private static String lastResult(ChatRequest request) {
        List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(request);
        return results.isEmpty() ? "" : results.get(results.size() - 1).text();
    }
}
