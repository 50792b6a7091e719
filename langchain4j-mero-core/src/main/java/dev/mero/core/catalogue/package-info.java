/**
 * The tool catalogue: each tool's name, description, parameters, hints and operations
 * ({@link dev.mero.core.catalogue.ToolDescriptor}), the built-in set
 * ({@link dev.mero.core.catalogue.ToolCatalogue}) and the model-facing texts the annotated bindings share
 * ({@code *ToolTexts}). Every binding describes its tools from here, so they stay equal.
 */
package dev.mero.core.catalogue;
