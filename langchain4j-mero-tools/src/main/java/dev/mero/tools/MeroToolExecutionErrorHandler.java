package dev.mero.tools;

import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.service.tool.ToolErrorContext;
import dev.langchain4j.service.tool.ToolErrorHandlerResult;
import dev.langchain4j.service.tool.ToolExecutionErrorHandler;
import dev.mero.core.MeroToolsException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
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
 * <p>If a {@link MeroToolsException} is found anywhere in the cause chain of the failure, the model
 * receives {@link MeroToolsException#toModelText()}: {@code "Denied: ..."} for a security decision,
 * {@code "Error: ..."} for an ordinary failure (a missing file, a bad argument). LangChain4j marks that
 * result as an error. Only the exception's message reaches the model, never a stack trace or a cause.
 *
 * <p>Anything else is a real bug and is not shown to the model as if it were a decision: a
 * {@link RuntimeException} or {@link Error} is rethrown as it is, a checked exception wrapped in a
 * {@link ToolExecutionException}, and the AI-service call fails.
 *
 * <p>The chain is searched from {@link ToolErrorContext#rawError()} as well as from the {@code error}
 * argument, because LangChain4j hands the handler the <em>cause</em> of what the tool threw: a
 * {@code ToolExecutor} that throws a denial with a cause would otherwise show the model that cause.
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
     * @param error   what LangChain4j passes: the cause of the exception the tool threw, or that exception
     * @param context the failed call; its {@code rawError()} is the exception as thrown
     * @return {@code "Denied: ..."} or {@code "Error: ..."} for a {@link MeroToolsException}
     * @throws RuntimeException     the error itself, when it is an unchecked exception that is not a mero one
     * @throws Error                the error itself, when it is an {@code Error}
     * @throws ToolExecutionException wrapping a checked exception that is not a mero one
     */
    @Override
    public ToolErrorHandlerResult handle(Throwable error, ToolErrorContext context) {
        Throwable raw = context == null ? null : context.rawError();
        MeroToolsException decision = meroExceptionIn(raw);
        if (decision == null) {
            decision = meroExceptionIn(error);
        }
        if (decision != null) {
            String text = decision.toModelText();
            if (log.isDebugEnabled()) {
                log.debug("Tool '{}' returned to the model: {}", toolName(context), text, decision);
            }
            return ToolErrorHandlerResult.text(text);
        }
        throw propagated(error != null ? error : raw, context);
    }

    /** The outermost {@link MeroToolsException} in the cause chain, or {@code null}; safe against cycles. */
    private static MeroToolsException meroExceptionIn(Throwable throwable) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = throwable; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof MeroToolsException mero) {
                return mero;
            }
        }
        return null;
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
