package dev.mero.core.ops;

/**
 * What runs a tool for one context: validated arguments in, model-ready text out. The built-in tools implement it;
 * an application registers its own with {@link MeroOperations.Builder#tool(dev.mero.core.catalogue.ToolDescriptor,
 * ToolOperation)}.
 */
@FunctionalInterface
public interface ToolOperation {

    /**
     * Runs the operation.
     *
     * @param arguments arguments validated against the tool's descriptor
     * @return the text for the model
     * @throws dev.mero.core.MeroToolsException for refusals and ordinary failures
     */
    String run(ToolArguments arguments);
}
