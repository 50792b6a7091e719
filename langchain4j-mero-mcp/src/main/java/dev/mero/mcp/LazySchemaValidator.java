package dev.mero.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import java.util.Map;

/**
 * The SDK's JSON schema validator, loaded when first needed instead of when the server is built: loading it
 * costs a quarter of a second of a cold start, and the server needs it only for the schema of an approval
 * question. The check the SDK makes while building a server and listing tools, that each tool's schemas are
 * valid JSON Schema, is skipped: the catalogue's schemas are fixed, and {@code CatalogueSchemasTest} checks every one of
 * them with this same validator.
 */
final class LazySchemaValidator implements JsonSchemaValidator {

    /** How the SDK names a tool's schema when it checks it (an approval question's schema is still checked). */
    private static final String TOOL_SCHEMA_CONTEXT = "Tool '";

    private volatile JsonSchemaValidator delegate;

    @Override
    public void assertConforms(String context, Map<String, Object> schema) {
        if (context.startsWith(TOOL_SCHEMA_CONTEXT)) {
            return; // the catalogue's tool schemas: checked by CatalogueSchemasTest, not on every start
        }
        delegate().assertConforms(context, schema);
    }

    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
        return delegate().validate(schema, structuredContent);
    }

    @Override
    public ValidationResponse validateSchema(Map<String, Object> schema) {
        return delegate().validateSchema(schema);
    }

    private JsonSchemaValidator delegate() {
        JsonSchemaValidator validator = delegate;
        if (validator == null) {
            validator = McpJsonDefaults.getSchemaValidator(); // synchronized, and the same instance every time
            delegate = validator;
        }
        return validator;
    }
}
