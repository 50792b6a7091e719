package dev.mero.springai;

import dev.mero.core.MeroToolsException;
import dev.mero.core.ops.CallerNarrowing;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.ops.ToolResponse;
import dev.mero.core.replay.ReplayStore;
import dev.mero.core.replay.ToolCallReplays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * One tool of the core's catalogue as a Spring AI {@link ToolCallback}: its name, description and JSON input
 * schema come from the {@link ToolDescriptor}, and a call goes through the core's one response path,
 * {@link MeroOperations#respond(String, String)}, exactly as in the LangChain4j and MCP bindings.
 *
 * <p>The library's decisions are results, not exceptions: a refusal or an ordinary failure (malformed arguments
 * included) is returned as {@code Denied: ...} or {@code Error: ...}. The mapping happens inside the callback, so
 * it is the same for a {@code ChatClient}, a direct {@link #call(String)} and Spring AI's MCP server exposure, and
 * it does not depend on the application's {@code ToolExecutionExceptionProcessor}. Any other exception is a bug
 * and propagates unchanged. Results are plain text (no JSON encoding of the string); the results of tools that
 * return untrusted content (file text, names, diffs, command output, search matches) are put between data
 * markers ({@link dev.mero.core.ops.UntrustedContent}), unless {@link MeroToolCallbacks} was told otherwise.
 *
 * <p>A call narrows itself to the caller its {@link ToolContext} names, with the same keys and rules as
 * LangChain4j's {@code CallerIdentity}: {@value CallerNarrowing#CALLER} (a string) and
 * {@value CallerNarrowing#SCOPES} (a collection of strings). The call then runs in a context narrowed to that
 * caller's name and scopes; a caller whose scopes reach beyond the context's is refused with {@code Denied:}.
 *
 * <p>Instances are immutable and thread-safe; build them with {@link MeroToolCallbacks}.
 */
public final class MeroToolCallback implements ToolCallback {

    private final CallerNarrowing callers;
    private final ToolDescriptor tool;
    private final ToolDefinition definition;
    private final boolean wrapUntrusted;

    MeroToolCallback(CallerNarrowing callers, ToolDescriptor tool, boolean wrapUntrusted) {
        this.callers = Objects.requireNonNull(callers, "callers");
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
     * Runs the tool in the callbacks' own context.
     *
     * @param toolInput the arguments as a JSON object text; {@code null} or blank counts as {@code {}}
     * @return the tool's text, or {@code Denied: ...} / {@code Error: ...} for the library's refusals and
     *         ordinary failures
     */
    @Override
    public String call(String toolInput) {
        return call(toolInput, null);
    }

    /**
     * Runs the tool for the caller the tool context names, if any.
     *
     * @param toolInput   the arguments as a JSON object text
     * @param toolContext the Spring AI tool context; its {@value CallerNarrowing#CALLER} and
     *                    {@value CallerNarrowing#SCOPES} entries narrow the call, other entries are ignored
     * @return as {@link #call(String)}
     */
    @Override
    public String call(String toolInput, ToolContext toolContext) {
        Map<String, Object> values = toolContext == null ? null : toolContext.getContext();
        String id = ToolCallIds.take(tool.name(), toolInput);
        Optional<ReplayStore> store = id == null || id.isBlank() || tool.hints().readOnly() ? Optional.empty()
                : callers.base().context().replayStore();
        if (store.isEmpty()) {
            return run(toolInput, values).text();
        }
        // a call id from MeroToolCallbacks.toolCallingManager(): claimed once across the instances sharing the store
        String scope = ToolCallReplays.scope(callers.base().context().lineage(), null, CallerNarrowing.identity(values),
                tool.name(), toolInput);
        return ToolCallReplays.run(store.get(), scope, id, ToolCallReplays.DEFAULT_WAIT,
                () -> run(toolInput, values)).text();
    }

    private ToolCallReplays.Result run(String toolInput, Map<String, Object> toolContext) {
        ToolResponse response;
        try {
            response = callers.operationsFor(toolContext).respond(tool.name(), toolInput);
        } catch (MeroToolsException e) {
            response = ToolResponse.failure(e);
        }
        return new ToolCallReplays.Result(wrapUntrusted ? response.text() : response.unmarkedText(),
                response.isError());
    }

    @Override
    public String toString() {
        return "MeroToolCallback{" + tool.name() + "}";
    }
}
