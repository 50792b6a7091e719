package dev.mero.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.service.AiServices;
import dev.mero.tools.FileTools;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceAgentTest {

    @TempDir
    Path root;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void captureStderr() {
        // slf4j-simple writes to whatever System.err is when it logs
        originalErr = System.err;
        System.setErr(new PrintStream(stderr, true, UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(originalErr);
    }

    private String runOffline() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String answer = WorkspaceAgent.runOffline(root, new PrintStream(out, true, UTF_8));
        assertThat(answer).isEqualTo(ScriptedSession.FINAL_ANSWER);
        return out.toString(UTF_8);
    }

    @Test
    void offlineSessionShowsTheDenialsAndTheAgentCarriesOn() throws IOException {
        String transcript = runOffline();

        assertThat(transcript).contains(
                "  failed   Denied: Path '/etc/passwd' is an absolute path that isn't covered by any configured "
                        + "PathEntry, and its leading segment doesn't match a mounted slug (mounted: '/ws', '/docs').\n",
                "  failed   Denied: '/docs' in context 'workspace-agent' lacks permission(s) ['WRITE'] for "
                        + "'/docs/summary.md' (allows: ['READ']).\n",
                "  result   Wrote 162 bytes to '/ws/summary.md' (created the file).\n",
                "Agent: " + ScriptedSession.FINAL_ANSWER);
        List<String> calls = transcript.lines().filter(line -> line.startsWith("Tool call"))
                .map(line -> line.split(" ")[3]).collect(Collectors.toList());
        assertThat(calls).containsExactly("list_directory", "read_file", "write_file", "read_file", "write_file");
    }

    @Test
    void allowedWriteLandedAndDeniedWriteLeftNoTrace() throws IOException {
        runOffline();

        assertThat(root.resolve("workspace/summary.md")).hasContent("# Summary of /ws/notes.md\n\n"
                + "- Ship version 1.2 on Friday.\n- Move the nightly build to 02:00 UTC.\n"
                + "- Ana: update the release notes.\n- Ben: fix the flaky login test.");
        try (var docs = Files.list(root.resolve("docs"))) {
            assertThat(docs.map(p -> p.getFileName().toString())).containsExactly("style-guide.md");
        }
    }

    @Test
    void noStackTraceAnywhere() throws IOException {
        String transcript = runOffline();

        assertThat(transcript).doesNotContain("\tat ").doesNotContain("Exception").doesNotContain(root.toString());
        // stderr carries only the audit log's one-line records (dev.mero.audit), never a stack trace
        assertThat(stderr.toString(UTF_8).lines())
                .isNotEmpty()
                .allSatisfy(line -> assertThat(line).matches("\\[(INFO|WARN)\\] audit - (ALLOWED|DENIED) .*"));
        assertThat(stderr.toString(UTF_8)).doesNotContain("\tat ").doesNotContain("Exception");
    }

    /** Why the handler matters: LangChain4j's default handler logs every refusal as a warning with a stack trace. */
    @Test
    void withoutTheMeroHandlerLangChain4jLogsAStackTrace() throws IOException {
        DemoWorkspace workspace = DemoWorkspace.create(root);
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("read_file", Map.of("path", "/etc/passwd"))
                .reply("ok");

        AiServices.builder(Assistant.class).chatModel(model).tools(new FileTools(workspace.context())).build()
                .chat("go");

        assertThat(stderr.toString(UTF_8)).contains("WARN").contains("\tat ");
        assertThat(ScriptedChatModel.lastToolResults(model.requests().get(1)).get(0).text())
                .doesNotStartWith("Denied: ");
    }

    @Test
    void deleteRemovesTheWorkspaceWithoutFollowingLinks() throws IOException {
        Path outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "keep");
        Path demo = Files.createDirectories(root.resolve("demo"));
        DemoWorkspace.create(demo);
        Files.createSymbolicLink(demo.resolve("workspace/link"), outside);

        DemoWorkspace.delete(demo);

        assertThat(demo).doesNotExist();
        assertThat(outside.resolve("keep.txt")).hasContent("keep");
    }
}
