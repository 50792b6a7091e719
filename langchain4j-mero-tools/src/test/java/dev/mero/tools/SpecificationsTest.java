package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.catalogue.ParameterType;
import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolParameter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Holds the LangChain4j specifications of the annotated tool classes equal to the core's catalogue. */
class SpecificationsTest {

    @TempDir
    Path temp;

    static List<Object> allToolObjects(SecurityContext context) {
        return MeroTools.forContext(context).tools();
    }

    @Test
    void theAnnotatedToolsAreExactlyTheCatalogue() {
        SecurityContext context = SecurityContext.builder().name("spec")
                .path(PathEntry.of(temp.toString(), "ws", Permission.READ)).build();
        List<ToolSpecification> specs = new ArrayList<>();
        for (Object tools : allToolObjects(context)) {
            specs.addAll(ToolSpecifications.toolSpecificationsFrom(tools));
        }
        assertThat(specs).extracting(ToolSpecification::name).containsExactlyInAnyOrderElementsOf(
                ToolCatalogue.standard().tools().stream().map(ToolDescriptor::name).collect(Collectors.toList()));
        for (ToolSpecification spec : specs) {
            assertEqualToCatalogue(spec);
        }
    }

    static void assertEqualToCatalogue(ToolSpecification spec) {
        ToolDescriptor tool = ToolCatalogue.standard().find(spec.name()).orElseThrow();
        assertThat(spec.description()).as(spec.name()).isEqualTo(tool.description());
        List<String> names = tool.parameters().stream().map(ToolParameter::name).collect(Collectors.toList());
        List<String> required = tool.parameters().stream().filter(ToolParameter::required)
                .map(ToolParameter::name).collect(Collectors.toList());
        if (names.isEmpty()) {
            assertThat(spec.parameters() == null || spec.parameters().properties().isEmpty()).as(spec.name()).isTrue();
            return;
        }
        assertThat(spec.parameters().properties().keySet()).as(spec.name()).containsExactlyElementsOf(names);
        assertThat(spec.parameters().required()).as(spec.name()).containsExactlyInAnyOrderElementsOf(required);
        for (ToolParameter parameter : tool.parameters()) {
            JsonSchemaElement element = spec.parameters().properties().get(parameter.name());
            assertThat(element).as(spec.name() + "." + parameter.name()).isInstanceOf(schemaType(parameter.type()));
            assertThat(description(element)).as(spec.name() + "." + parameter.name())
                    .isEqualTo(parameter.description());
        }
    }

    private static Class<?> schemaType(ParameterType type) {
        switch (type) {
            case STRING:
                return JsonStringSchema.class;
            case INTEGER:
                return JsonIntegerSchema.class;
            default:
                return JsonBooleanSchema.class;
        }
    }

    private static String description(JsonSchemaElement element) {
        if (element instanceof JsonStringSchema s) {
            return s.description();
        }
        if (element instanceof JsonIntegerSchema i) {
            return i.description();
        }
        return ((JsonBooleanSchema) element).description();
    }
}
