package dev.mero.tools;

import dev.langchain4j.invocation.InvocationParameters;
import dev.mero.core.ops.CallerNarrowing;
import dev.mero.core.ops.MeroOperations;

/**
 * Per-call identity for the LangChain4j binding: the operations a call runs with, for the caller its
 * {@link InvocationParameters} name ({@link CallerIdentity}), as the core's {@link CallerNarrowing} decides
 * for every binding. Thread-safe.
 */
final class CallerOperations {

    private final CallerNarrowing narrowing;

    CallerOperations(MeroOperations operations) {
        this.narrowing = new CallerNarrowing(operations);
    }

    /** The operations for the caller the parameters name, or this binding's own when they name none. */
    MeroOperations operationsFor(InvocationParameters parameters) {
        return narrowing.operationsFor(parameters == null ? null : parameters.asMap());
    }

    static String identity(InvocationParameters parameters) {
        return CallerNarrowing.identity(parameters == null ? null : parameters.asMap());
    }
}
