package dev.mero.core.ops;

import dev.mero.core.catalogue.ParameterType;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolHints;
import dev.mero.core.catalogue.ToolParameter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.InvalidInputException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every JSON type a parameter can have is read strictly, from JSON text and from decoded values alike. */
class ParameterTypesTest {

    private final ToolDescriptor tool = ToolDescriptor.builder().name("typed").description("d")
            .parameter(ToolParameter.optional("ratio", ParameterType.NUMBER, "a number"))
            .parameter(ToolParameter.optional("items", ParameterType.ARRAY, "an array"))
            .parameter(ToolParameter.optional("options", ParameterType.OBJECT, "an object"))
            .hints(ToolHints.of(true, false, true, false)).build();

    @Test
    void theSchemaNamesEveryType() {
        assertThat(Arrays.stream(ParameterType.values()).map(ParameterType::jsonType))
                .containsExactly("string", "integer", "boolean", "number", "array", "object");
        assertThat(tool.jsonSchema()).contains("\"ratio\":{\"type\":\"number\"", "\"items\":{\"type\":\"array\"",
                "\"options\":{\"type\":\"object\"");
    }

    @Test
    void jsonValuesOfTheRightTypeAreRead() {
        Map<String, Object> values = ToolArguments.parse(tool,
                "{\"ratio\":2,\"items\":[1,\"a\",null],\"options\":{\"k\":[true]}}").asMap();

        assertThat(values.get("ratio")).isEqualTo(2.0);
        assertThat(values.get("items")).isEqualTo(Arrays.asList(1, "a", null));
        assertThat(values.get("options")).isEqualTo(Map.of("k", List.of(true)));
        assertThat(ToolArguments.parse(tool, "{\"ratio\":0.5}").asMap().get("ratio")).isEqualTo(0.5);
        assertThatThrownBy(() -> ((List<Object>) values.get("items")).add("x"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((Map<String, Object>) values.get("options")).put("x", 1))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void decodedValuesOfTheRightTypeAreReadAndCopied() {
        List<Object> items = new ArrayList<>(Arrays.asList("a", null));
        Map<String, Object> options = new HashMap<>();
        options.put("k", null);

        Map<String, Object> values = ToolArguments.of(tool, Map.of("ratio", 3, "items", items, "options", options))
                .asMap();
        items.add("later");
        options.put("later", 1);

        assertThat(values.get("ratio")).isEqualTo(3.0);
        assertThat(values.get("items")).isEqualTo(Arrays.asList("a", null));
        assertThat(values.get("options")).isEqualTo(Collections.singletonMap("k", null));
        assertThatThrownBy(() -> ((List<Object>) values.get("items")).add("x"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((Map<String, Object>) values.get("options")).put("x", 1))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void valuesOfAnotherTypeAreRefusedNotCoerced() {
        assertThatThrownBy(() -> ToolArguments.parse(tool, "{\"ratio\":\"2\"}")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'ratio' must be a JSON number, not string");
        assertThatThrownBy(() -> ToolArguments.parse(tool, "{\"items\":{}}"))
                .hasMessageContaining("'items' must be a JSON array, not object");
        assertThatThrownBy(() -> ToolArguments.parse(tool, "{\"options\":[]}"))
                .hasMessageContaining("'options' must be a JSON object, not array");
        assertThatThrownBy(() -> ToolArguments.of(tool, Map.of("ratio", "2")))
                .hasMessageContaining("'ratio' must be a JSON number, not string");
        assertThatThrownBy(() -> ToolArguments.of(tool, Map.of("items", Map.of())))
                .hasMessageContaining("'items' must be a JSON array, not object");
        assertThatThrownBy(() -> ToolArguments.of(tool, Map.of("options", List.of())))
                .hasMessageContaining("'options' must be a JSON object, not array");
    }

    @Test
    void aTimeoutWithoutAKnownWaitSaysInTime() {
        assertThat(ApprovalTimeoutException.noDecisionWithin("WRITE: /ws/a\n", "c", null)).hasMessage(
                "Approval of 'WRITE: /ws/a\\n' timed out in context 'c': nobody decided in time, so the action was "
                        + "not run.");
        assertThat(ApprovalTimeoutException.noDecisionWithin("X", "c", Duration.ofMinutes(2)).getMessage())
                .contains("within 2m,");
        assertThat(ApprovalTimeoutException.noDecisionWithin("X", "c", null).errorCode()).isEqualTo("approval_timeout");
    }
}
