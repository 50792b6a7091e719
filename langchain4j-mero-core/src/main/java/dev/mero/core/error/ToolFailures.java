package dev.mero.core.error;

import dev.mero.core.MeroToolsException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one classification of a failed tool call that every binding and {@link ToolError#from(Throwable)}
 * share: which exception the tool itself threw, and whether that is a decision of the library.
 *
 * <pre>{@code
 * Optional<MeroToolsException> decision = ToolFailures.decision(thrown);
 * String text = decision.map(MeroToolsException::toModelText).orElseThrow(() -> bugOf(thrown));
 * }</pre>
 *
 * <p>Only the wrappers that reflection and the agent framework add around what a tool threw are removed:
 * {@link InvocationTargetException}, {@link UndeclaredThrowableException}, and LangChain4j's own
 * {@code dev.langchain4j.exception.ToolExecutionException} and {@code LangChain4jException} (matched by exact
 * class name, so the core does not depend on the framework). Any other exception is what the tool threw,
 * whatever its cause: a bug ({@link RuntimeException}, {@link java.io.IOException}, {@link AssertionError})
 * that happens to carry a {@link MeroToolsException} as its cause is still a bug, and must propagate rather
 * than be shown to the model as a decision.
 *
 * <p>Stateless and thread-safe.
 */
public final class ToolFailures {

    /** How many wrappers are removed at most; a longer (or cyclic) chain of wrappers is itself treated as a bug. */
    public static final int MAX_WRAPPERS = 8;

    private static final Set<String> FRAMEWORK_WRAPPERS = Set.of(
            "dev.langchain4j.exception.ToolExecutionException",
            "dev.langchain4j.exception.LangChain4jException");

    private ToolFailures() {
    }

    /**
     * The exception the tool itself threw: {@code failure} with the reflection and framework wrappers removed.
     * A wrapper without a cause is returned as it is (it was thrown, not added).
     *
     * @param failure what the framework caught
     * @return the innermost non-wrapper, or the last wrapper when the chain of wrappers is longer than
     *         {@value #MAX_WRAPPERS}
     */
    public static Throwable thrownByTool(Throwable failure) {
        Objects.requireNonNull(failure, "failure");
        Throwable current = failure;
        for (int depth = 0; depth < MAX_WRAPPERS && isWrapper(current); depth++) {
            Throwable inner = current instanceof InvocationTargetException invocation
                    ? invocation.getTargetException() : current.getCause();
            if (inner == null || inner == current) {
                return current;
            }
            current = inner;
        }
        return current;
    }

    /**
     * The library's decision behind a failure, if the tool threw one: {@link #thrownByTool(Throwable)} when it
     * is a {@link MeroToolsException}, empty for anything else (a bug).
     *
     * @param failure what the framework caught
     * @return the decision, or empty for a bug
     */
    public static Optional<MeroToolsException> decision(Throwable failure) {
        return thrownByTool(failure) instanceof MeroToolsException mero ? Optional.of(mero) : Optional.empty();
    }

    /**
     * Tells whether an exception is only a wrapper that reflection or the agent framework put around what a
     * tool threw.
     *
     * @param failure an exception
     * @return {@code true} for the exact wrapper types listed in the class description
     */
    public static boolean isWrapper(Throwable failure) {
        return failure instanceof InvocationTargetException
                || failure instanceof UndeclaredThrowableException
                || failure != null && FRAMEWORK_WRAPPERS.contains(failure.getClass().getName());
    }
}
