package dev.mero.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.springai.testing.ScriptedSpringChatModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tool.ToolCallbackProvider;

/**
 * The README's Spring AI snippet is this test's code: the test runs it and checks that the README and
 * docs/spring-ai.md still show exactly these lines (the block between the markers below).
 */
class ReadmeSnippetTest {

    private static final Path MODULE = Path.of(System.getProperty("user.dir"));
    private static final String BEGIN = "// README:begin spring-ai";
    private static final String END = "// README:end";

    @TempDir
    Path root;

    @Test
    void theSnippetRunsAndADenialReachesTheModel() throws IOException {
        Path workspace = Files.createDirectories(root.resolve("workspace"));
        Files.writeString(workspace.resolve("notes.md"), "- Ship on Friday.\n");
        SecurityContext context = SecurityContext.builder()
                .name("worker_1")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .build();
        ScriptedSpringChatModel scripted = new ScriptedSpringChatModel()
                .callTool("read_file", "{\"path\":\"/ws/notes.md\"}")
                .callTool("write_file", "{\"path\":\"/docs/summary.md\",\"content\":\"- Ship on Friday.\"}")
                .reply("Summarised.");
        ChatModel chatModel = scripted;

        // README:begin spring-ai
        ToolCallbackProvider tools = MeroToolCallbacks.forContext(context);   // the context above

        String answer = ChatClient.create(chatModel).prompt()
                .user("Summarise /ws/notes.md into /ws/summary.md")
                .tools(tools)
                .call()
                .content();
        // README:end

        assertThat(answer).isEqualTo("Summarised.");
        assertThat(ScriptedSpringChatModel.lastToolResponses(scripted.prompts().get(2)).get(0).responseData())
                .startsWith("Denied: Path '/docs/summary.md'");
    }

    @Test
    void theReadmeShowsTheSnippetAsTested() throws IOException {
        List<String> source = Files.readAllLines(
                MODULE.resolve("src/test/java/dev/mero/springai/ReadmeSnippetTest.java"));
        List<String> snippet = source.subList(indexOf(source, BEGIN) + 1, indexOf(source, END)).stream()
                .map(line -> line.length() >= 8 ? line.substring(8) : line.strip())
                .collect(Collectors.toList());
        String block = "```java\n" + String.join("\n", snippet) + "\n```\n";
        String readme = Files.readString(MODULE.resolveSibling("README.md"));

        assertThat(readme.substring(readme.indexOf("## With Spring AI"))).contains(block);
        assertThat(Files.readString(MODULE.resolveSibling("docs").resolve("spring-ai.md"))).contains(block);
    }

    private static int indexOf(List<String> lines, String marker) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(marker)) {
                return i;
            }
        }
        throw new AssertionError("marker not found: " + marker);
    }
}
