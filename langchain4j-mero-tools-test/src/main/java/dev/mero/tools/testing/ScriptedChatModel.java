package dev.mero.tools.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A {@link ChatModel} that plays a fixed script instead of calling a language model: each request it
 * receives is answered by the next scripted turn. For tests and offline demos only; it never touches the
 * network.
 *
 * <pre>{@code
 * ScriptedChatModel model = new ScriptedChatModel()
 *         .callTool("read_file", Map.of("path", "/ws/notes.md"))
 *         .then(request -> AiMessage.from("The notes say: " + lastToolResults(request).get(0).text()));
 * Agent agent = AiServices.builder(Agent.class).chatModel(model).tools(new FileTools(context)).build();
 * }</pre>
 *
 * <p>A turn that calls tools makes LangChain4j run them and send the results back in the next request; a
 * turn with text only ends the AI-service call. Every request is recorded, so a test can assert what the
 * model was sent. A request after the last turn fails with an {@link IllegalStateException}.
 *
 * <p>Build the script first, then use the model; requests may then arrive from several threads.
 */
public final class ScriptedChatModel implements ChatModel {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Queue<Function<ChatRequest, AiMessage>> turns = new ConcurrentLinkedQueue<>();
    private final Queue<ChatRequest> requests = new ConcurrentLinkedQueue<>();
    private final AtomicInteger callIds = new AtomicInteger();

    /**
     * Creates a model with an empty script.
     */
    public ScriptedChatModel() {
    }

    /**
     * Adds a turn that calls one tool.
     *
     * @param toolName      the tool's name, for example {@code read_file}
     * @param jsonArguments the arguments as a JSON object, for example {@code {"path":"/ws/a.txt"}}
     * @return this model
     */
    public ScriptedChatModel callTool(String toolName, String jsonArguments) {
        return callTools(toolCall(toolName, jsonArguments));
    }

    /**
     * Adds a turn that calls one tool, with arguments given as a map (serialised to JSON).
     *
     * @param toolName  the tool's name
     * @param arguments the arguments; values are serialised with Jackson, in iteration order
     * @return this model
     */
    public ScriptedChatModel callTool(String toolName, Map<String, ?> arguments) {
        return callTool(toolName, json(arguments));
    }

    /**
     * Adds a turn that calls several tools at once, as a model does when it calls tools in parallel.
     *
     * @param calls the calls, built with {@link #toolCall(String, String)}
     * @return this model
     */
    public ScriptedChatModel callTools(ToolExecutionRequest... calls) {
        List<ToolExecutionRequest> list = List.copyOf(Arrays.asList(Objects.requireNonNull(calls, "calls")));
        if (list.isEmpty()) {
            throw new IllegalArgumentException("callTools needs at least one call");
        }
        return then(request -> AiMessage.from(list));
    }

    /**
     * Adds a turn that answers with text, which ends the AI-service call.
     *
     * @param text the answer
     * @return this model
     */
    public ScriptedChatModel reply(String text) {
        Objects.requireNonNull(text, "text");
        return then(request -> AiMessage.from(text));
    }

    /**
     * Adds a turn computed from the request, for example from the tool results it carries.
     *
     * @param turn the function that answers the request
     * @return this model
     */
    public ScriptedChatModel then(Function<ChatRequest, AiMessage> turn) {
        turns.add(Objects.requireNonNull(turn, "turn"));
        return this;
    }

    /**
     * Creates a tool call with a fresh id ({@code call_1}, {@code call_2}, ...).
     *
     * @param toolName      the tool's name
     * @param jsonArguments the arguments as a JSON object
     * @return the call
     */
    public ToolExecutionRequest toolCall(String toolName, String jsonArguments) {
        return ToolExecutionRequest.builder()
                .id("call_" + callIds.incrementAndGet())
                .name(Objects.requireNonNull(toolName, "toolName"))
                .arguments(Objects.requireNonNull(jsonArguments, "jsonArguments"))
                .build();
    }

    /**
     * Serialises tool arguments to a JSON object, in the map's iteration order (use a
     * {@link java.util.LinkedHashMap} for a fixed order of several arguments).
     *
     * @param arguments the arguments
     * @return the JSON text
     */
    public static String json(Map<String, ?> arguments) {
        try {
            return JSON.writeValueAsString(Objects.requireNonNull(arguments, "arguments"));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("Tool arguments cannot be written as JSON: " + arguments, e);
        }
    }

    /**
     * The tool results at the end of a request: those that answer the model's last tool calls.
     *
     * @param request a request the model received
     * @return the results in the order the calls were made (an immutable list), empty if the last message is
     *         not a tool result
     */
    public static List<ToolExecutionResultMessage> lastToolResults(ChatRequest request) {
        List<ChatMessage> messages = Objects.requireNonNull(request, "request").messages();
        int start = messages.size();
        while (start > 0 && messages.get(start - 1) instanceof ToolExecutionResultMessage) {
            start--;
        }
        List<ToolExecutionResultMessage> results = new ArrayList<>();
        for (ChatMessage message : messages.subList(start, messages.size())) {
            results.add((ToolExecutionResultMessage) message);
        }
        return List.copyOf(results);
    }

    /**
     * Answers a request with the next scripted turn.
     *
     * @param request the request
     * @return the turn's message, finishing with {@code TOOL_EXECUTION} if it calls tools, else {@code STOP}
     * @throws IllegalStateException if the script is exhausted
     */
    @Override
    public ChatResponse doChat(ChatRequest request) {
        requests.add(request);
        Function<ChatRequest, AiMessage> turn = turns.poll();
        if (turn == null) {
            throw new IllegalStateException("The script is exhausted: request " + requests.size()
                    + " has no scripted turn");
        }
        AiMessage message = turn.apply(request);
        return ChatResponse.builder()
                .aiMessage(message)
                .finishReason(message.hasToolExecutionRequests() ? FinishReason.TOOL_EXECUTION : FinishReason.STOP)
                .build();
    }

    /**
     * Every request received so far, in order.
     *
     * @return a snapshot of the requests
     */
    public List<ChatRequest> requests() {
        return List.copyOf(requests);
    }

    /**
     * How many scripted turns have not been played yet.
     *
     * @return the number of remaining turns
     */
    public int remainingTurns() {
        return turns.size();
    }
}
