package dev.mero.tools;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.AiServiceTool;
import dev.langchain4j.service.tool.ToolArgumentsErrorHandler;
import dev.langchain4j.service.tool.ToolExecutionErrorHandler;
import dev.langchain4j.service.tool.ToolService;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The one entry point of the LangChain4j binding: everything a context needs, wired in one line.
 *
 * <pre>{@code
 * Agent agent = MeroTools.configure(AiServices.builder(Agent.class).chatModel(model), context).build();
 * }</pre>
 *
 * <p>{@link #forContext(SecurityContext)} returns the parts for a hand-made wiring: the annotated tool objects
 * (for {@code AiServices.tools(...)}; LangChain4j itself converts their arguments, so a number given for a
 * string arrives as text), both error handlers and the {@link MeroToolProvider}, which checks arguments
 * strictly. Immutable and thread-safe.
 */
public final class MeroTools {

    private final MeroOperations operations;
    private final List<Object> tools;
    private final MeroToolExecutionErrorHandler executionErrorHandler = new MeroToolExecutionErrorHandler();
    private final MeroToolArgumentsErrorHandler argumentsErrorHandler;
    private final MeroToolProvider toolProvider;
    private final UnofferedCalls unoffered;

    private MeroTools(MeroOperations operations) {
        this.operations = Objects.requireNonNull(operations, "operations");
        this.tools = operations.context().commandSandbox().available()
                ? List.of(new FileTools(operations), new DirectoryTools(operations), new SearchTools(operations),
                        new CommandTools(operations), new SyncTools(operations))
                // run_command is not offered where no command can run (the sandbox logged why)
                : List.of(new FileTools(operations), new DirectoryTools(operations), new SearchTools(operations),
                        new SyncTools(operations));
        this.argumentsErrorHandler = new MeroToolArgumentsErrorHandler(operations.catalogue());
        this.toolProvider = MeroToolProvider.builder(operations).build();
        this.unoffered = new UnofferedCalls(operations);
    }

    /**
     * The tools and handlers for a context, with the default limits.
     *
     * @param context the context that decides every call
     * @return the parts
     */
    public static MeroTools forContext(SecurityContext context) {
        return new MeroTools(MeroOperations.forContext(context));
    }

    /**
     * The tools and handlers over operations with their own limits or catalogue.
     *
     * @param operations the operations
     * @return the parts
     */
    public static MeroTools forOperations(MeroOperations operations) {
        return new MeroTools(operations);
    }

    /**
     * Wires a context into an AI-service builder: the {@link MeroToolProvider} (only the tools the context can
     * use, strict arguments, replay memory, untrusted content marked, per-call identity), both error
     * handlers, and the answer to a call of a tool that was not offered: the core's refusal naming the tool,
     * flagged as an error (LangChain4j keeps only the text of that answer, so a chat-request transformer,
     * {@link #flagUnofferedCalls(ChatRequest)}, puts the flag back; an application that sets its own
     * {@code chatRequestTransformer} composes it with that one, or such refusals reach the model unflagged).
     *
     * @param builder the builder
     * @param context the context that decides every call
     * @param <T>     the AI-service type
     * @return the same builder
     */
    public static <T> AiServices<T> configure(AiServices<T> builder, SecurityContext context) {
        return forContext(context).applyTo(builder);
    }

    /**
     * Wires these parts into an AI-service builder.
     *
     * @param builder the builder
     * @param <T>     the AI-service type
     * @return the same builder
     */
    public <T> AiServices<T> applyTo(AiServices<T> builder) {
        return builder.toolProvider(toolProvider)
                .toolExecutionErrorHandler(executionErrorHandler)
                .toolArgumentsErrorHandler(argumentsErrorHandler)
                .hallucinatedToolNameStrategy(this::unknownTool)
                .chatRequestTransformer(this::flagUnofferedCalls);
    }

    /**
     * The result for a call of a tool that was not offered: the core's refusal
     * ({@link MeroOperations#unoffered(String)}), naming the tool; a catalogue tool this context cannot use is
     * a denial, any other name an error. Either way the model reads it, flagged as an error, instead of the
     * AI-service call failing.
     *
     * @param request the call
     * @return the result
     */
    ToolExecutionResultMessage unknownTool(ToolExecutionRequest request) {
        return unoffered.answer(request);
    }

    /**
     * The chat-request transformer {@link #applyTo(AiServices)} registers: the refusals of calls to tools that
     * were not offered are sent to the model flagged as errors. An application with a transformer of its own
     * composes the two: {@code .chatRequestTransformer(request -> mine(tools.flagUnofferedCalls(request)))}.
     *
     * @param request the request about to be sent
     * @return the request, with those refusals flagged
     */
    public ChatRequest flagUnofferedCalls(ChatRequest request) {
        return unoffered.markErrors(request);
    }

    /**
     * The tool provider {@link #applyTo(AiServices)} registers.
     *
     * @return the provider
     */
    public MeroToolProvider toolProvider() {
        return toolProvider;
    }

    /**
     * The operations every tool delegates to.
     *
     * @return the operations
     */
    public MeroOperations operations() {
        return operations;
    }

    /**
     * The annotated tool objects, one per tool class; without {@link CommandTools} where the context's command
     * sandbox cannot run on this machine.
     *
     * @return an immutable list
     */
    public List<Object> tools() {
        return tools;
    }

    /**
     * The annotated tools, {@link #tools()} and any of the application's own {@code @Tool} objects, as AI-service
     * tools whose every call first claims its tool-call id in the context's replay store
     * ({@link SecurityContext.Builder#replayStore}): a repeated id, on any instance sharing the store, returns
     * the first result and never runs the action twice. LangChain4j passes no request id to a {@code @Tool}
     * method, so objects given to {@code AiServices.tools(Object...)} cannot claim one; these can:
     * <pre>{@code
     * AiServices.builder(Agent.class).chatModel(model).tools(mero.replayedTools(new MyTools()))
     *         .toolExecutionErrorHandler(mero.executionErrorHandler()).build();
     * }</pre>
     * Without a replay store in the context the tools simply run.
     *
     * @param own more annotated tool objects, claimed in the same context's store
     * @return the tools, for {@code AiServices.tools(List<AiServiceTool>)}
     */
    public List<AiServiceTool> replayedTools(Object... own) {
        List<Object> objects = new ArrayList<>(tools);
        objects.addAll(List.of(own));
        List<AiServiceTool> replayed = new ArrayList<>();
        for (Object object : objects) {
            for (AiServiceTool tool : ToolService.findTools(object)) {
                replayed.add(tool.toBuilder().toolExecutor(new ReplayedToolExecutor(operations, tool.toolExecutor()))
                        .build());
            }
        }
        return List.copyOf(replayed);
    }

    /**
     * The handler that turns the library's refusals into {@code Denied: ...} / {@code Error: ...} results.
     *
     * @return the execution error handler
     */
    public ToolExecutionErrorHandler executionErrorHandler() {
        return executionErrorHandler;
    }

    /**
     * The handler that turns bad arguments into {@code Error: Invalid input: ... Expected ...} results.
     *
     * @return the arguments error handler
     */
    public ToolArgumentsErrorHandler argumentsErrorHandler() {
        return argumentsErrorHandler;
    }
}
