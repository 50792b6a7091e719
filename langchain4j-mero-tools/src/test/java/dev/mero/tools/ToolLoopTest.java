package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.exception.ToolExecutionException;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PermissionDeniedException;
import dev.mero.core.ops.UntrustedContent;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** FileTools and the error handler driven by the real LangChain4j tool loop, with a scripted model. */
class ToolLoopTest {

    interface Agent {
        String chat(String message);
    }

    @TempDir
    Path tempDir;

    Workspace w;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tempDir);
    }

    private Agent agent(ScriptedChatModel model, Object... tools) {
        return AiServices.builder(Agent.class)
                .chatModel(model)
                .tools(tools)
                .toolExecutionErrorHandler(new MeroToolExecutionErrorHandler())
                .build();
    }

    /** The tool results the model received in its second request. */
    private static List<ToolExecutionResultMessage> resultsSentBack(ScriptedChatModel model) {
        return ScriptedChatModel.lastToolResults(model.requests().get(1));
    }

    @Test
    void modelSeesTheToolsWithNamedParameters() {
        ScriptedChatModel model = new ScriptedChatModel().reply("hi");

        agent(model, new FileTools(w.context), new DirectoryTools(w.context)).chat("hello");

        List<ToolSpecification> specs = model.requests().get(0).toolSpecifications();
        assertThat(specs).extracting(ToolSpecification::name)
                .containsExactlyInAnyOrder("read_file", "write_file", "append_file", "edit_file", "copy_file",
                        "move_file", "delete_file", "file_info", "list_roots", "list_directory", "directory_tree",
                        "create_directory", "delete_directory");
        ToolSpecification write = specs.stream().filter(s -> s.name().equals("write_file")).findFirst().orElseThrow();
        assertThat(write.parameters().properties()).containsOnlyKeys("path", "content");
        assertThat(write.parameters().required()).containsExactly("path", "content");
        assertThat(write.description()).startsWith("Writes text to a file (UTF-8)");
    }

    @Test
    void readThatWorks() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("read_file", Map.of("path", "/ws/notes.txt"))
                .then(request -> AiMessage.from(
                        "The notes say: " + UntrustedContent.unwrap(ScriptedChatModel.lastToolResults(request).get(0).text())
                                .orElseThrow().strip()));

        String answer = agent(model, new FileTools(w.context), new DirectoryTools(w.context)).chat("read my notes");

        assertThat(answer).isEqualTo("The notes say: hello notes");
        ToolExecutionResultMessage result = resultsSentBack(model).get(0);
        assertThat(result.toolName()).isEqualTo("read_file");
        assertThat(UntrustedContent.unwrap(result.text())).contains("hello notes\n"); // file text is marked as data
        assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(model.remainingTurns()).isZero();
    }

    @Test
    void escapeIsDeniedAsAnErrorResultAndTheAgentGoesOn() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("read_file", "{\"path\":\"../outside/secret.txt\"}")
                .reply("I may not read that file.");

        String answer = agent(model, new FileTools(w.context), new DirectoryTools(w.context)).chat("read the secret");

        assertThat(answer).isEqualTo("I may not read that file.");
        ToolExecutionResultMessage result = resultsSentBack(model).get(0);
        assertThat(result.isError()).isTrue();
        assertThat(result.text()).isEqualTo("Denied: Path '../outside/secret.txt' (resolves outside the mounted "
                + "entries) is not covered by any PathEntry in context 'test'.");
        assertThat(result.text()).doesNotContain(w.outside.toString());
    }

    @Test
    void missingFileIsAnErrorResult() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("read_file", "{\"path\":\"/ws/missing.txt\"}")
                .reply("No such file.");

        agent(model, new FileTools(w.context), new DirectoryTools(w.context)).chat("read it");

        ToolExecutionResultMessage result = resultsSentBack(model).get(0);
        assertThat(result.isError()).isTrue();
        assertThat(result.text()).isEqualTo("Error: '/ws/missing.txt' is not a file or does not exist.");
    }

    @Test
    void missingArgumentArrivesAsNullAndBecomesAnErrorResult() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("write_file", "{\"path\":\"/ws/a.txt\"}")
                .reply("ok");

        agent(model, new FileTools(w.context), new DirectoryTools(w.context)).chat("write");

        assertThat(resultsSentBack(model).get(0).text()).isEqualTo("Error: Invalid input: the argument 'content' is "
                + "missing. Expected a JSON object for write_file like {\"path\": string (required), \"content\": "
                + "string (required)} and no other keys.");
        assertThat(w.ws.resolve("a.txt")).doesNotExist();
    }

    @Test
    void writeToAReadOnlyMountIsDeniedAndLeavesNoTrace() {
        List<String> before = w.snapshot();
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("write_file", Map.of("path", "/docs/out/summary.md", "content", "x"))
                .reply("Cannot write there.");

        agent(model, new FileTools(w.context), new DirectoryTools(w.context)).chat("publish");

        assertThat(resultsSentBack(model).get(0).text()).isEqualTo("Denied: '/docs' in context 'test' lacks "
                + "permission(s) ['WRITE'] for '/docs/out/summary.md' (allows: ['READ']).");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    static class BuggyTools {
        @Tool("A tool with a bug")
        String buggy(String input) {
            throw new NullPointerException("real bug");
        }

        @Tool("A tool whose disk fails")
        String failing(String input) throws IOException {
            throw new IOException("disk on fire");
        }

        @Tool("A tool with a bug that wraps a library decision")
        String wrapping(String input) {
            throw new IllegalStateException("bug", new PermissionDeniedException("looks like a decision"));
        }

        @Tool("A tool whose assertion fails around a library failure")
        String asserting(String input) {
            throw new AssertionError("broken invariant", new OperationFailedException("looks like a failure"));
        }
    }

    @Test
    void aBugCarryingALibraryExceptionPropagatesAndTheModelNeverSeesIt() {
        for (String tool : List.of("wrapping", "asserting")) {
            ScriptedChatModel model = new ScriptedChatModel()
                    .callTool(tool, "{\"input\":\"x\"}")
                    .reply("never reached");

            assertThatThrownBy(() -> agent(model, new BuggyTools()).chat("go")).as(tool)
                    .isInstanceOfAny(IllegalStateException.class, AssertionError.class)
                    .hasMessageNotContaining("looks like");
            assertThat(model.requests()).as(tool).hasSize(1);
        }
    }

    @Test
    void realBugPropagatesOutOfTheAgentCall() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("buggy", "{\"input\":\"x\"}")
                .reply("never reached");

        assertThatThrownBy(() -> agent(model, new BuggyTools()).chat("go"))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("real bug");
        assertThat(model.requests()).hasSize(1);
    }

    @Test
    void checkedBugPropagatesWrapped() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("failing", "{\"input\":\"x\"}")
                .reply("never reached");

        assertThatThrownBy(() -> agent(model, new BuggyTools()).chat("go"))
                .isInstanceOf(ToolExecutionException.class)
                .hasMessage("Tool 'failing' failed: java.io.IOException: disk on fire")
                .hasRootCauseMessage("disk on fire");
    }

    @Test
    void denialWithACauseFromACustomExecutorShowsTheDenialNotTheCause() {
        ToolSpecification spec = ToolSpecification.builder().name("rm").description("Removes a file").build();
        ToolExecutor executor = (request, memoryId) -> {
            throw new PathAccessDeniedException("rm is blocked in context 'test'.",
                    new IllegalStateException("policy-internal"));
        };
        ScriptedChatModel model = new ScriptedChatModel().callTool("rm", "{}").reply("ok");

        AiServices.builder(Agent.class).chatModel(model).tools(Map.of(spec, executor))
                .toolExecutionErrorHandler(MeroToolExecutionErrorHandler.create())
                .build()
                .chat("remove it");

        ToolExecutionResultMessage result = resultsSentBack(model).get(0);
        assertThat(result.isError()).isTrue();
        assertThat(result.text()).isEqualTo("Denied: rm is blocked in context 'test'.");
    }

    @Test
    void twoToolCallsInOneMessageRunConcurrently() throws IOException {
        Files.writeString(w.ws.resolve("a.txt"), "A");
        Set<String> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch bothStarted = new CountDownLatch(2);
        FileTools files = new FileTools(w.context);
        // wraps read_file so that each call waits for the other: passes only if they really overlap
        Object rendezvous = new Object() {
            @Tool("Reads a file after the other call has started")
            String read_both(String path) throws InterruptedException {
                threads.add(Thread.currentThread().getName());
                bothStarted.countDown();
                if (!bothStarted.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the other tool call never started");
                }
                return files.readFile(path, null, null, null);
            }
        };
        ScriptedChatModel model = new ScriptedChatModel();
        model.callTools(model.toolCall("read_both", "{\"path\":\"/ws/a.txt\"}"),
                        model.toolCall("read_both", "{\"path\":\"../outside/secret.txt\"}"))
                .reply("done");

        String answer = AiServices.builder(Agent.class).chatModel(model).tools(rendezvous)
                .toolExecutionErrorHandler(MeroToolExecutionErrorHandler.create())
                .executeToolsConcurrently()
                .build()
                .chat("read both");

        assertThat(answer).isEqualTo("done");
        assertThat(threads).hasSize(2);
        List<ToolExecutionResultMessage> results = resultsSentBack(model);
        assertThat(results).extracting(ToolExecutionResultMessage::id).containsExactly("call_1", "call_2");
        assertThat(UntrustedContent.unwrap(results.get(0).text())).contains("A");
        assertThat(results.get(0).isError()).isNotEqualTo(Boolean.TRUE);
        assertThat(results.get(1).isError()).isTrue();
        assertThat(results.get(1).text()).startsWith("Denied: Path '../outside/secret.txt' (resolves outside the "
                + "mounted entries)");
    }

    @Test
    void fileToolsCallsInParallelThroughTheLoop() {
        ScriptedChatModel model = new ScriptedChatModel();
        model.callTools(model.toolCall("write_file", "{\"path\":\"/ws/one.txt\",\"content\":\"1\"}"),
                        model.toolCall("list_directory", "{\"path\":\"/docs\"}"))
                .reply("done");

        AiServices.builder(Agent.class).chatModel(model).tools(new FileTools(w.context), new DirectoryTools(w.context))
                .toolExecutionErrorHandler(MeroToolExecutionErrorHandler.create())
                .executeToolsConcurrently()
                .build()
                .chat("go");

        List<ToolExecutionResultMessage> results = resultsSentBack(model);
        assertThat(results.get(0).text()).isEqualTo("Wrote 1 byte to '/ws/one.txt' (created the file).");
        assertThat(UntrustedContent.unwrap(results.get(1).text())) // names read from disk are marked as data
                .contains("Contents of '/docs' (1 entry; directories end with '/'):\nguide.md");

        assertThat(w.ws.resolve("one.txt")).hasContent("1");
    }

    @Test
    void toolResultsNeverContainAStackTrace() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("read_file", "{\"path\":\"/ws/notes.txt/x\"}")
                .callTool("write_file", "{\"path\":\"/ws/notes.txt/x\",\"content\":\"x\"}")
                .callTool("list_directory", "{\"path\":\"/ws/notes.txt\"}")
                .reply("ok");

        agent(model, new FileTools(w.context), new DirectoryTools(w.context)).chat("go");

        List<String> texts = model.requests().stream().skip(1)
                .map(ChatRequest::messages)
                .map(messages -> messages.get(messages.size() - 1))
                .map(ChatMessage.class::cast)
                .map(m -> ((ToolExecutionResultMessage) m).text())
                .collect(Collectors.toList());
        assertThat(texts).hasSize(3).allSatisfy(text -> assertThat(text)
                .startsWith("Error: ").doesNotContain("\tat ").doesNotContain("Exception"));
        assertThat(texts.get(2)).isEqualTo("Error: '/ws/notes.txt' is not a directory or does not exist.");
    }
}
