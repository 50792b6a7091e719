package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A FIFO where a directory or file is expected, met through the real LangChain4j loop: each call comes back to the
 * model as an error result it can read, the loop goes on, and the AI-service call returns; an {@code open} of the
 * FIFO would have blocked it for good.
 */
class FifoLoopTest {

    interface Agent {
        String chat(String message);
    }

    @TempDir
    Path tempDir;

    Workspace w;
    SecurityContext context;

    @BeforeEach
    void setUp() throws IOException, InterruptedException {
        w = new Workspace(tempDir);
        Process mkfifo = new ProcessBuilder("mkfifo", w.ws.resolve("pipe").toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        Files.writeString(w.ws.resolve("found.txt"), "needle\n");
        context = SecurityContext.builder().name("fifo")
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.DELETE))
                .build();
    }

    @Test
    void everyCallOnAPipeEndsInAnErrorTheModelReadsAndTheLoopFinishes() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("list_directory", "{\"path\":\"/ws/pipe\"}")
                .callTool("read_file", "{\"path\":\"/ws/pipe/notes.txt\"}")
                .callTool("find_files", "{\"path\":\"/ws/pipe\",\"pattern\":\"*\"}")
                .callTool("read_file", "{\"path\":\"/ws/pipe\"}")
                .callTool("search_text", "{\"path\":\"/ws\",\"pattern\":\"needle\"}")
                .reply("done");
        Agent agent = MeroTools.configure(AiServices.builder(Agent.class).chatModel(model), context).build();
        List<String> before = w.snapshot();

        String answer = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> agent.chat("go"));

        assertThat(answer).isEqualTo("done");
        assertThat(result(model, 1).text()).isEqualTo("Error: '/ws/pipe' is not a directory or does not exist.");
        assertThat(result(model, 2).text()).isEqualTo("Error: Could not read '/ws/pipe/notes.txt': a name in the "
                + "path is not a directory.");
        assertThat(result(model, 3).text()).startsWith("Error: '/ws/pipe' is not a directory");
        assertThat(result(model, 4).text()).isEqualTo("Error: '/ws/pipe' is a device, pipe or socket, not a "
                + "regular file; read_file works on regular files only.");
        for (int call = 1; call <= 4; call++) {
            assertThat(result(model, call).isError()).as("call %d", call).isTrue();
        }
        assertThat(result(model, 5).text()).contains("/ws/found.txt:1: needle");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    private static ToolExecutionResultMessage result(ScriptedChatModel model, int call) {
        return ScriptedChatModel.lastToolResults(model.requests().get(call)).get(0);
    }
}
