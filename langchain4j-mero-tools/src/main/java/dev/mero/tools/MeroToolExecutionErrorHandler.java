package dev.mero.tools;

import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.service.tool.ToolErrorContext;
import dev.langchain4j.service.tool.ToolErrorHandlerResult;
import dev.langchain4j.service.tool.ToolExecutionErrorHandler;
import dev.mero.core.MeroToolsException;
import dev.mero.core.error.ToolFailures;
import dev.mero.core.ops.ToolResponse;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the decisions of the mero security layer into tool results the model can read, and lets every
 * other failure propagate.
 *
 * <pre>{@code
 * Agent agent = AiServices.builder(Agent.class)
 *         .chatModel(model)
 *         .tools(new FileTools(context))
 *         .toolExecutionErrorHandler(MeroToolExecutionErrorHandler.create())
 *         .build();
 * }</pre>
 *
 * <p>The handler decides on the exception the tool itself threw: {@link ToolErrorContext#rawError()} (what the
 * tool executor threw; LangChain4j hands the {@code error} argument the <em>cause</em> of it) with only the
 * wrappers that reflection and LangChain4j add removed ({@code InvocationTargetException},
 * {@code ToolExecutionException}, {@code LangChain4jException}), see {@link ToolFailures}. If that exception
 * is a {@link MeroToolsException}, the model receives {@link MeroToolsException#toModelText()}:
 * {@code "Denied: ..."} for a security decision, {@code "Error: ..."} for an ordinary failure (a missing file,
 * a bad argument). LangChain4j marks that result as an error. Only the exception's message reaches the model,
 * never a stack trace or a cause. {@link dev.mero.core.error.ToolError#from(Throwable)} classifies every
 * throwable the same way.
 *
 * <p>Anything else is a real bug and is not shown to the model as if it were a decision, even when it carries
 * a {@link MeroToolsException} as its cause: a {@link RuntimeException} or {@link Error} is rethrown as it is,
 * a checked exception wrapped in a {@link ToolExecutionException}, and the AI-service call fails.
 *
 * <p>Stateless and thread-safe; tools that run concurrently can share one instance.
 */
public final class MeroToolExecutionErrorHandler implements ToolExecutionErrorHandler {

    private static final Logger log = LoggerFactory.getLogger(MeroToolExecutionErrorHandler.class);
    private static final MeroToolExecutionErrorHandler INSTANCE = new MeroToolExecutionErrorHandler();

    /**
     * Creates a handler. {@link #create()} returns a shared instance, which is equivalent.
     */
    public MeroToolExecutionErrorHandler() {
    }

    /**
     * Returns the shared handler.
     *
     * @return the handler
     */
    public static MeroToolExecutionErrorHandler create() {
        return INSTANCE;
    }

    /**
     * Converts a mero failure into a model-facing result or propagates anything else.
     *
     * @param error   what LangChain4j passes: the cause of the exception the executor threw, or that exception;
     *                used only when the context has no raw error
     * @param context the failed call; its {@code rawError()} is the exception as the executor threw it
     * @return {@code "Denied: ..."} or {@code "Error: ..."} for a {@link MeroToolsException}
     * @throws RuntimeException     what the tool threw, when it is an unchecked exception that is not a mero one
     * @throws Error                what the tool threw, when it is an {@code Error}
     * @throws ToolExecutionException wrapping a checked exception the tool threw
     */
    @Override
    public ToolErrorHandlerResult handle(Throwable error, ToolErrorContext context) {
        Throwable raw = context == null ? null : context.rawError();
        Throwable thrown = raw != null ? raw : error;
        if (thrown == null) {
            throw propagated(null, context);
        }
        Optional<MeroToolsException> decision = ToolFailures.decision(thrown);
        if (decision.isPresent()) {
            String text = ToolResponse.failure(decision.get()).text();
            if (log.isDebugEnabled()) {
                log.debug("Tool '{}' returned to the model: {}", toolName(context), text, decision.get());
            }
            return ToolErrorHandlerResult.text(text);
        }
        throw propagated(ToolFailures.thrownByTool(thrown), context);
    }

    private static RuntimeException propagated(Throwable error, ToolErrorContext context) {
        if (error == null) {
            return new IllegalStateException("ToolExecutionErrorHandler was called for tool '" + toolName(context)
                    + "' without an error");
        }
        if (error instanceof RuntimeException unchecked) {
            return unchecked;
        }
        if (error instanceof Error fatal) {
            throw fatal;
        }
        return new ToolExecutionException("Tool '" + toolName(context) + "' failed: " + error, error);
    }

    private static String toolName(ToolErrorContext context) {
        return context == null || context.toolExecutionRequest() == null
                ? "?" : context.toolExecutionRequest().name();
    }
}
