package dev.mero.tools;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.service.tool.ToolArgumentsErrorHandler;
import dev.langchain4j.service.tool.ToolErrorContext;
import dev.langchain4j.service.tool.ToolErrorHandlerResult;
import dev.mero.core.InvalidInputException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;
import dev.mero.core.error.ToolFailures;
import dev.mero.core.ops.ToolArguments;
import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.catalogue.ToolDescriptor;
import java.util.Objects;
import java.util.Optional;

/**
 * Turns arguments LangChain4j could not decode (malformed JSON, a missing primitive, a value of the wrong type)
 * into a tool result the model can retry with, {@code Error: Invalid input: <what>. Expected <how to call the
 * tool>}, instead of failing the whole AI-service call (LangChain4j's default rethrows).
 *
 * <pre>{@code
 * AiServices.builder(Agent.class)
 *         .tools(new FileTools(context))
 *         .toolExecutionErrorHandler(new MeroToolExecutionErrorHandler())
 *         .toolArgumentsErrorHandler(new MeroToolArgumentsErrorHandler())
 *         .build();
 * }</pre>
 *
 * <p>For a tool of the {@link ToolCatalogue}, the raw arguments are checked again with the catalogue's strict
 * rules ({@link ToolArguments#parse}) so that the model reads exactly what is wrong; the text never contains a
 * stack trace, a Java class name or a host path. Stateless and thread-safe.
 */
public final class MeroToolArgumentsErrorHandler implements ToolArgumentsErrorHandler {

    private final ToolCatalogue catalogue;

    /** Creates a handler for the tools of the standard catalogue (and any other tool, described generically). */
    public MeroToolArgumentsErrorHandler() {
        this(ToolCatalogue.standard());
    }

    /**
     * Creates a handler that describes the tools of a catalogue.
     *
     * @param catalogue the catalogue whose descriptors give the {@code Expected ...} hints
     */
    public MeroToolArgumentsErrorHandler(ToolCatalogue catalogue) {
        this.catalogue = Objects.requireNonNull(catalogue, "catalogue");
    }

    /**
     * Describes the bad arguments for the model.
     *
     * @param error   the cause LangChain4j passes
     * @param context the failed call
     * @return {@code Error: Invalid input: ... Expected ...}
     */
    @Override
    public ToolErrorHandlerResult handle(Throwable error, ToolErrorContext context) {
        Throwable raw = context == null ? null : context.rawError();
        Optional<MeroToolsException> decision = raw == null ? Optional.empty() : ToolFailures.decision(raw);
        if (decision.isEmpty() && error != null) {
            decision = ToolFailures.decision(error);
        }
        if (decision.isPresent()) {
            return ToolErrorHandlerResult.text(decision.get().toModelText());
        }
        ToolExecutionRequest request = context == null ? null : context.toolExecutionRequest();
        String name = request == null ? null : request.name();
        Optional<ToolDescriptor> tool = catalogue.find(name);
        if (tool.isPresent()) {
            try {
                ToolArguments.parse(tool.get(), request.arguments());
            } catch (InvalidInputException invalid) {
                return ToolErrorHandlerResult.text(invalid.toModelText());
            }
            return ToolErrorHandlerResult.text(new InvalidInputException("Invalid input: the arguments could not be "
                    + "used. Expected " + tool.get().argumentHint() + ".").toModelText());
        }
        return ToolErrorHandlerResult.text(new InvalidInputException("Invalid input: the arguments of "
                + Messages.quote(name) + " could not be read. Expected a JSON object with the tool's parameters, "
                + "each of the type its schema gives.").toModelText());
    }
}
