package dev.mero.examples.readme;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.Operation;
import dev.mero.core.Permission;
import dev.mero.core.ops.ToolCatalogue;
import dev.mero.core.ops.ToolDescriptor;
import dev.mero.core.ops.ToolHints;
import dev.mero.core.ops.ToolParameter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The README's tool reference table is the catalogue's: rendered here from {@link ToolCatalogue#standard()}. */
class ToolReferenceTableTest {

    @Test
    void theReadmeShowsTheCatalogueAsItIs() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        Path readme = Files.exists(root.resolve("README.md")) ? root.resolve("README.md")
                : root.getParent().resolve("README.md");

        String expected = table(ToolCatalogue.standard());

        assertThat(Files.readString(readme, StandardCharsets.UTF_8))
                .as("README.md must contain the tool table rendered from the catalogue:%n%s", expected)
                .contains(expected);
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
