package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.ops.UntrustedContent;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Patterns and edits that used to overflow the stack, backtrack for minutes or exhaust the heap, through the real
 * LangChain4j loop: each call returns a result the model reads, and the conversation goes on.
 */
class HostileInputLoopTest {

    interface Agent {
        String chat(String message);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration GENEROUS = Duration.ofSeconds(120);

    @TempDir
    Path tempDir;
    Workspace w;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tempDir);
    }

    private ToolExecutionResultMessage resultOf(String tool, Map<String, Object> arguments) throws IOException {
        ScriptedChatModel model = new ScriptedChatModel().callTool(tool, JSON.writeValueAsString(arguments))
                .reply("ok");
        Agent agent = AiServices.builder(Agent.class).chatModel(model)
                .tools(new FileTools(w.context), new SearchTools(w.context))
                .toolExecutionErrorHandler(new MeroToolExecutionErrorHandler())
                .toolArgumentsErrorHandler(new MeroToolArgumentsErrorHandler())
                .build();
        assertThat(assertTimeoutPreemptively(GENEROUS, () -> agent.chat("go"))).isEqualTo("ok");
        List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(model.requests().get(1));
        return results.get(0);
    }

    @Test
    void aRegexThatOverflowedTheStackFindsItsLine() throws IOException {
        Files.writeString(w.ws.resolve("long.txt"), "ab".repeat(15_000) + "c\n");
        ToolExecutionResultMessage result = resultOf("search_text", Map.of("path", "/ws", "pattern", "(a|b)*c"));
        assertThat(data(result)).startsWith("1 matching line for '(a|b)*c' in '/ws'").contains("/ws/long.txt:1: ");
    }

    @Test
    void aLookaheadIsRefusedWithWhatToWriteInstead() throws IOException {
        ToolExecutionResultMessage result = resultOf("search_text", Map.of("path", "/ws", "pattern", "a(?=b)"));
        assertThat(result.isError()).isTrue();
        assertThat(result.text()).startsWith("Error: Invalid input: 'pattern' uses a lookahead ('(?=')");
    }

    @Test
    void aBacktrackingGlobFindsItsFile() throws IOException {
        Files.writeString(w.ws.resolve("a".repeat(254) + "b"), "x\n");
        Files.writeString(w.ws.resolve("a".repeat(255)), "x\n");
        ToolExecutionResultMessage result = resultOf("find_files",
                Map.of("path", "/ws", "pattern", "*a*a*a*a*a*a*a*a*a*a*a*a*b"));
        assertThat(data(result)).startsWith("1 path below '/ws' match").endsWith("/ws/" + "a".repeat(254) + "b");
    }

    @Test
    void anAmplifyingEditIsRefusedAndChangesNothing() throws IOException {
        Files.writeString(w.ws.resolve("big.txt"), "x\n".repeat(30_000));
        List<String> before = w.snapshot();
        ToolExecutionResultMessage result = resultOf("edit_file", Map.of("path", "/ws/big.txt", "old_text", "x",
                "new_text", "y".repeat(40_000), "replace_all", true));
        assertThat(result.isError()).isTrue();
        assertThat(result.text()).startsWith("Error: ").contains("edit_file writes at most 1048576 bytes at once");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    /** The tool's text inside its untrusted-data markers, as the model reads it. */
    private static String data(ToolExecutionResultMessage result) {
        return UntrustedContent.unwrap(result.text()).orElseThrow(
                () -> new AssertionError("not marked as untrusted data: " + result.text()));
    }
}
