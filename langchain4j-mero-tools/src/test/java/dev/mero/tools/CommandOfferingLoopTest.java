package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.command.CommandSandbox;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run_command} is offered to the model, through the real LangChain4j loop, only where the context's
 * command sandbox can run: a missing {@code bwrap} takes it out of the tool list and out of the annotated tool
 * objects, and a call the model makes anyway is refused without operator advice.
 */
class CommandOfferingLoopTest {

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

    private SecurityContext context(CommandSandbox sandbox) {
        return SecurityContext.builder().name("worker")
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.EXECUTE))
                .allowCommand("echo")
                .commandSandbox(sandbox)
                .build();
    }

    @Test
    void without_a_working_sandbox_run_command_is_not_offered_and_a_call_anyway_is_refused() {
        SecurityContext broken = context(CommandSandbox.builder().bubblewrap(tempDir.resolve("absent/bwrap")).build());
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("run_command", "{\"command\": \"echo hi\", \"working_directory\": \"/ws\"}").reply("ok");

        MeroTools.configure(AiServices.builder(Agent.class).chatModel(model), broken).build().chat("go");

        assertThat(model.requests().get(0).toolSpecifications()).extracting(ToolSpecification::name)
                .contains("read_file", "list_roots").doesNotContain("run_command");
        ToolExecutionResultMessage result = ScriptedChatModel.lastToolResults(model.requests().get(1)).get(0);
        assertThat(result.text()).startsWith("Denied: the tool 'run_command' is not available to you")
                .doesNotContain("apt-get").doesNotContain(tempDir.toString());
        assertThat(MeroTools.forContext(broken).tools()).noneMatch(CommandTools.class::isInstance).hasSize(4);
    }

    @Test
    void with_a_working_sandbox_run_command_is_offered_and_runs() {
        SecurityContext working = context(CommandSandbox.required());
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("run_command", "{\"command\": \"echo hi\", \"working_directory\": \"/ws\"}").reply("ok");

        MeroTools.configure(AiServices.builder(Agent.class).chatModel(model), working).build().chat("go");

        assertThat(model.requests().get(0).toolSpecifications()).extracting(ToolSpecification::name)
                .contains("run_command");
        assertThat(ScriptedChatModel.lastToolResults(model.requests().get(1)).get(0).text()).contains("hi");
        assertThat(MeroTools.forContext(working).tools()).anyMatch(CommandTools.class::isInstance).hasSize(5);
    }
}
