package dev.mero.tools;

import dev.langchain4j.invocation.InvocationParameters;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.ToolArguments;
import dev.mero.core.ops.ToolDescriptor;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the {@code @Tool} adapters hand a call to the core: the arguments LangChain4j decoded (a missing one
 * is {@code null}) are checked against the tool's catalogue descriptor and the operation runs.
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
     * Runs a tool of the catalogue.
     *
     * @param operations     the operations bound to the context
     * @param tool           the tool's name
     * @param namesAndValues the arguments as name, value, name, value, ...; a {@code null} value is absent
     * @return the text for the model
     */
    static String call(MeroOperations operations, String tool, Object... namesAndValues) {
        ToolDescriptor descriptor = operations.catalogue().find(tool)
                .orElseThrow(() -> new IllegalStateException("the catalogue has no tool " + tool));
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return operations.call(tool, ToolArguments.of(descriptor, values));
    }
}
