package dev.mero.tools;

import dev.langchain4j.invocation.InvocationParameters;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.ToolResponse;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the {@code @Tool} adapters hand a call to the core: the arguments LangChain4j decoded (a missing one
 * is {@code null}) go through the core's one response path, as in every other binding.
 */
final class ToolCalls {

    private ToolCalls() {
    }

    /**
     * Runs a tool of the catalogue for the caller the invocation parameters name, if any.
     *
     * @param callers        the operations per caller
     * @param parameters     the invocation parameters, or {@code null}
     * @param tool           the tool's name
     * @param namesAndValues the arguments as name, value, name, value, ...; a {@code null} value is absent
     * @return the text for the model
     */
    static String call(CallerOperations callers, InvocationParameters parameters, String tool,
                       Object... namesAndValues) {
        return call(callers.operationsFor(parameters), tool, namesAndValues);
    }

    /**
     * Runs a tool of the catalogue through the core's one response path ({@link MeroOperations#respond}): the
     * result's text, marked as data when untrusted; a refusal or failure is thrown as the library's exception,
     * which {@link MeroToolExecutionErrorHandler} turns into the same {@code Denied: ...} / {@code Error: ...}
     * text with LangChain4j's error flag.
     *
     * @param operations     the operations bound to the context
     * @param tool           the tool's name
     * @param namesAndValues the arguments as name, value, name, value, ...; a {@code null} value is absent
     * @return the text for the model
     */
    static String call(MeroOperations operations, String tool, Object... namesAndValues) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        ToolResponse response = operations.respond(tool, values);
        if (response.failure().isPresent()) {
            throw response.failure().get();
        }
        return response.text();
    }
}
