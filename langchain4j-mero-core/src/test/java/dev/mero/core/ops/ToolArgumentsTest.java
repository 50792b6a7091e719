package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.InvalidInputException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolArgumentsTest {

    private final ToolDescriptor readFile = ToolCatalogue.standard().find("read_file").orElseThrow();
    private final ToolDescriptor editFile = ToolCatalogue.standard().find("edit_file").orElseThrow();

    @Test
    void parsesStringsIntegersAndBooleans() {
        ToolArguments args = ToolArguments.parse(readFile, "{\"path\": \"/ws/a.txt\", \"offset\": 3}");
        assertThat(args.string("path")).isEqualTo("/ws/a.txt");
        assertThat(args.optionalInt("offset")).hasValue(3);
        assertThat(args.optionalInt("limit")).isEmpty();
        ToolArguments edit = ToolArguments.parse(editFile,
                "{\"path\":\"a\",\"old_text\":\"x\",\"new_text\":\"\",\"replace_all\":true}");
        assertThat(edit.optionalBoolean("replace_all")).contains(true);
        assertThat(edit.optionalBoolean("dry_run")).isEmpty();
        assertThat(edit.asMap()).containsOnlyKeys("path", "old_text", "new_text", "replace_all");
    }

    @Test
    void nullCountsAsAbsentAndBlankAsEmptyObject() {
        assertThat(ToolArguments.parse(readFile, "{\"path\":\"a\",\"offset\":null}").optionalInt("offset"))
                .isEmpty();
        ToolDescriptor listRoots = ToolCatalogue.standard().find("list_roots").orElseThrow();
        assertThat(ToolArguments.parse(listRoots, null).asMap()).isEmpty();
        assertThat(ToolArguments.parse(listRoots, "  ").asMap()).isEmpty();
    }

    @Test
    void refusesMissingRequiredArgumentsWithTheSeedFormat() {
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{}"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Invalid input: the argument 'path' is missing. Expected a JSON object for read_file "
                        + "like {\"path\": string (required), \"offset\": integer (optional), \"limit\": integer "
                        + "(optional)} and no other keys.");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\": null}"))
                .hasMessageStartingWith("Invalid input: the argument 'path' is missing. Expected ");
    }

    @Test
    void refusesWrongTypesInsteadOfCoercing() {
        for (String json : List.of("{\"path\": {\"a\":1}}", "{\"path\": [\"a\"]}", "{\"path\": 5}",
                "{\"path\": true}")) {
            assertThatThrownBy(() -> ToolArguments.parse(readFile, json))
                    .as(json).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("the argument 'path' must be a JSON string, not ")
                    .hasMessageContaining(". Expected ");
        }
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\":\"a\",\"offset\":\"5\"}"))
                .hasMessageContaining("'offset' must be a JSON integer, not string");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\":\"a\",\"offset\":5.5}"))
                .hasMessageContaining("'offset' must be a JSON integer, not number with a fraction");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\":\"a\",\"offset\":99999999999}"))
                .hasMessageContaining("out of range");
        assertThatThrownBy(() -> ToolArguments.parse(editFile,
                "{\"path\":\"a\",\"old_text\":\"x\",\"new_text\":\"y\",\"replace_all\":\"true\"}"))
                .hasMessageContaining("'replace_all' must be a JSON boolean, not string");
    }

    @Test
    void refusesUnknownKeysMalformedJsonTrailingContentAndNonObjects() {
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\":\"a\",\"mode\":\"x\"}"))
                .hasMessageStartingWith("Invalid input: unknown argument 'mode'. Expected ");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\":"))
                .hasMessageStartingWith("Invalid input: the arguments are not valid JSON");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\":\"a\"} {\"path\":\"b\"}"))
                .hasMessageStartingWith("Invalid input: the arguments are not valid JSON");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "[\"a\"]"))
                .hasMessageStartingWith("Invalid input: the arguments are a JSON array, not an object");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\":\"a\",\"path\":\"b\"}"))
                .hasMessageStartingWith("Invalid input: the arguments are not valid JSON");
    }

    @Test
    void checksDecodedValuesTheSameWay() {
        Map<String, Object> values = new HashMap<>();
        values.put("path", "a");
        values.put("offset", 2L);
        values.put("limit", null);
        ToolArguments args = ToolArguments.of(readFile, values);
        assertThat(args.optionalInt("offset")).hasValue(2);
        assertThat(args.optionalInt("limit")).isEmpty();
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", Map.of("x", 1))))
                .hasMessageContaining("'path' must be a JSON string, not object");
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", "a", "offset", 1.5)))
                .hasMessageContaining("'offset' must be a JSON integer, not number");
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", "a", "x", 1)))
                .hasMessageContaining("unknown argument 'x'");
    }

    @Test
    void equalArgumentsAreEqual() {
        assertThat(ToolArguments.parse(readFile, "{\"path\":\"a\",\"offset\":1}"))
                .isEqualTo(ToolArguments.of(readFile, Map.of("path", "a", "offset", 1)))
                .hasSameHashCodeAs(ToolArguments.of(readFile, Map.of("path", "a", "offset", 1)));
    }
}
