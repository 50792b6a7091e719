package dev.mero.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.catalogue.ParameterType;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolHints;
import dev.mero.core.catalogue.ToolParameter;
import dev.mero.core.guard.Operation;
import dev.mero.core.ops.MeroOperations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.tool.ToolCallback;

/** An application's own tool, registered once on {@link MeroOperations}, is a Spring AI tool callback too. */
class OwnToolCallbackTest {

    @TempDir
    Path root;

    @Test
    void theOwnToolIsACallbackDecidedByTheContext() throws IOException {
        Path workspace = Files.createDirectories(root.resolve("workspace"));
        Files.writeString(workspace.resolve("notes.md"), "one\ntwo\n");
        SecurityContext context = SecurityContext.builder().name("spring-test")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ)).build();
        ToolDescriptor countLines = ToolDescriptor.builder().name("count_lines")
                .description("Counts the lines of a file.")
                .parameter(ToolParameter.required("path", ParameterType.STRING, "The file, e.g. /ws/notes.md"))
                .operation(Operation.FILE_READ).hints(ToolHints.READ_ONLY).build();
        MeroOperations operations = MeroOperations.builder(context).tool(countLines, bound -> arguments -> {
            Path file = bound.guard(Operation.FILE_READ, arguments.string("path")).realPath();
            try {
                return Files.readAllLines(file).size() + " line(s)";
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).build();

        ToolCallback callback = MeroToolCallbacks.forOperations(operations).find("count_lines").orElseThrow();

        assertThat(callback.getToolDefinition().inputSchema()).isEqualTo(countLines.jsonSchema());
        assertThat(callback.call("{\"path\":\"/ws/notes.md\"}")).isEqualTo("2 line(s)");
        assertThat(callback.call("{\"path\":\"/ws/../../etc/passwd\"}")).startsWith("Denied: ");
    }
}
