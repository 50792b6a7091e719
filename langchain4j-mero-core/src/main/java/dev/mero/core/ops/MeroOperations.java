package dev.mero.core.ops;

import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.catalogue.ToolDescriptor;

import dev.mero.core.InvalidInputException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.metrics.MeroMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Function;

/**
 * The operations of the catalogue bound to one {@link SecurityContext}: what every binding (LangChain4j,
 * Spring AI, MCP) calls. Arguments in, model-ready text out; a {@link dev.mero.core.MeroToolsException} for
 * refusals ({@code Denied: ...}) and ordinary failures ({@code Error: ...}); any other exception is a bug and
 * propagates.
 *
 * <pre>{@code
 * MeroOperations ops = MeroOperations.forContext(context);
 * String text = ops.call("read_file", "{\"path\": \"/ws/notes.md\"}");
 * }</pre>
 *
 * <p>Every operation is guarded by the context before it touches the file system, re-checks what it opens,
 * opens files and directories without following links, and is bounded ({@link OperationLimits}). Immutable
 * and thread-safe.
 */
public final class MeroOperations {

    private final SecurityContext context;
    private final ToolCatalogue catalogue;
    private final OperationLimits limits;
    private final MeroMetrics metrics;
    /** Every tool offered, in catalogue order and then the application's own: its descriptor and its operation. */
    private final Map<String, Registered> tools;

    /** The application's own tools, each bound again to a narrowed caller's context. */
    private final List<OwnTool> own;

    /** A tool declared once: what the model sees of it and what runs it. */
    private record Registered(ToolDescriptor descriptor, ToolOperation operation) {
    }

    /** An application's tool as registered: its descriptor and how it binds to a context. */
    private record OwnTool(ToolDescriptor descriptor, Function<SecurityContext, ToolOperation> binding) {
    }

    private MeroOperations(Builder builder) {
        this.context = builder.context;
        this.catalogue = builder.catalogue;
        this.limits = builder.limits;
        this.metrics = builder.metrics;
        Map<String, Registered> table = new LinkedHashMap<>();
        for (ToolDescriptor tool : catalogue.tools()) {
            ToolOperation operation = StandardTools.bind(tool.name(), context, limits, metrics);
            if (operation != null) {
                table.put(tool.name(), new Registered(tool, operation));
            }
        }
        this.own = List.copyOf(builder.own);
        for (OwnTool tool : own) {
            ToolOperation operation = Objects.requireNonNull(tool.binding().apply(context), "operation");
            if (table.putIfAbsent(tool.descriptor().name(), new Registered(tool.descriptor(), operation)) != null) {
                throw new IllegalArgumentException("Tool " + Messages.quote(tool.descriptor().name())
                        + " is registered twice: give the application's tool a name of its own");
            }
        }
        this.tools = Collections.unmodifiableMap(table);
    }

    /**
     * The operations for a context, with the standard catalogue and the default limits.
     *
     * @param context the context that decides every call
     * @return the operations
     */
    public static MeroOperations forContext(SecurityContext context) {
        return builder(context).build();
    }

    /**
     * Starts a builder, for other limits or a narrower catalogue.
     *
     * @param context the context that decides every call
     * @return a new builder
     */
    public static Builder builder(SecurityContext context) {
        return new Builder(context);
    }

    /** The same tools, limits and catalogue, bound to a context narrowed from this one. */
    MeroOperations narrowedTo(SecurityContext narrowed) {
        Builder builder = builder(narrowed).limits(limits).catalogue(catalogue).metrics(metrics);
        own.forEach(tool -> builder.tool(tool.descriptor(), tool.binding()));
        return builder.build();
    }

    /**
     * The context every call is decided by.
     *
     * @return the context
     */
    public SecurityContext context() {
        return context;
    }

    /**
     * The catalogue these operations implement.
     *
     * @return the catalogue
     */
    public ToolCatalogue catalogue() {
        return catalogue;
    }

    /**
     * The limits every operation keeps.
     *
     * @return the limits
     */
    public OperationLimits limits() {
        return limits;
    }

    /**
     * Where tool calls and command runs are counted.
     *
     * @return the metrics ({@link MeroMetrics#none()} unless the builder set some)
     */
    public MeroMetrics metrics() {
        return metrics;
    }

    /**
     * The tools this context can ever use, in catalogue order: each needs its permissions granted by some
     * mount, its scopes held, and {@code run_command} needs an allow rule and a command sandbox that works on
     * this machine ({@link dev.mero.core.command.CommandSandbox#available()}; where it does not, the sandbox
     * logs why once, for the operator). {@code list_roots} is always there.
     *
     * @return an immutable list
     */
    public List<ToolDescriptor> availableTools() {
        List<ToolDescriptor> available = new ArrayList<>();
        for (Registered registered : tools.values()) {
            ToolDescriptor tool = registered.descriptor();
            if (usable(tool)) {
                available.add(tool);
            }
        }
        return List.copyOf(available);
    }

    /**
     * Runs a tool with validated arguments.
     *
     * @param toolName  the tool's name
     * @param arguments arguments validated against that tool's descriptor
     * @return the text for the model
     * @throws InvalidInputException               for an unknown tool or arguments of another tool
     * @throws dev.mero.core.MeroToolsException for every refusal and ordinary failure
     */
    public String call(String toolName, ToolArguments arguments) {
        Objects.requireNonNull(arguments, "arguments");
        ToolOperation operation = operation(toolName);
        if (!arguments.tool().name().equals(toolName)) {
            throw new IllegalArgumentException("arguments of " + arguments.tool().name() + " given to " + toolName);
        }
        return WeakerPathOpens.during(context, () -> operation.run(arguments));
    }

    /**
     * Parses a model's JSON arguments and runs the tool.
     *
     * @param toolName      the tool's name
     * @param jsonArguments the JSON object text; {@code null} or blank counts as {@code {}}
     * @return the text for the model
     * @throws InvalidInputException               for an unknown tool or malformed arguments
     * @throws dev.mero.core.MeroToolsException for every refusal and ordinary failure
     */
    public String call(String toolName, String jsonArguments) {
        operation(toolName);
        ToolDescriptor tool = tools.get(toolName).descriptor();
        return call(toolName, ToolArguments.parse(tool, jsonArguments));
    }

    /**
     * Turns a model's tool call into what the model reads: the one response path of every binding. A name
     * that is not a tool of this catalogue is refused by name ({@link #unoffered(String)}); otherwise the JSON
     * arguments are checked and the tool runs, decided by the context (a tool the context cannot use is
     * refused there, with the reason: the missing permission, scope or command rule). Refusals and
     * ordinary failures become error responses ({@code Denied: ...} / {@code Error: ...}), results of tools
     * with untrusted output are marked as data.
     *
     * @param toolName      the tool the model called
     * @param jsonArguments the JSON object text; {@code null} or blank counts as {@code {}}
     * @return the response; any exception other than a {@link MeroToolsException} is a bug and propagates
     */
    public ToolResponse respond(String toolName, String jsonArguments) {
        return respond(toolName, tool -> ToolArguments.parse(tool, jsonArguments));
    }

    /**
     * As {@link #respond(String, String)}, for arguments a framework already decoded (a {@code null} value is
     * absent).
     *
     * @param toolName  the tool the model called
     * @param arguments the arguments by JSON name
     * @return the response
     */
    public ToolResponse respond(String toolName, Map<String, ?> arguments) {
        Objects.requireNonNull(arguments, "arguments");
        return respond(toolName, tool -> ToolArguments.of(tool, arguments));
    }

    private ToolResponse respond(String toolName, Function<ToolDescriptor, ToolArguments> parse) {
        ToolDescriptor tool = toolName == null || !tools.containsKey(toolName) ? null
                : tools.get(toolName).descriptor();
        if (tool == null) {
            return unoffered(toolName);
        }
        long start = System.nanoTime();
        String outcome = MeroMetrics.FAILED;
        try {
            ToolResponse response = ToolResponse.success(tool, call(tool.name(), parse.apply(tool)));
            outcome = MeroMetrics.SUCCESS;
            return response;
        } catch (MeroToolsException e) {
            outcome = outcome(e);
            return ToolResponse.failure(e);
        } finally {
            metrics.toolCall(tool.name(), outcome, Duration.ofNanos(System.nanoTime() - start));
        }
    }

    private static String outcome(MeroToolsException failure) {
        return failure.isDenial() ? MeroMetrics.DENIED : MeroMetrics.FAILED;
    }

    /**
     * The refusal of a call to a tool that was not offered, naming it: {@code Denied: ...} for a catalogue
     * tool (this context, or the caller it was narrowed for, cannot use it), {@code Error: ...} for any other
     * name. Bindings answer a model that calls a tool it was not given with this, instead of failing the
     * conversation.
     *
     * @param toolName the name the model called, may be {@code null}
     * @return the error response
     */
    public ToolResponse unoffered(String toolName) {
        if (toolName != null && tools.containsKey(toolName)) {
            metrics.toolCall(toolName, MeroMetrics.DENIED, Duration.ZERO);
            return ToolResponse.failure(new MeroToolsException("the tool " + Messages.quote(toolName)
                    + " is not available to you in context " + Messages.quote(context.name()) + ": nothing here "
                    + "grants what it needs. Use the tools you were given; list_roots shows what you may do where."));
        }
        metrics.toolCall(MeroMetrics.UNKNOWN_TOOL, MeroMetrics.FAILED, Duration.ZERO);
        return ToolResponse.failure(new InvalidInputException("there is no tool " + Messages.quote(toolName)
                + " available to you. Use one of the tools you were given; list_roots shows what you may do "
                + "where."));
    }

    private ToolOperation operation(String toolName) {
        ToolOperation operation = toolName == null || !tools.containsKey(toolName) ? null
                : tools.get(toolName).operation();
        if (operation == null) {
            StringJoiner names = new StringJoiner(", ");
            availableTools().forEach(tool -> names.add(tool.name()));
            throw new InvalidInputException("Invalid input: there is no tool " + Messages.quote(toolName)
                    + ". Expected one of: " + names + ".");
        }
        return operation;
    }

    private boolean usable(ToolDescriptor tool) {
        Set<Operation> needed = EnumSet.noneOf(Operation.class);
        needed.addAll(tool.operations());
        if (needed.size() > 1) {
            // creating parents is incidental to writing: a writer without that scope can still write
            needed.remove(Operation.DIRECTORY_CREATE);
        }
        for (Operation operation : needed) {
            if (!context.scopes().permits(operation.scope())) {
                return false;
            }
        }
        for (Permission permission : tool.permissions()) {
            if (!grantedSomewhere(permission)) {
                return false;
            }
        }
        // a command tool is offered only where a command can run: an allow rule, and a sandbox that works here
        return !tool.operations().contains(Operation.COMMAND_EXECUTE)
                || !context.commandPolicy().allowRules().isEmpty() && context.commandSandbox().available();
    }

    private boolean grantedSomewhere(Permission permission) {
        if (!context.permissions().contains(permission)) {
            return false;
        }
        for (PathEntry entry : context.paths()) {
            if (entry.allowed().contains(permission) && !entry.denied().contains(permission)) {
                return true;
            }
        }
        return false;
    }

    /** Builds {@link MeroOperations}. */
    public static final class Builder {

        private final SecurityContext context;
        private ToolCatalogue catalogue = ToolCatalogue.standard();
        private OperationLimits limits = OperationLimits.defaults();
        private MeroMetrics metrics = MeroMetrics.none();
        private final List<OwnTool> own = new ArrayList<>();

        private Builder(SecurityContext context) {
            this.context = Objects.requireNonNull(context, "context");
        }

        /**
         * Sets the limits.
         *
         * @param limits the limits (default {@link OperationLimits#defaults()})
         * @return this builder
         */
        public Builder limits(OperationLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * Sets the catalogue; tools it lacks are not offered or run.
         *
         * @param catalogue the catalogue (default {@link ToolCatalogue#standard()})
         * @return this builder
         */
        public Builder catalogue(ToolCatalogue catalogue) {
            this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
            return this;
        }

        /**
         * Sets where tool calls ({@link MeroMetrics#toolCall}) and command runs ({@link MeroMetrics#sandboxRun})
         * are counted; operations narrowed for a caller count in the same place.
         *
         * @param metrics the metrics (default {@link MeroMetrics#none()})
         * @return this builder
         */
        public Builder metrics(MeroMetrics metrics) {
            this.metrics = Objects.requireNonNull(metrics, "metrics");
            return this;
        }

        /**
         * Builds the operations.
         *
         * @return the operations
         */
        /**
         * Registers the application's own tool, declared once: its descriptor (name, description, parameters,
         * operations, from which its permissions follow, and hints) and the operation that runs it. It is offered
         * and run like a catalogue tool, by every binding built on these operations: offered only where the
         * context grants its operations' scopes and permissions, its arguments validated against the descriptor,
         * its refusals and failures answered as the built-in tools' are. The operation decides nothing itself: it
         * calls the context it is bound to ({@link SecurityContext#guard}) before it touches anything; a caller
         * narrowed from these operations binds it again to the narrowed context.
         *
         * @param descriptor the tool as the model sees it; its name must differ from every catalogue tool's
         * @param binding    binds the tool to a context: what runs it there, given arguments validated against the
         *                   descriptor
         * @return this builder
         */
        public Builder tool(ToolDescriptor descriptor, Function<SecurityContext, ToolOperation> binding) {
            own.add(new OwnTool(Objects.requireNonNull(descriptor, "descriptor"),
                    Objects.requireNonNull(binding, "binding")));
            return this;
        }

        public MeroOperations build() {
            return new MeroOperations(this);
        }
    }
}
