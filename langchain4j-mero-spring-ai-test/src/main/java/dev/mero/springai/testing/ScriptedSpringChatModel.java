package dev.mero.springai.testing;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * A Spring AI {@link ChatModel} that plays a fixed script instead of calling a language model: each prompt
 * it receives is answered by the next scripted turn. For tests and offline demos only; it never touches the
 * network.
 *
 * <pre>{@code
 * ScriptedSpringChatModel model = new ScriptedSpringChatModel()
 *         .callTool("read_file", "{\"path\":\"/ws/notes.md\"}")
 *         .then(prompt -> new AssistantMessage("The notes say: " + lastToolResponses(prompt).get(0).responseData()));
 * String answer = ChatClient.create(model).prompt().user("go").tools(MeroToolCallbacks.forContext(context))
 *         .call().content();
 * }</pre>
 *
 * <p>A turn that calls tools makes Spring AI's tool loop ({@code ChatClient}'s tool-calling advisor) run them
 * and send the results back in the next prompt; a turn with text only ends the call. Every prompt is
 * recorded, so a test can assert what the model was sent. A prompt after the last turn fails with an
 * {@link IllegalStateException}. Build the script first, then use the model.
 */
public final class ScriptedSpringChatModel implements ChatModel {

    private final Queue<Function<Prompt, AssistantMessage>> turns = new ConcurrentLinkedQueue<>();
    private final Queue<Prompt> prompts = new ConcurrentLinkedQueue<>();
    private final AtomicInteger callIds = new AtomicInteger();

    /**
     * Creates a model with an empty script.
     */
    public ScriptedSpringChatModel() {
    }

    /**
     * Adds a turn that calls one tool.
     *
     * @param toolName      the tool's name, for example {@code read_file}
     * @param jsonArguments the arguments as a JSON object, for example {@code {"path":"/ws/a.txt"}}
     * @return this model
     */
    public ScriptedSpringChatModel callTool(String toolName, String jsonArguments) {
        AssistantMessage.ToolCall call = toolCall(toolName, jsonArguments);
        return then(prompt -> AssistantMessage.builder().content("").toolCalls(List.of(call)).build());
    }

    /**
     * Adds a turn that answers with text, which ends the call.
     *
     * @param text the answer
     * @return this model
     */
    public ScriptedSpringChatModel reply(String text) {
        return then(prompt -> new AssistantMessage(text));
    }

    /**
     * Adds a turn computed from the prompt it answers, for a session that reacts to what the tools returned.
     *
     * @param turn the turn; may call tools (build them with {@link #toolCall(String, String)}) or answer
     * @return this model
     */
    public ScriptedSpringChatModel then(Function<Prompt, AssistantMessage> turn) {
        turns.add(turn);
        return this;
    }

    /**
     * A tool call with a fresh id, for a turn built with {@link #then(Function)}.
     *
     * @param toolName      the tool's name
     * @param jsonArguments the arguments as a JSON object text
     * @return the call
     */
    public AssistantMessage.ToolCall toolCall(String toolName, String jsonArguments) {
        return new AssistantMessage.ToolCall("call_" + callIds.incrementAndGet(), "function", toolName,
                jsonArguments);
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        prompts.add(prompt);
        Function<Prompt, AssistantMessage> turn = turns.poll();
        if (turn == null) {
            throw new IllegalStateException("The script has no turn left for prompt " + prompts.size());
        }
        return new ChatResponse(List.of(new Generation(turn.apply(prompt))));
    }

    /**
     * Tool-calling options, so that {@code ChatClient} attaches the request's tool callbacks to the prompt.
     *
     * @return empty tool-calling options
     */
    @Override
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    /**
     * Every prompt received so far, in order.
     *
     * @return a snapshot
     */
    public List<Prompt> prompts() {
        return List.copyOf(prompts);
    }

    /**
     * The tool results at the end of a prompt: what the model reads after its last tool calls.
     *
     * @param prompt a prompt the model received
     * @return the responses of the trailing tool-response message, or an empty list
     */
    public static List<ToolResponseMessage.ToolResponse> lastToolResponses(Prompt prompt) {
        List<Message> messages = prompt.getInstructions();
        if (!messages.isEmpty() && messages.get(messages.size() - 1) instanceof ToolResponseMessage last) {
            return List.copyOf(last.getResponses());
        }
        return List.of();
    }
}
