package dev.mero.examples.readme;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.guard.Operation;
import dev.mero.core.Permission;
import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolHints;
import dev.mero.core.catalogue.ToolParameter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The tool table of {@code docs/tools.md} is the catalogue's: rendered here from {@link ToolCatalogue#standard()}
 * and compared with the lines between {@value #BEGIN} and {@value #END}. With {@code -Dmero.docs.write=true} the
 * test writes the rendered table there instead (CONTRIBUTING.md gives the command), so a changed tool is one
 * command away from its documentation.
 */
class ToolReferenceTableTest {

    static final String BEGIN = "<!-- tool-table:begin -->";
    static final String END = "<!-- tool-table:end -->";

    @Test
    void theToolsPageShowsTheCatalogueAsItIs() throws IOException {
        Path page = DocPages.docs("tools.md");
        String text = Files.readString(page, StandardCharsets.UTF_8);
        String expected = table(ToolCatalogue.standard());

        if (Boolean.getBoolean("mero.docs.write")) {
            text = withTable(text, expected);
            Files.writeString(page, text, StandardCharsets.UTF_8);
        }

        assertThat(tableIn(text))
                .as("docs/tools.md must hold the tool table rendered from the catalogue (regenerate it with "
                        + "-Dmero.docs.write=true, see CONTRIBUTING.md):%n%s", expected)
                .isEqualTo(expected);
    }

    @Test
    void writingTheTableReplacesOnlyWhatLiesBetweenTheMarkers() {
        String page = "# Tools\n\nbefore\n" + BEGIN + "\n| old |\n" + END + "\nafter\n";

        String written = withTable(page, "| new |\n");

        assertThat(written).isEqualTo("# Tools\n\nbefore\n" + BEGIN + "\n| new |\n" + END + "\nafter\n");
        assertThat(tableIn(written)).isEqualTo("| new |\n");
    }

    /** The text between the markers (after the begin marker's line break). */
    static String tableIn(String page) {
        int begin = page.indexOf(BEGIN);
        int end = page.indexOf(END);
        assertThat(begin).as("the page has the markers %s ... %s", BEGIN, END).isNotNegative();
        assertThat(end).as("the end marker follows the begin marker").isGreaterThan(begin);
        return page.substring(begin + BEGIN.length() + 1, end);
    }

    static String withTable(String page, String table) {
        int begin = page.indexOf(BEGIN) + BEGIN.length() + 1;
        return page.substring(0, begin) + table + page.substring(page.indexOf(END));
    }

    static String table(ToolCatalogue catalogue) {
        StringBuilder table = new StringBuilder()
                .append("| tool | parameters (`?` optional) | path permissions | scopes | hints |\n")
                .append("|---|---|---|---|---|\n");
        for (ToolDescriptor tool : catalogue.tools()) {
            table.append("| `").append(tool.name()).append("` | ")
                    .append(tool.parameters().isEmpty() ? "none" : tool.parameters().stream()
                            .map(ToolReferenceTableTest::parameter).collect(Collectors.joining(", ")))
                    .append(" | ").append(orNone(tool.permissions().stream().map(Permission::name)
                            .collect(Collectors.joining(", "))))
                    .append(" | ").append(orNone(tool.operations().stream().map(Operation::scope)
                            .map(scope -> "`" + scope + "`").collect(Collectors.joining(", "))))
                    .append(" | ").append(hints(tool.hints())).append(" |\n");
        }
        return table.toString();
    }

    private static String orNone(String list) {
        return list.isEmpty() ? "none" : list;
    }

    private static String parameter(ToolParameter parameter) {
        return "`" + parameter.name() + (parameter.required() ? "" : "?") + "`";
    }

    private static String hints(ToolHints hints) {
        List<String> words = new ArrayList<>();
        words.add(hints.readOnly() ? "read-only" : "writes");
        if (hints.destructive()) {
            words.add("destructive");
        }
        if (hints.idempotent()) {
            words.add("idempotent");
        }
        if (hints.openWorld()) {
            words.add("open world");
        }
        return String.join(", ", words);
    }
}
