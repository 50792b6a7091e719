package dev.mero.tools;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.invocation.InvocationParameters;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.mero.core.MeroToolsException;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.catalogue.ParameterType;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolParameter;
import dev.mero.core.ops.ToolResponse;
import dev.mero.core.ops.UntrustedContent;
import dev.mero.core.replay.ToolCallReplays;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A LangChain4j {@link ToolProvider} over the core's operations, for {@code AiServices.toolProvider(...)} (and
 * used by {@link MeroTools#configure}):
 * <ul>
 *   <li>offers only the tools the context can ever use ({@link MeroOperations#availableTools()}): no
 *       {@code delete_file} when nothing grants DELETE, no {@code run_command} without allow rules;</li>
 *   <li>publishes each tool as the catalogue describes it, with {@code readOnlyHint}, {@code destructiveHint},
 *       {@code idempotentHint} and {@code openWorldHint} in its metadata;</li>
 *   <li>checks arguments strictly (a value of the wrong JSON type is refused, never coerced);</li>
 *   <li>remembers the results of tools with side effects by tool-call id: a replayed call with the same id,
 *       tool and arguments returns the first result without running its side effect again (bounded memory;
 *       read-only tools simply run again); when the context has a
 *       {@linkplain SecurityContext#replayStore() replay store}, the id is claimed there
 *       ({@link ToolCallReplays}), so a repeat on any instance sharing the store returns the first result;</li>
 *   <li>wraps untrusted content (file text, names, command output, search results) in markers that say it is
 *       data ({@link UntrustedContent});</li>
 *   <li>runs each call for the caller named in the AI-service call's {@link InvocationParameters}
 *       ({@link CallerIdentity}), in a context narrowed to that caller's scopes.</li>
 * </ul>
 * Every call goes through the core's one response path ({@link MeroOperations#respond(String, String)}), so the
 * provider answers exactly as the annotated tools, Spring AI and MCP do. Refusals come back as tool results with
 * {@code isError} and {@code Denied: ...} / {@code Error: ...}; any other exception is a bug and propagates.
 * Thread-safe.
 */
public final class MeroToolProvider implements ToolProvider {

    /** Default for {@link Builder#replayMemory(int)}. */
    public static final int DEFAULT_REPLAY_MEMORY = 1000;

    private final MeroOperations operations;
    private final ReplayMemory replays;
    private final boolean wrapUntrusted;
    private final CallerOperations callers;
    /** The tools of the context itself, asked for on every turn of every chat: built once. */
    private final ToolProviderResult contextTools;

    private MeroToolProvider(Builder builder) {
        this.operations = builder.operations;
        this.replays = new ReplayMemory(builder.replayMemory);
        this.wrapUntrusted = builder.wrapUntrusted;
        this.callers = new CallerOperations(operations);
        this.contextTools = tools(operations);
    }

    /**
     * A provider for a context, with the default limits.
     *
     * @param context the context that decides every call
     */
    public MeroToolProvider(SecurityContext context) {
        this(builder(MeroOperations.forContext(context)));
    }

    /**
     * Starts a builder over operations.
     *
     * @param operations the operations bound to a context
     * @return a new builder
     */
    public static Builder builder(MeroOperations operations) {
        return new Builder(operations);
    }

    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) {
        MeroOperations offered;
        try {
            offered = callers.operationsFor(request == null ? null : request.invocationParameters());
        } catch (MeroToolsException e) {
            // the calls themselves report why; offer what the context offers
            offered = operations;
        }
        return offered == operations ? contextTools : tools(offered);
    }

    private ToolProviderResult tools(MeroOperations offered) {
        ToolProviderResult.Builder result = ToolProviderResult.builder();
        for (ToolDescriptor tool : offered.availableTools()) {
            result.add(specification(tool), executor(tool));
        }
        return result.build();
    }

    /**
     * The LangChain4j specification of a catalogue tool: name, description, parameters and hints.
     *
     * @param tool the descriptor
     * @return the specification
     */
    public static ToolSpecification specification(ToolDescriptor tool) {
        JsonObjectSchema.Builder schema = JsonObjectSchema.builder();
        List<String> required = new ArrayList<>();
        for (ToolParameter parameter : tool.parameters()) {
            schema.addProperty(parameter.name(), element(parameter));
            if (parameter.required()) {
                required.add(parameter.name());
            }
        }
        schema.required(required).additionalProperties(false);
        return ToolSpecification.builder().name(tool.name()).description(tool.description())
                .parameters(schema.build()).metadata(tool.hints().asMetadata()).build();
    }

    /** The JSON Schema element of a parameter: every {@link ParameterType} has its own. */
    private static JsonSchemaElement element(ToolParameter parameter) {
        String description = parameter.description();
        return switch (parameter.type()) {
            case STRING -> JsonStringSchema.builder().description(description).build();
            case INTEGER -> JsonIntegerSchema.builder().description(description).build();
            case NUMBER -> JsonNumberSchema.builder().description(description).build();
            case BOOLEAN -> JsonBooleanSchema.builder().description(description).build();
            case ARRAY -> JsonArraySchema.builder().description(description).build();
            case OBJECT -> JsonObjectSchema.builder().description(description).build();
        };
    }

    private ToolExecutor executor(ToolDescriptor tool) {
        return new ToolExecutor() {
            @Override
            public String execute(ToolExecutionRequest request, Object memoryId) {
                return run(tool, request, null).resultText();
            }

            @Override
            public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
                return run(tool, request, context);
            }
        };
    }

    private ToolExecutionResult run(ToolDescriptor tool, ToolExecutionRequest request, InvocationContext context) {
        String arguments = request.arguments();
        String id = request.id();
        ReplayMemory.Result result;
        try {
            InvocationParameters parameters = context == null ? null : context.invocationParameters();
            if (id == null || id.isBlank() || tool.hints().readOnly()) {
                // a read changes nothing, so running it again is safe and shows what is there now
                result = call(tool, arguments, parameters);
            } else if (operations.context().replayStore().isPresent()) {
                // a store shared by instances: a repeat on any instance returns the first result
                Object memory = context == null ? null : context.chatMemoryId();
                String scope = ToolCallReplays.scope(operations.context().lineage(), memory,
                        CallerOperations.identity(parameters), tool.name(), arguments);
                ToolCallReplays.Result shared = ToolCallReplays.run(operations.context().replayStore().get(), scope,
                        id, ToolCallReplays.DEFAULT_WAIT, () -> {
                            ReplayMemory.Result own = call(tool, arguments, parameters);
                            return new ToolCallReplays.Result(own.text, own.error);
                        });
                result = new ReplayMemory.Result(shared.text(), shared.error());
            } else {
                Object memory = context == null ? null : context.chatMemoryId();
                result = replays.run(memory + "\u0000" + id, tool.name() + '\u0000' + arguments + '\u0000'
                        + CallerOperations.identity(parameters), () -> call(tool, arguments, parameters));
            }
        } catch (MeroToolsException e) {
            result = result(ToolResponse.failure(e));
        }
        return ToolExecutionResult.builder().isError(result.error).resultText(result.text).build();
    }

    private ReplayMemory.Result call(ToolDescriptor tool, String arguments, InvocationParameters parameters) {
        ToolResponse response;
        try {
            response = callers.operationsFor(parameters).respond(tool.name(), arguments);
        } catch (MeroToolsException e) {
            response = ToolResponse.failure(e);
        }
        return result(response);
    }

    private ReplayMemory.Result result(ToolResponse response) {
        return new ReplayMemory.Result(wrapUntrusted ? response.text() : response.unmarkedText(), response.isError());
    }

    /** Builds a {@link MeroToolProvider}. */
    public static final class Builder {

        private final MeroOperations operations;
        private int replayMemory = DEFAULT_REPLAY_MEMORY;
        private boolean wrapUntrusted = true;

        private Builder(MeroOperations operations) {
            this.operations = Objects.requireNonNull(operations, "operations");
        }

        /**
         * Sets how many tool-call results are remembered for replays.
         *
         * @param calls at least 1 (default {@value MeroToolProvider#DEFAULT_REPLAY_MEMORY})
         * @return this builder
         */
        public Builder replayMemory(int calls) {
            if (calls < 1) {
                throw new IllegalArgumentException("replayMemory must be at least 1, was " + calls);
            }
            this.replayMemory = calls;
            return this;
        }

        /**
         * Sets whether untrusted content is wrapped in data markers.
         *
         * @param wrap {@code true} by default
         * @return this builder
         */
        public Builder wrapUntrustedContent(boolean wrap) {
            this.wrapUntrusted = wrap;
            return this;
        }

        /**
         * Builds the provider.
         *
         * @return the provider
         */
        public MeroToolProvider build() {
            return new MeroToolProvider(this);
        }
    }
}
