package dev.mero.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.catalogue.ToolDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

class MeroToolCallbacksTest {

    @TempDir
    Path root;

    private Path workspace;
    private Path docs;
    private SecurityContext context;
    private MeroToolCallbacks tools;

    @BeforeEach
    void mount() throws IOException {
        workspace = Files.createDirectories(root.resolve("workspace"));
        docs = Files.createDirectories(root.resolve("docs"));
        Files.writeString(workspace.resolve("notes.md"), "Ship on Friday.\n");
        Files.writeString(docs.resolve("guide.md"), "Write short sentences.\n");
        context = SecurityContext.builder()
                .name("spring-test")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .path(PathEntry.of(docs.toString(), "docs", Permission.READ))
                .build();
        tools = MeroToolCallbacks.forContext(context);
    }

    private ToolCallback tool(String name) {
        return tools.find(name).orElseThrow(() -> new AssertionError("no tool " + name + " in " + tools));
    }

    @Test
    void theToolListIsTheCatalogueOfTheContext() {
        List<ToolDescriptor> expected = MeroOperations.forContext(context).availableTools();

        List<ToolDefinition> definitions = Arrays.stream(tools.getToolCallbacks())
                .map(ToolCallback::getToolDefinition).collect(Collectors.toList());

        assertThat(definitions).extracting(ToolDefinition::name)
                .containsExactlyElementsOf(expected.stream().map(ToolDescriptor::name).collect(Collectors.toList()));
        for (int i = 0; i < expected.size(); i++) {
            assertThat(definitions.get(i).description()).isEqualTo(expected.get(i).description());
            assertThat(definitions.get(i).inputSchema()).isEqualTo(expected.get(i).jsonSchema());
            assertThat(tools.getToolCallbacks()[i].getToolMetadata().returnDirect()).isFalse();
        }
        assertThat(definitions).extracting(ToolDefinition::name).contains("read_file", "write_file", "list_roots");
    }

    @Test
    void toolsTheContextCanNeverUseAreNotOffered() {
        List<String> all = ToolCatalogue.standard().tools().stream().map(ToolDescriptor::name)
                .collect(Collectors.toList());
        List<String> offered = tools.callbacks().stream().map(callback -> callback.descriptor().name())
                .collect(Collectors.toList());

        // nothing grants DELETE and no command is allowed
        assertThat(all).contains("delete_file", "run_command");
        assertThat(offered).doesNotContain("delete_file", "run_command");
        assertThat(tools.find("delete_file")).isEmpty();
    }

    @Test
    void anAllowedCallReturnsTheToolTextUnencodedBetweenDataMarkers() {
        String result = tool("read_file").call("{\"path\":\"/ws/notes.md\"}");

        assertThat(result).startsWith("<untrusted-data tool=\"read_file\" id=\"").contains("\nShip on Friday.\n")
                .endsWith("\">").doesNotStartWith("\"").doesNotContain("Denied:");
    }

    @Test
    void plainResultsOnRequestAndOnlyUntrustedOutputIsMarked() {
        MeroToolCallbacks plain = MeroToolCallbacks.forOperations(MeroOperations.forContext(context), false);

        assertThat(plain.find("read_file").orElseThrow().call("{\"path\":\"/ws/notes.md\"}"))
                .isEqualTo(MeroOperations.forContext(context).call("read_file", "{\"path\":\"/ws/notes.md\"}"));
        String written = tool("write_file").call("{\"path\":\"/ws/new.md\",\"content\":\"x\"}");
        assertThat(written).doesNotContain("untrusted-data").contains("/ws/new.md");
    }

    @Test
    void aDeniedCallReturnsTheDeniedTextAndLeavesNoTrace() throws IOException {
        String read = tool("read_file").call("{\"path\":\"/etc/passwd\"}");
        String write = tool("write_file").call("{\"path\":\"/docs/guide.md\",\"content\":\"overwritten\"}");

        assertThat(read).startsWith("Denied: ").contains("/etc/passwd").doesNotContain("root:");
        assertThat(write).startsWith("Denied: ").contains("WRITE");
        assertThat(docs.resolve("guide.md")).hasContent("Write short sentences.");
        try (var files = Files.list(docs)) {
            assertThat(files).hasSize(1);
        }
    }

    @Test
    void anOrdinaryFailureReturnsTheErrorTextWithoutHostPaths() {
        String result = tool("read_file").call("{\"path\":\"/ws/missing.md\"}");

        assertThat(result).startsWith("Error: ").contains("/ws/missing.md").doesNotContain(root.toString());
    }

    @Test
    void malformedArgumentsReturnAnInvalidInputHint() {
        assertThat(tool("read_file").call("{\"path\": ")).startsWith("Error: Invalid input").contains("Expected");
        assertThat(tool("read_file").call("{\"path\":{\"nested\":1}}")).startsWith("Error: Invalid input");
        assertThat(tool("read_file").call("{}")).startsWith("Error: Invalid input").contains("path");
        assertThat(tool("read_file").call("{\"path\":\"/ws/notes.md\",\"extra\":1}"))
                .startsWith("Error: Invalid input");
    }

    @Test
    void theToolContextPathMapsDenialsTheSameWay() {
        String result = tool("read_file").call("{\"path\":\"/etc/passwd\"}", new ToolContext(Map.of("k", "v")));

        assertThat(result).startsWith("Denied: ");
    }

    @Test
    void aBugPropagatesUnchanged() {
        NullPointerException bug = new NullPointerException("a real bug");
        MeroOperations broken = BrokenOperations.throwingOnReadFile(context, bug);
        ToolCallback readFile = MeroToolCallbacks.forOperations(broken).find("read_file").orElseThrow();

        assertThatThrownBy(() -> readFile.call("{\"path\":\"/ws/notes.md\"}")).isSameAs(bug);
    }

    @Test
    void theProviderHandsOutCopies() {
        ToolCallback[] first = tools.getToolCallbacks();
        first[0] = null;

        assertThat(tools.getToolCallbacks()[0]).isNotNull();
    }
}
