package dev.mero.springai;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.util.StringUtils;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * Hands each tool call's id to the {@link MeroToolCallback} that runs it. Spring AI passes a callback only
 * the arguments and the {@code ToolContext}, never the call's id, but its {@code ToolCallingManager} holds the
 * model's tool calls: this manager records them for the running thread before it delegates, and a callback
 * takes the first recorded call of its own tool with exactly its arguments (the delegate calls each callback
 * in order, on this thread, with the call's arguments, or {@code {}} when they are blank). A callback run any
 * other way (another manager, another thread, Spring AI's MCP server) finds none and runs without an id.
 * Thread-safe: the record is per thread.
 */
final class ToolCallIds implements ToolCallingManager {

    private static final ThreadLocal<List<AssistantMessage.ToolCall>> PENDING = new ThreadLocal<>();

    private final ToolCallingManager delegate;

    ToolCallIds(ToolCallingManager delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public List<ToolDefinition> resolveToolDefinitions(ToolCallingChatOptions chatOptions) {
        return delegate.resolveToolDefinitions(chatOptions);
    }

    @Override
    public ToolExecutionResult executeToolCalls(Prompt prompt, ChatResponse chatResponse) {
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        if (chatResponse != null) {
            for (Generation generation : chatResponse.getResults()) {
                if (generation.getOutput() != null && generation.getOutput().hasToolCalls()) {
                    calls.addAll(generation.getOutput().getToolCalls());
                }
            }
        }
        List<AssistantMessage.ToolCall> outer = PENDING.get();
        PENDING.set(calls);
        try {
            return delegate.executeToolCalls(prompt, chatResponse);
        } finally {
            if (outer == null) {
                PENDING.remove();
            } else {
                PENDING.set(outer);
            }
        }
    }

    /**
     * Takes the id of the first recorded call of this tool with these arguments on this thread.
     *
     * @param toolName  the tool
     * @param arguments the arguments the callback received
     * @return the id, or {@code null} when no call matches
     */
    static String take(String toolName, String arguments) {
        List<AssistantMessage.ToolCall> calls = PENDING.get();
        if (calls == null) {
            return null;
        }
        for (Iterator<AssistantMessage.ToolCall> it = calls.iterator(); it.hasNext(); ) {
            AssistantMessage.ToolCall call = it.next();
            String passed = StringUtils.hasText(call.arguments()) ? call.arguments() : "{}";
            if (call.name().equals(toolName) && passed.equals(arguments)) {
                it.remove();
                return call.id();
            }
        }
        return null;
    }
}
