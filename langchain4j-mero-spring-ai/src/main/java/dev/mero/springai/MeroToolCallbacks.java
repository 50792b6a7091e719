package dev.mero.springai;

import dev.mero.core.SecurityContext;
import dev.mero.core.ops.CallerNarrowing;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.catalogue.ToolDescriptor;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.resolution.ToolCallbackResolver;

/**
 * The Spring AI entry point: every tool a {@link SecurityContext} can ever use, as {@link MeroToolCallback}s.
 *
 * <pre>{@code
 * ToolCallbackProvider tools = MeroToolCallbacks.forContext(context);
 * String answer = ChatClient.create(chatModel).prompt().user("Summarise /ws/notes.md").tools(tools).call().content();
 * }</pre>
 *
 * <p>The tool list is {@link MeroOperations#availableTools()}: no {@code delete_file} when nothing grants
 * DELETE, no {@code run_command} without an allowed-command rule. Declare it as a {@code @Bean} to expose the
 * same tools through Spring AI's MCP server. Immutable and thread-safe.
 */
public final class MeroToolCallbacks implements ToolCallbackProvider {

    private final MeroOperations operations;
    private final List<MeroToolCallback> callbacks;

    private MeroToolCallbacks(MeroOperations operations, boolean wrapUntrusted) {
        this.operations = operations;
        CallerNarrowing callers = new CallerNarrowing(operations);
        this.callbacks = operations.availableTools().stream()
                .map(tool -> new MeroToolCallback(callers, tool, wrapUntrusted))
                .collect(Collectors.toUnmodifiableList());
    }

    /**
     * The tools of a context, with the default limits.
     *
     * @param context the security context that decides every call
     * @return the callbacks
     */
    public static MeroToolCallbacks forContext(SecurityContext context) {
        return forOperations(MeroOperations.forContext(Objects.requireNonNull(context, "context")));
    }

    /**
     * The tools of already configured operations (limits, catalogue).
     *
     * @param operations the operations
     * @return the callbacks
     */
    public static MeroToolCallbacks forOperations(MeroOperations operations) {
        return forOperations(operations, true);
    }

    /**
     * The tools of already configured operations, choosing whether untrusted content is marked as data.
     *
     * @param operations    the operations
     * @param wrapUntrusted {@code true} (the default elsewhere) to put file text, names, command output and
     *                      search matches between data markers; {@code false} for plain results
     * @return the callbacks
     */
    public static MeroToolCallbacks forOperations(MeroOperations operations, boolean wrapUntrusted) {
        return new MeroToolCallbacks(Objects.requireNonNull(operations, "operations"), wrapUntrusted);
    }

    /**
     * The operations every callback calls.
     *
     * @return the operations
     */
    public MeroOperations operations() {
        return operations;
    }

    /**
     * The callbacks, in catalogue order.
     *
     * @return an immutable list
     */
    public List<MeroToolCallback> callbacks() {
        return callbacks;
    }

    /**
     * The callback of one tool.
     *
     * @param toolName the tool's name, for example {@code read_file}
     * @return the callback, or empty when the context can never use that tool
     */
    public Optional<MeroToolCallback> find(String toolName) {
        return callbacks.stream().filter(callback -> callback.descriptor().name().equals(toolName)).findFirst();
    }

    /**
     * A resolver that finds these callbacks by name and answers every other name with a callback that refuses:
     * the core's refusal naming the tool ({@code Denied: ...} for a catalogue tool this context cannot use,
     * {@code Error: ...} for any other name). With it a model that calls a tool it was not given reads why,
     * instead of Spring AI ending the request with {@code IllegalStateException: No ToolCallback found}.
     *
     * @return the resolver; it never returns {@code null}
     */
    public ToolCallbackResolver toolCallbackResolver() {
        return name -> find(name).<ToolCallback>map(callback -> callback)
                .orElseGet(() -> new UnofferedToolCallback(operations, name));
    }

    /**
     * Spring AI's tool-calling manager with {@link #toolCallbackResolver()} as its fallback, for a
     * {@code ChatClient} (or a {@code ToolCallingManager} bean) whose model may call a tool it was not given.
     * It also hands each tool call's id to the callback that runs it: when the context has a replay store
     * ({@code SecurityContext.Builder.replayStore}), a repeated id on any instance sharing the store returns
     * the first result and never runs the action twice (Spring AI passes no id to {@code ToolCallback.call},
     * so callbacks run by any other manager have none and simply run):
     * <pre>{@code
     * ChatClient client = ChatClient.builder(chatModel, ObservationRegistry.NOOP, null, null,
     *         ToolCallingAdvisor.builder().toolCallingManager(tools.toolCallingManager())).build();
     * }</pre>
     *
     * @return a new manager
     */
    public ToolCallingManager toolCallingManager() {
        return new ToolCallIds(DefaultToolCallingManager.builder().toolCallbackResolver(toolCallbackResolver())
                .resolutionFallbackEnabled(true).build());
    }

    @Override
    public ToolCallback[] getToolCallbacks() {
        return callbacks.toArray(new ToolCallback[0]);
    }

    @Override
    public String toString() {
        return "MeroToolCallbacks" + callbacks.stream().map(MeroToolCallback::descriptor)
                .map(ToolDescriptor::name).collect(Collectors.toList());
    }
}
