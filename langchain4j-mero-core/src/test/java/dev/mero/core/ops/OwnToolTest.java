package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.catalogue.ParameterType;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolHints;
import dev.mero.core.catalogue.ToolParameter;
import dev.mero.core.guard.Operation;
import dev.mero.core.path.ResolvedPath;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application's own tool, declared once and registered on {@link MeroOperations}: offered, validated, decided
 * and answered like a catalogue tool, and bound again to a narrowed caller's context.
 */
class OwnToolTest {

    /** Counts a file's lines: guarded by the context it is bound to before it reads anything. */
    static final ToolDescriptor COUNT_LINES = ToolDescriptor.builder().name("count_lines")
            .description("Counts the lines of a file.")
            .parameter(ToolParameter.required("path", ParameterType.STRING, "The file, e.g. /ws/notes.txt"))
            .operation(Operation.FILE_READ).hints(ToolHints.READ_ONLY).build();

    static ToolOperation countLines(SecurityContext context) {
        return arguments -> {
            ResolvedPath file = context.guard(Operation.FILE_READ, arguments.string("path"));
            try {
                return context.name() + ": " + Files.readAllLines(file.realPath()).size() + " line(s)";
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    @TempDir
    Path temp;
    OpsWorkspace w;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
    }

    private MeroOperations withOwnTool(SecurityContext context) {
        return MeroOperations.builder(context).tool(COUNT_LINES, OwnToolTest::countLines).build();
    }

    @Test
    void anOwnToolIsOfferedAfterTheCatalogueAndRunsThroughTheResponsePath() {
        MeroOperations ops = withOwnTool(w.contextBuilder().build());

        List<ToolDescriptor> offered = ops.availableTools();
        assertThat(offered.get(offered.size() - 1)).isSameAs(COUNT_LINES);
        assertThat(offered.subList(0, offered.size() - 1))
                .isEqualTo(MeroOperations.forContext(w.contextBuilder().build()).availableTools());
        assertThat(COUNT_LINES.permissions()).containsExactly(Permission.READ);

        assertThat(ops.respond("count_lines", "{\"path\":\"/ws/notes.txt\"}").text()).isEqualTo("test: 1 line(s)");
        assertThat(ops.respond("count_lines", Map.of("path", "/docs/guide.md")).text()).isEqualTo("test: 1 line(s)");
    }

    @Test
    void itsArgumentsAreValidatedAndItsRefusalsAnsweredAsTheBuiltInTools() {
        MeroOperations ops = withOwnTool(w.contextBuilder().build());

        ToolResponse missing = ops.respond("count_lines", "{}");
        assertThat(missing.isError()).isTrue();
        assertThat(missing.text()).startsWith("Error: Invalid input: the argument 'path' is missing. Expected a "
                + "JSON object for count_lines like {\"path\": string (required)}");

        ToolResponse outside = ops.respond("count_lines", "{\"path\":\"" + w.outside.resolve("secret.txt") + "\"}");
        assertThat(outside.isError()).isTrue();
        assertThat(outside.text()).startsWith("Denied: ").doesNotContain("top secret");
    }

    @Test
    void itIsNotOfferedWhereNothingGrantsWhatItsOperationsNeed() {
        MeroOperations ops = withOwnTool(w.contextBuilder().permissions(Permission.WRITE).build());

        assertThat(ops.availableTools()).doesNotContain(COUNT_LINES);
        assertThat(ops.respond("count_lines", "{\"path\":\"/ws/notes.txt\"}").text()).startsWith("Denied: ");
    }

    @Test
    void aCallerNarrowedFromTheOperationsRunsItInTheNarrowedContext() {
        MeroOperations scoped = withOwnTool(w.contextBuilder().scopes("files::").build());
        MeroOperations alice = new CallerNarrowing(scoped).operationsFor(Map.of(CallerNarrowing.CALLER, "alice",
                CallerNarrowing.SCOPES, List.of("files:*:read")));

        assertThat(alice.respond("count_lines", "{\"path\":\"/ws/notes.txt\"}").text())
                .isEqualTo("alice: 1 line(s)");
        MeroOperations writer = new CallerNarrowing(scoped).operationsFor(Map.of(CallerNarrowing.CALLER, "bob",
                CallerNarrowing.SCOPES, List.of("files:file:write")));
        assertThat(writer.availableTools()).doesNotContain(COUNT_LINES);
        assertThat(writer.respond("count_lines", "{\"path\":\"/ws/notes.txt\"}").text())
                .startsWith("Denied: Context 'bob' lacks scope 'files:file:read'");
    }

    @Test
    void aNameIsRegisteredOnce() {
        ToolDescriptor clash = ToolDescriptor.builder().name("read_file").description("Another read.")
                .parameter(ToolParameter.required("path", ParameterType.STRING, "The file"))
                .operation(Operation.FILE_READ).hints(ToolHints.READ_ONLY).build();

        assertThatThrownBy(() -> MeroOperations.builder(w.contextBuilder().build())
                .tool(clash, OwnToolTest::countLines).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'read_file' is registered twice");
        assertThatThrownBy(() -> MeroOperations.builder(w.contextBuilder().build())
                .tool(COUNT_LINES, OwnToolTest::countLines).tool(COUNT_LINES, OwnToolTest::countLines).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'count_lines' is registered twice");
    }
}
