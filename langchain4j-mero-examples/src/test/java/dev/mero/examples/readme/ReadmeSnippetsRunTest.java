package dev.mero.examples.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.mero.core.MeroToolsException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs every README snippet ({@link ReadmeSnippets}) against real directories and a scripted model. */
class ReadmeSnippetsRunTest {

    @TempDir
    Path root;
    private Path workspace;
    private Path docs;
    private final ScriptedChatModel model = new ScriptedChatModel();

    @BeforeEach
    void directories() throws IOException {
        workspace = Files.createDirectories(root.resolve("workspace"));
        docs = Files.createDirectories(root.resolve("docs"));
        Files.writeString(workspace.resolve("notes.txt"), "three little words");
        Files.writeString(docs.resolve("guide.md"), "# Guide\n");
    }

    private ReadmeSnippets snippets() {
        return new ReadmeSnippets(workspace, docs, model);
    }

    @Test
    void theLangChain4jSnippetReadsAndIsDeniedAWriteIntoTheReadOnlyMount() throws IOException {
        model.callTool("read_file", Map.of("path", "/ws/notes.txt"))
                .callTool("write_file", Map.of("path", "/docs/guide.md", "content", "overwritten"))
                .then(request -> AiMessage.from("done: " + lastResult(request)));

        String answer = snippets().usingLangChain4j().chat("Read my notes, then rewrite the guide.");

        assertThat(lastResult(model.requests().get(1))).contains("three little words");
        assertThat(answer).startsWith("done: Denied: ").contains("/docs");
        assertThat(Files.readString(docs.resolve("guide.md"))).isEqualTo("# Guide\n");
    }

    @Test
    void theScriptedModelSnippetRunsTheRealToolLoopWithoutAModel() {
        SecurityContext context = SecurityContext.builder()
                .path(PathEntry.of(workspace, "ws", Permission.READ))
                .build();

        String answer = snippets().scriptedModel(context).chat("What do my notes say?");

        // the file text reaches the model inside <untrusted-data ...> markers
        assertThat(answer).startsWith("The notes say: ").contains("three little words");
    }

    @Test
    void thePathSnippetResolvesTheVirtualPathToTheCanonicalHostPath() throws IOException {
        ResolvedPath target = snippets().paths();

        assertThat(target.slug()).isEqualTo("ws");
        assertThat(target.virtualPath()).isEqualTo("/ws/notes.txt");
        assertThat(target.realPath()).isEqualTo(workspace.toRealPath().resolve("notes.txt"));
    }

    @Test
    void theCommandSnippetRunsGitStatusInTheSandbox() throws Exception {
        Process init = new ProcessBuilder("git", "init", "-q", workspace.toString()).redirectErrorStream(true).start();
        assertThat(init.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(init.exitValue()).isZero();

        assertThat(snippets().commands()).contains("?? notes.txt");
    }

    @Test
    void theProtectedPathsSnippetAddsItsGlobsToTheDefaultSet() throws IOException {
        Files.writeString(workspace.resolve(".env"), "TOKEN=1");
        SecurityContext context = snippets().protectedPaths();

        assertThat(context.protectedPaths()).startsWith(".env").endsWith("**/*.sqlite", "config/creds.yaml");
        assertThatThrownBy(() -> context.checkPathAccess("/ws/.env", Permission.READ))
                .hasMessageContaining("protected by the pattern '.env'");
    }

    @Test
    void theSandboxSnippetBuildsANetworkedAndAnOptedOutContext() {
        SecurityContext[] contexts = snippets().sandboxSettings();

        assertThat(contexts[0].commandSandbox().network()).isTrue();
        assertThat(contexts[0].commandSandbox().enabled()).isTrue();
        assertThat(contexts[1].commandSandbox().enabled()).isFalse();
    }

    @Test
    void theApprovalSnippetRequiresApprovalForWritesAndCommands() {
        SecurityContext context = snippets().approval();

        assertThat(context.approvalRequired()).containsExactlyInAnyOrder(Permission.WRITE, Permission.EXECUTE);
        assertThat(context.approval()).isPresent();
    }

    @Test
    void theDelegationSnippetGivesTheManagerAWorkerThatCannotWrite() throws IOException {
        SecurityContext managerContext = SecurityContext.builder().name("manager")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE)).build();
        model.callTool("delegate_task", Map.of("worker", "reader", "task", "Write a summary to /ws/summary.md"))
                .callTool("write_file", Map.of("path", "/ws/summary.md", "content", "summary"))
                .then(request -> AiMessage.from("worker: " + lastResult(request)))
                .then(request -> AiMessage.from("manager heard: " + lastResult(request)));

        String answer = snippets().managerAndWorkers(managerContext).chat("Summarise my notes.");

        assertThat(answer).startsWith("manager heard: ").contains("worker: Denied: ");
        assertThat(workspace.resolve("summary.md")).doesNotExist();
    }

    @Test
    void theCustomToolIsGuardedLikeTheBuiltInOnes() throws IOException {
        SecurityContext context = SecurityContext.builder().name("custom")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ)).build();
        ReadmeSnippets.WordCountTool tool = new ReadmeSnippets.WordCountTool(context);

        assertThat(tool.count_words("/ws/notes.txt")).isEqualTo("/ws/notes.txt: 3 words");
        assertThatThrownBy(() -> tool.count_words("/etc/passwd")).isInstanceOf(MeroToolsException.class)
                .satisfies(refusal -> assertThat(((MeroToolsException) refusal).toModelText()).startsWith("Denied: "));
    }

    private static String lastResult(dev.langchain4j.model.chat.request.ChatRequest request) {
        List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(request);
        assertThat(results).isNotEmpty();
        return results.get(results.size() - 1).text();
    }
}
