package dev.mero.springai;

import dev.mero.core.ops.MeroOperations;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * What Spring AI runs when the model calls a tool it was not given: the core's refusal naming that tool
 * ({@link MeroOperations#unoffered(String)}), as text the model reads, instead of an
 * {@code IllegalStateException} that ends the whole conversation. Never offered to a model. Immutable.
 */
final class UnofferedToolCallback implements ToolCallback {

    private final MeroOperations operations;
    private final String name;
    private final ToolDefinition definition;

    UnofferedToolCallback(MeroOperations operations, String name) {
        this.operations = operations;
        this.name = name;
        this.definition = ToolDefinition.builder().name(name)
                .description("Not a tool of this context: every call is refused.")
                .inputSchema("{\"type\":\"object\",\"properties\":{}}").build();
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    @Override
    public String call(String toolInput) {
        return operations.unoffered(name).text();
    }

    @Override
    public String call(String toolInput, ToolContext toolContext) {
        return call(toolInput);
    }
}
