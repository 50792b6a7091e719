package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.SecurityContext;
import dev.mero.core.catalogue.ParameterType;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolHints;
import dev.mero.core.catalogue.ToolParameter;
import dev.mero.core.guard.Operation;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.ToolOperation;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application's own tool, registered once on {@link MeroOperations}, through the real LangChain4j loop: the
 * model sees it beside the built-in tools and its calls are decided and answered like theirs.
 */
class OwnToolLoopTest {

    interface Agent {
        String chat(String message);
    }

    /** Tells a file's size in bytes, after the context it is bound to has decided the path. */
    static final ToolDescriptor FILE_SIZE = ToolDescriptor.builder().name("file_size")
            .description("Tells the size of a file in bytes.")
            .parameter(ToolParameter.required("path", ParameterType.STRING, "The file, e.g. /ws/notes.txt"))
            .operation(Operation.FILE_READ).hints(ToolHints.READ_ONLY).build();

    static ToolOperation fileSize(SecurityContext context) {
        return arguments -> {
            Path file = context.guard(Operation.FILE_READ, arguments.string("path")).realPath();
            return file.toFile().length() + " bytes";
        };
    }

    @TempDir
    Path tempDir;
    Workspace w;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tempDir);
    }

    @Test
    void theModelSeesTheOwnToolAndItsCallsAreDecidedLikeTheBuiltInOnes() {
        MeroOperations operations = MeroOperations.builder(w.context).tool(FILE_SIZE, OwnToolLoopTest::fileSize)
                .build();
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("file_size", "{\"path\":\"/ws/notes.txt\"}")
                .callTool("file_size", "{\"path\":\"" + w.outside.resolve("secret.txt") + "\"}")
                .reply("done");
        Agent agent = AiServices.builder(Agent.class).chatModel(model)
                .toolProvider(MeroToolProvider.builder(operations).build()).build();

        assertThat(agent.chat("size")).isEqualTo("done");

        List<String> offered = model.requests().get(0).toolSpecifications().stream()
                .map(ToolSpecification::name).toList();
        assertThat(offered).contains("read_file", "file_size");
        List<ToolExecutionResultMessage> results = model.requests().subList(1, 3).stream()
                .map(request -> ScriptedChatModel.lastToolResults(request).get(0)).toList();
        assertThat(results.get(0).text()).isEqualTo("12 bytes");
        assertThat(results.get(0).isError()).isFalse();
        assertThat(results.get(1).isError()).isTrue();
        assertThat(results.get(1).text()).startsWith("Denied: ").doesNotContain("top secret");
    }
}
