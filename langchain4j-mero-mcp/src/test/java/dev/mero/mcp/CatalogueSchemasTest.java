package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.catalogue.ToolDescriptor;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every tool of the catalogue has an input schema that the SDK's validator accepts as JSON Schema 2020-12: the
 * check the SDK would make on every start, which {@link LazySchemaValidator} leaves to this test.
 */
class CatalogueSchemasTest {

    @Test
    void everyCatalogueToolSchemaIsValidJsonSchema() {
        JsonSchemaValidator validator = McpJsonDefaults.getSchemaValidator();
        // the jar's validator, on Jackson 2 (the test class path also has the Jackson 3 one, through Spring AI)
        assertThat(validator.getClass().getName()).contains(".jackson2.");
        List<ToolDescriptor> tools = ToolCatalogue.standard().tools();

        assertThat(tools).isNotEmpty();
        for (ToolDescriptor descriptor : tools) {
            McpSchema.Tool tool = new ToolBinding(descriptor, null).tool(ServerProcess.MAPPER);
            JsonSchemaValidator.ValidationResponse response = validator.validateSchema(tool.inputSchema());
            assertThat(response.valid()).as("%s: %s", tool.name(), response.errorMessage()).isTrue();
        }
    }

    @Test
    void theLazyValidatorStillChecksOtherSchemasAndContent() {
        LazySchemaValidator lazy = new LazySchemaValidator();
        Map<String, Object> schema = Map.of("type", "object", "properties", Map.of("n", Map.of("type", "integer")),
                "required", List.of("n"));

        assertThat(lazy.validate(schema, Map.of("n", 3)).valid()).isTrue();
        assertThat(lazy.validate(schema, Map.of("n", "three")).valid()).isFalse();
        assertThat(lazy.validateSchema(Map.of("type", 7)).valid()).isFalse();
        org.assertj.core.api.Assertions.assertThatThrownBy(() ->
                        lazy.assertConforms("ElicitRequest requestedSchema", Map.of("type", 7)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
