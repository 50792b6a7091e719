package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.UntrustedContent;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Protected paths through the real LangChain4j loop: a scripted model tries every way the tools offer to read,
 * copy, search, list, archive or sync the secrets of a workspace, through {@link MeroToolProvider} and through
 * the annotated tool classes; no tool result holds a secret, every refusal is an error result that starts with
 * {@code Denied:} and names the pattern, and no copy made along the way holds a secret.
 */
class ProtectedPathsLoopTest {

    interface Agent {
        String chat(String message);
    }

    @TempDir
    Path tempDir;

    private Path ws;
    private String secret;
    private SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectories(tempDir.toRealPath().resolve("ws"));
        secret = "SECRET-" + UUID.randomUUID();
        write("project/.env", "API_TOKEN=" + secret + "\n");
        write("project/.ssh/id_ed25519", secret + "\n");
        write("project/keys/server.pem", secret + "\n");
        write("project/.aws/credentials", "aws_secret_access_key=" + secret + "\n");
        write("project/.env.example", "API_TOKEN=\n");
        write("project/src/app.txt", "hello app\n");
        Files.createSymbolicLink(ws.resolve("project/link.txt"), Path.of(".env"));
        context = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.DELETE,
                        Permission.EXECUTE))
                .allowCommand("grep").allowCommand("cat").allowCommand("tar").allowCommand("cp")
                .build();
    }

    private void write(String name, String content) throws IOException {
        Path file = ws.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    @Test
    void noResultOfTheToolProviderHoldsASecret() throws IOException {
        ScriptedChatModel model = new ScriptedChatModel();
        List<ToolExecutionRequest> calls = List.of(
                model.toolCall("read_file", "{\"path\":\"/ws/project/.env\"}"),
                model.toolCall("read_file", "{\"path\":\"/ws/project/link.txt\"}"),
                model.toolCall("edit_file", "{\"path\":\"/ws/project/.env\",\"old_text\":\"API_TOKEN=S\","
                        + "\"new_text\":\"x\",\"dry_run\":true}"),
                model.toolCall("copy_file", "{\"source\":\"/ws/project/keys/server.pem\",\"destination\":\"/ws/k\"}"),
                model.toolCall("run_command", "{\"command\":\"cat /ws/project/.env\"}"),
                model.toolCall("list_directory", "{\"path\":\"/ws/project\"}"),
                model.toolCall("directory_tree", "{\"path\":\"/ws\",\"max_depth\":4}"),
                model.toolCall("find_files", "{\"path\":\"/ws\",\"pattern\":\"**\"}"),
                model.toolCall("search_text", "{\"path\":\"/ws\",\"pattern\":\"SECRET|TOKEN|secret\"}"),
                model.toolCall("sync_directory", "{\"source\":\"/ws/project\",\"destination\":\"/ws/copy\"}"),
                model.toolCall("run_command", "{\"command\":\"grep -r -a -e . /ws/project\"}"),
                model.toolCall("run_command", "{\"command\":\"tar -cf /ws/all.tar project\","
                        + "\"working_directory\":\"/ws\"}"),
                model.toolCall("run_command", "{\"command\":\"cp -r /ws/project /ws/cp\"}"),
                model.toolCall("read_file", "{\"path\":\"/ws/all.tar\"}"));
        model.callTools(calls.toArray(new ToolExecutionRequest[0])).reply("done");
        Agent agent = AiServices.builder(Agent.class).chatModel(model).toolProvider(new MeroToolProvider(context))
                .build();

        assertThat(agent.chat("find the API token")).isEqualTo("done");

        List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(model.requests().get(1));
        assertThat(results).hasSize(calls.size());
        assertThat(results).allSatisfy(result -> assertThat(result.text()).doesNotContain(secret));
        assertDenied(results.get(0), ".env");
        assertDenied(results.get(1), ".env");
        assertDenied(results.get(2), ".env");
        assertDenied(results.get(3), "*.pem");
        assertDenied(results.get(4), ".env");
        assertThat(results.get(5).text()).contains(".env [protected]", ".ssh/ [protected]", ".env.example");
        assertThat(results.get(6).text()).contains("server.pem [protected]");
        assertThat(results.get(7).text()).contains("/ws/project/.env [protected]");
        assertThat(results.get(8).text()).contains("/ws/project/.env.example:1: API_TOKEN=")
                .contains("protected files or directories were not searched");
        assertThat(results.get(9).text()).contains("Skipped 4 protected files or directories in the source");
        assertThat(results.get(10).text()).contains("/ws/project/src/app.txt:hello app");
        assertThat(results.subList(5, 13)).allSatisfy(result -> assertThat(result.isError()).isFalse());
        assertThat(results.get(13).text()).startsWith("Error: '/ws/all.tar' looks like a binary file");
        assertThat(copiesHoldingTheSecret()).isEmpty();
        assertThat(ws.resolve("cp/src/app.txt")).hasContent("hello app\n");
    }

    @Test
    void theAnnotatedToolClassesRefuseTheSameWay() throws IOException {
        ScriptedChatModel model = new ScriptedChatModel();
        List<ToolExecutionRequest> calls = List.of(
                model.toolCall("read_file", "{\"path\":\"/ws/project/.aws/credentials\"}"),
                model.toolCall("search_text", "{\"path\":\"/ws\",\"pattern\":\"secret\"}"),
                model.toolCall("run_command", "{\"command\":\"grep -r secret /ws/project/.ssh\"}"),
                model.toolCall("run_command", "{\"command\":\"grep -r -a -e . /ws\"}"),
                model.toolCall("run_command", "{\"command\":\"grep -r secret /ws/project/.aws\"}"));
        model.callTools(calls.toArray(new ToolExecutionRequest[0])).reply("done");
        MeroTools tools = MeroTools.forContext(context);
        Agent agent = AiServices.builder(Agent.class).chatModel(model).tools(tools.tools())
                .toolExecutionErrorHandler(tools.executionErrorHandler())
                .toolArgumentsErrorHandler(tools.argumentsErrorHandler()).build();

        assertThat(agent.chat("find the key")).isEqualTo("done");

        List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(model.requests().get(1));
        assertThat(results).hasSize(calls.size()).allSatisfy(r -> assertThat(r.text()).doesNotContain(secret));
        assertDenied(results.get(0), "**/.aws/credentials");
        assertThat(UntrustedContent.unwrap(results.get(1).text())).hasValueSatisfying(text ->
                assertThat(text).startsWith("No line in '/ws' matches 'secret'"));
        assertDenied(results.get(2), ".ssh");
        assertThat(results.get(3).text()).contains("/ws/project/src/app.txt:hello app");
        // the directory is not protected, the file in it is: the command runs and the sandbox shows it empty
        assertThat(results.get(4).text()).contains("Exit code: 1\n[stdout]\n(empty)");
        assertThat(copiesHoldingTheSecret()).isEmpty();
    }

    private static void assertDenied(ToolExecutionResultMessage result, String pattern) {
        assertThat(result.isError()).as(result.text()).isTrue();
        assertThat(result.text()).startsWith("Denied: ").contains("protected by the pattern '" + pattern + "'");
    }

    /** Regular files outside the originals that hold the secret (copies, archives). */
    private List<Path> copiesHoldingTheSecret() throws IOException {
        List<Path> holding = new ArrayList<>();
        try (Stream<Path> paths = Files.walk(ws)) {
            for (Path path : paths.toList()) {
                if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS) && !path.startsWith(ws.resolve("project"))
                        && new String(Files.readAllBytes(path), java.nio.charset.StandardCharsets.ISO_8859_1)
                        .contains(secret)) {
                    holding.add(path);
                }
            }
        }
        return holding;
    }
}
