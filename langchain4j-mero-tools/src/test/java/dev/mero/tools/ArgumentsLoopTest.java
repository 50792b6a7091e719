package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Malformed, missing and wrongly typed arguments through the real LangChain4j loop. */
class ArgumentsLoopTest {

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

    private ToolExecutionResultMessage resultOf(String tool, String json) {
        ScriptedChatModel model = new ScriptedChatModel().callTool(tool, json).reply("ok");
        Agent agent = AiServices.builder(Agent.class).chatModel(model)
                .tools(new FileTools(w.context), new DirectoryTools(w.context))
                .toolExecutionErrorHandler(new MeroToolExecutionErrorHandler())
                .toolArgumentsErrorHandler(new MeroToolArgumentsErrorHandler())
                .build();
        assertThat(agent.chat("go")).isEqualTo("ok");
        List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(model.requests().get(1));
        return results.get(0);
    }

    @Test
    void malformedJsonBecomesAnInvalidInputResult() {
        ToolExecutionResultMessage result = resultOf("read_file", "{\"path\": ");
        assertThat(result.isError()).isTrue();
        assertThat(result.text()).startsWith("Error: Invalid input: the arguments are not valid JSON")
                .contains(". Expected a JSON object for read_file like {\"path\": string (required)");
    }

    @Test
    void aStringWhereAnIntegerBelongsIsRefused() {
        ToolExecutionResultMessage result = resultOf("read_file", "{\"path\": \"/ws/notes.txt\", \"offset\": \"two\"}");
        assertThat(result.isError()).isTrue();
        assertThat(result.text()).startsWith("Error: Invalid input: the argument 'offset' must be a JSON integer");
    }

    @Test
    void aMissingArgumentIsAnInvalidInputResult() {
        ToolExecutionResultMessage result = resultOf("read_file", "{}");
        assertThat(result.isError()).isTrue();
        assertThat(result.text()).isEqualTo("Error: Invalid input: the argument 'path' is missing. Expected a JSON "
                + "object for read_file like {\"path\": string (required), \"offset\": integer (optional), \"limit\": "
                + "integer (optional)} and no other keys.");
    }
}
