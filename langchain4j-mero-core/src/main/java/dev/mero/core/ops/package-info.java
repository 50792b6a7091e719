/**
 * The operations layer: one framework-neutral definition per tool. {@link dev.mero.core.catalogue.ToolCatalogue}
 * describes every tool for every binding (name, description, parameters, permissions, scopes, hints), and
 * {@link dev.mero.core.ops.MeroOperations} runs them against a {@link dev.mero.core.SecurityContext}: arguments
 * in ({@link dev.mero.core.ops.ToolArguments}, checked strictly), model-ready text out, a
 * {@link dev.mero.core.MeroToolsException} for refusals. LangChain4j, Spring AI and MCP bindings are thin
 * adapters over it.
 */
package dev.mero.core.ops;
