package dev.mero.springai;

import dev.mero.core.MeroToolsException;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.ToolDescriptor;
import dev.mero.core.ops.UntrustedContent;
import java.util.Objects;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * One tool of the core's catalogue as a Spring AI {@link ToolCallback}: its name, description and JSON input
 * schema come from the {@link ToolDescriptor}, and a call runs {@link MeroOperations#call(String, String)}.
 *
 * <p>The library's decisions are results, not exceptions: a {@link MeroToolsException} (a refusal or an
 * ordinary failure, malformed arguments included) is returned as its {@link MeroToolsException#toModelText()
 * model text}, {@code Denied: ...} or {@code Error: ...}. The mapping happens here, inside the callback, so it
 * is the same for a {@code ChatClient}, a direct {@link #call(String)} and Spring AI's MCP server exposure, and
 * it does not depend on the application's {@code ToolExecutionExceptionProcessor}. Any other exception is a
 * bug and propagates unchanged. Results are plain text (no JSON encoding of the string); the results of tools
 * that return untrusted content (file text, names, command output, search matches) are put between data
 * markers ({@link UntrustedContent}), as the LangChain4j binding does, unless {@link MeroToolCallbacks} was told
 * otherwise.
 *
 * <p>Instances are immutable and thread-safe; build them with {@link MeroToolCallbacks}.
 */
public final class MeroToolCallback implements ToolCallback {

    private final MeroOperations operations;
    private final ToolDescriptor tool;
    private final ToolDefinition definition;
    private final boolean wrapUntrusted;

    MeroToolCallback(MeroOperations operations, ToolDescriptor tool, boolean wrapUntrusted) {
        this.operations = Objects.requireNonNull(operations, "operations");
        this.tool = Objects.requireNonNull(tool, "tool");
        this.wrapUntrusted = wrapUntrusted;
        this.definition = ToolDefinition.builder()
                .name(tool.name())
                .description(tool.description())
                .inputSchema(tool.jsonSchema())
                .build();
    }

    /**
     * The catalogue entry this callback publishes.
     *
     * @return the descriptor
     */
    public ToolDescriptor descriptor() {
        return tool;
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    /**
     * Runs the tool.
     *
     * @param toolInput the arguments as a JSON object text; {@code null} or blank counts as {@code {}}
     * @return the tool's text, or {@code Denied: ...} / {@code Error: ...} for the library's refusals and
     *         ordinary failures
     */
    @Override
    public String call(String toolInput) {
        try {
            String text = operations.call(tool.name(), toolInput);
            return wrapUntrusted && tool.untrustedOutput() ? UntrustedContent.wrap(tool.name(), text) : text;
        } catch (MeroToolsException e) {
            return e.toModelText();
        }
    }

    /**
     * Runs the tool; the Spring AI tool context is not used (the security context decides everything).
     *
     * @param toolInput   the arguments as a JSON object text
     * @param toolContext ignored
     * @return as {@link #call(String)}
     */
    @Override
    public String call(String toolInput, ToolContext toolContext) {
        return call(toolInput);
    }

    @Override
    public String toString() {
        return "MeroToolCallback{" + tool.name() + "}";
    }
}
