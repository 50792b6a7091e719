package dev.mero.tools;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.ToolResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Answers a model that calls a tool it was not offered (LangChain4j's hallucinated-tool-name strategy) with
 * the core's refusal, which names the tool, and keeps that refusal an error. LangChain4j 1.19 keeps only the
 * text of what the strategy returns and sends it with {@code isError=false}; the request transformer puts the
 * flag back on exactly the results this strategy produced before each request reaches the model. Bounded
 * memory, thread-safe.
 */
final class UnofferedCalls {

    private static final int MAX_REMEMBERED = 4096;

    private final MeroOperations operations;
    private final Set<String> answered = ConcurrentHashMap.newKeySet();

    UnofferedCalls(MeroOperations operations) {
        this.operations = operations;
    }

    /** The strategy: the refusal of a call to a tool that was not offered. */
    ToolExecutionResultMessage answer(ToolExecutionRequest request) {
        ToolResponse response = operations.unoffered(request.name());
        if (answered.size() >= MAX_REMEMBERED) {
            answered.clear();
        }
        answered.add(key(request.id(), request.name(), response.text()));
        return ToolExecutionResultMessage.builder().id(request.id()).toolName(request.name())
                .isError(response.isError()).text(response.text()).build();
    }

    /** The request transformer: the strategy's results are sent to the model as errors. */
    ChatRequest markErrors(ChatRequest request) {
        if (answered.isEmpty()) {
            return request;
        }
        List<ChatMessage> messages = new ArrayList<>(request.messages());
        boolean changed = false;
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof ToolExecutionResultMessage result && !Boolean.TRUE.equals(result.isError())
                    && answered.contains(key(result.id(), result.toolName(), result.text()))) {
                messages.set(i, result.toBuilder().isError(true).build());
                changed = true;
            }
        }
        return changed ? request.toBuilder().messages(messages).build() : request;
    }

    private static String key(String id, String tool, String text) {
        return id + '\u0000' + tool + '\u0000' + text;
    }
}
