package dev.mero.core.ops;

import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.catalogue.ToolDescriptor;

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

    @Test
    void integersAreAcceptedUpToTheIntRangeAndRefusedBeyondIt() {
        assertThat(ToolArguments.parse(readFile, "{\"path\":\"a\",\"offset\":2147483647}").optionalInt("offset"))
                .hasValue(Integer.MAX_VALUE);
        assertThat(ToolArguments.parse(readFile, "{\"path\":\"a\",\"offset\":-2147483648}").optionalInt("offset"))
                .hasValue(Integer.MIN_VALUE);
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\":\"a\",\"offset\":2147483648}"))
                .hasMessageStartingWith("Invalid input: the argument 'offset' is 2147483648, which is out of range. "
                        + "Expected ");
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", "a", "offset", -2147483649L)))
                .hasMessageContaining("the argument 'offset' is -2147483649, which is out of range");
        assertThat(ToolArguments.of(readFile, Map.of("path", "a", "offset", (short) 7)).optionalInt("offset"))
                .hasValue(7);
        assertThat(ToolArguments.of(readFile, Map.of("path", "a", "offset", (byte) 8)).optionalInt("offset"))
                .hasValue(8);
        assertThat(ToolArguments.of(readFile, Map.of("path", "a", "offset", java.math.BigInteger.TEN))
                .optionalInt("offset")).hasValue(10);
    }

    @Test
    void namesTheJsonTypeThatWasSentInsteadOfTheExpectedOne() {
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\": {\"a\":1}}"))
                .hasMessageContaining("'path' must be a JSON string, not object.");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\": [\"a\"]}"))
                .hasMessageContaining("'path' must be a JSON string, not array.");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\": 5}"))
                .hasMessageContaining("'path' must be a JSON string, not integer.");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\": 5.5}"))
                .hasMessageContaining("'path' must be a JSON string, not number with a fraction.");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\": true}"))
                .hasMessageContaining("'path' must be a JSON string, not boolean.");
        assertThatThrownBy(() -> ToolArguments.parse(editFile,
                "{\"path\":\"a\",\"old_text\":\"x\",\"new_text\":\"y\",\"dry_run\":1}"))
                .hasMessageContaining("'dry_run' must be a JSON boolean, not integer.");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "\"a\""))
                .hasMessageStartingWith("Invalid input: the arguments are a JSON string, not an object. Expected ");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "7"))
                .hasMessageStartingWith("Invalid input: the arguments are a JSON integer, not an object.");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "1.5"))
                .hasMessageStartingWith("Invalid input: the arguments are a JSON number with a fraction, not an object.");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "false"))
                .hasMessageStartingWith("Invalid input: the arguments are a JSON boolean, not an object.");
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "null"))
                .hasMessageStartingWith("Invalid input: the arguments are a JSON null, not an object.");
    }

    @Test
    void namesTheJavaTypeOfADecodedValueOfTheWrongType() {
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", new StringBuilder("a"))))
                .hasMessageContaining("'path' must be a JSON string, not string.");
        // the same words as for the JSON text {"path": 3}, so that a binding that hands decoded values reads the same
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", 3)))
                .hasMessageContaining("'path' must be a JSON string, not integer.");
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", 3L)))
                .hasMessageContaining("'path' must be a JSON string, not integer.");
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", 2.5)))
                .hasMessageContaining("'path' must be a JSON string, not number with a fraction.");
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", Boolean.TRUE)))
                .hasMessageContaining("'path' must be a JSON string, not boolean.");
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", List.of("a"))))
                .hasMessageContaining("'path' must be a JSON string, not array.");
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", new String[] {"a"})))
                .hasMessageContaining("'path' must be a JSON string, not array.");
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", new Object())))
                .hasMessageContaining("'path' must be a JSON string, not object.");
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("path", "a", "offset", "3")))
                .hasMessageContaining("'offset' must be a JSON integer, not string.");
        assertThatThrownBy(() -> ToolArguments.of(editFile,
                Map.of("path", "a", "old_text", "x", "new_text", "y", "replace_all", "yes")))
                .hasMessageContaining("'replace_all' must be a JSON boolean, not string.");
        assertThat(ToolArguments.of(editFile,
                Map.of("path", "a", "old_text", "x", "new_text", "y", "replace_all", false))
                .optionalBoolean("replace_all")).contains(false);
        assertThatThrownBy(() -> ToolArguments.of(readFile, Map.of("offset", 1)))
                .hasMessageStartingWith("Invalid input: the argument 'path' is missing. Expected ");
    }

    @Test
    void aMalformedTextIsDescribedBrieflyWithoutEchoingALongInput() {
        String longKey = "k".repeat(5000);
        assertThatThrownBy(() -> ToolArguments.parse(readFile, "{\"path\": " + longKey + "}"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("Invalid input: the arguments are not valid JSON (")
                .hasMessageNotContaining("k".repeat(250))
                .satisfies(e -> assertThat(e.getMessage()).contains("...). Expected "))
                .satisfies(e -> assertThat(e.getMessage().lines().count()).isEqualTo(1));
    }

    @Test
    void readingAnArgumentTheToolDoesNotHaveIsAProgrammingError() {
        ToolArguments args = ToolArguments.parse(readFile, "{\"path\":\"a\"}");
        assertThatThrownBy(() -> args.optionalString("offset"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no string parameter 'offset'");
        assertThatThrownBy(() -> args.optionalInt("nope"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no integer parameter 'nope'");
        assertThatThrownBy(() -> args.optionalBoolean("path"))
                .isInstanceOf(IllegalArgumentException.class);
        ToolDescriptor search = ToolCatalogue.standard().find("search_text").orElseThrow();
        ToolArguments noGlob = ToolArguments.parse(search, "{\"path\":\"/ws\",\"pattern\":\"x\"}");
        assertThat(noGlob.optionalString("glob")).isEmpty();
        assertThatThrownBy(() -> noGlob.string("glob"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("Invalid input: the argument 'glob' is missing. Expected a JSON object for "
                        + "search_text like ");
        assertThat(noGlob.tool()).isSameAs(search);
    }

    @Test
    void argumentsOfDifferentToolsOrValuesDiffer() {
        ToolDescriptor deleteFile = ToolCatalogue.standard().find("delete_file").orElseThrow();
        ToolArguments read = ToolArguments.parse(readFile, "{\"path\":\"a\"}");
        assertThat(read).isNotEqualTo(ToolArguments.parse(deleteFile, "{\"path\":\"a\"}"))
                .isNotEqualTo(ToolArguments.parse(readFile, "{\"path\":\"b\"}"))
                .isNotEqualTo("read_file[path]")
                .isEqualTo(read);
        assertThat(read).hasToString("read_file[path]");
        assertThatThrownBy(() -> read.asMap().put("offset", 1)).isInstanceOf(UnsupportedOperationException.class);
    }
}
