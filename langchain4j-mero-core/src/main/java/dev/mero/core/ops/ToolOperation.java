package dev.mero.core.ops;

/** One operation of the catalogue bound to a context: validated arguments in, model-ready text out. */
@FunctionalInterface
interface ToolOperation {

    /**
     * Runs the operation.
     *
     * @param arguments arguments validated against the tool's descriptor
     * @return the text for the model
     * @throws dev.mero.core.MeroToolsException for refusals and ordinary failures
     */
    String run(ToolArguments arguments);
}
