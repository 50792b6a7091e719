package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.mero.core.catalogue.ParameterType;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolHints;
import dev.mero.core.catalogue.ToolParameter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every parameter type becomes its own LangChain4j JSON Schema element; none is published as another. */
class ParameterSchemaTest {

    @Test
    void everyParameterTypeHasItsOwnSchemaElement() {
        ToolDescriptor.Builder builder = ToolDescriptor.builder().name("typed").description("d")
                .hints(ToolHints.of(true, false, true, false));
        for (ParameterType type : ParameterType.values()) {
            builder.parameter(ToolParameter.required(type.jsonType() + "_value", type, "a " + type.jsonType()));
        }

        ToolSpecification specification = MeroToolProvider.specification(builder.build());

        Map<String, JsonSchemaElement> properties = specification.parameters().properties();
        assertThat(properties.get("string_value")).isInstanceOf(JsonStringSchema.class);
        assertThat(properties.get("integer_value")).isInstanceOf(JsonIntegerSchema.class);
        assertThat(properties.get("boolean_value")).isInstanceOf(JsonBooleanSchema.class);
        assertThat(properties.get("number_value")).isEqualTo(JsonNumberSchema.builder().description("a number")
                .build());
        assertThat(properties.get("array_value")).isEqualTo(JsonArraySchema.builder().description("a array").build());
        assertThat(properties.get("object_value")).isEqualTo(JsonObjectSchema.builder().description("a object")
                .build());
        assertThat(specification.parameters().required()).hasSize(ParameterType.values().length);
        assertThat(specification.parameters().additionalProperties()).isFalse();
    }
}
