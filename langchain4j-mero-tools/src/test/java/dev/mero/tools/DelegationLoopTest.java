package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.UntrustedContent;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A manager agent delegating to a narrowed worker agent, both through the real LangChain4j loop. */
class DelegationLoopTest {

    interface Agent {
        String chat(String message);
    }

    @TempDir
    Path tempDir;
    Workspace w;
    SecurityContext manager;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tempDir);
        manager = SecurityContext.builder().name("manager")
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.WRITE))
                .permissions(Permission.READ, Permission.WRITE)
                .build();
    }

    @Test
    void aWorkersDenialComesBackToTheManagerAsText() {
        ScriptedChatModel workerModel = new ScriptedChatModel()
                .callTool("read_file", "{\"path\":\"/ws/notes.txt\"}")
                .callTool("write_file", "{\"path\":\"/ws/summary.txt\",\"content\":\"s\"}")
                .then(request -> AiMessage.from("Could not write: "
                        + ScriptedChatModel.lastToolResults(request).get(0).text()));
        DelegationTools delegation = DelegationTools.builder(manager)
                .worker("reader", "reads files", narrowing -> narrowing.permissions(Permission.READ),
                        context -> MeroTools.configure(AiServices.builder(Agent.class).chatModel(workerModel),
                                context).build()::chat)
                .build();
        ScriptedChatModel managerModel = new ScriptedChatModel()
                .callTool("delegate_task", "{\"worker\":\"reader\",\"task\":\"summarise the notes\"}")
                .reply("done");
        Agent agent = MeroTools.forContext(manager).applyTo(AiServices.builder(Agent.class).chatModel(managerModel))
                .tools(delegation).build();

        assertThat(agent.chat("go")).isEqualTo("done");
        ToolExecutionResultMessage result = ScriptedChatModel.lastToolResults(managerModel.requests().get(1)).get(0);
        assertThat(result.text()).startsWith("Worker 'reader' answered:\n<untrusted-data tool=\"delegate_task\"");
        assertThat(UntrustedContent.unwrap(result.text().substring("Worker 'reader' answered:\n".length())))
                .hasValueSatisfying(answer -> assertThat(answer).startsWith("Could not write: Denied: the tool "
                        + "'write_file' is not available to you in context 'reader'"));
        assertThat(w.ws.resolve("summary.txt")).doesNotExist();
        assertThat(delegation.workerContext("reader").permissions()).containsExactly(Permission.READ);
    }

    @Test
    void aWorkerIsDeniedWhatItsContextLacksEvenWhenTheToolIsOffered() {
        ScriptedChatModel workerModel = new ScriptedChatModel()
                .callTool("write_file", "{\"path\":\"/ws/x.txt\",\"content\":\"x\"}")
                .then(request -> AiMessage.from(ScriptedChatModel.lastToolResults(request).get(0).text()));
        DelegationTools delegation = DelegationTools.builder(manager)
                .worker("writer", "writes files", narrowing -> narrowing.requireApproval(Permission.WRITE),
                        context -> new DirectCall(context, workerModel))
                .build();
        String answer = delegation.delegateTask("writer", "write x");
        assertThat(answer).startsWith("Worker 'writer' answered:\n");
        assertThat(UntrustedContent.unwrap(answer.substring("Worker 'writer' answered:\n".length())))
                .contains("Denied: Action 'WRITE: /ws/x.txt' requires approval for ['WRITE'] but no approval backend "
                        + "is configured (fail-safe deny).");
        assertThat(w.ws.resolve("x.txt")).doesNotExist();
    }

    @Test
    void aWorkerCanNeverBeGivenMoreThanItsManager() {
        assertThatThrownBy(() -> DelegationTools.builder(manager)
                .worker("root", "everything", narrowing -> narrowing.permissions(Permission.READ, Permission.DELETE),
                        context -> task -> "never"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DelegationTools.builder(manager)
                .worker("shell", "commands", narrowing -> narrowing.allowCommands("rm"), context -> task -> "never"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anUnknownWorkerIsAnErrorListingTheWorkers() {
        DelegationTools delegation = DelegationTools.builder(manager)
                .worker("reader", "reads files", narrowing -> narrowing, context -> task -> "ok")
                .build();
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("delegate_task", "{\"worker\":\"admin\",\"task\":\"x\"}").reply("ok");
        MeroTools.forContext(manager).applyTo(AiServices.builder(Agent.class).chatModel(model)).tools(delegation)
                .build().chat("go");
        List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(model.requests().get(1));
        assertThat(results.get(0).isError()).isTrue();
        assertThat(results.get(0).text()).isEqualTo("Error: Invalid input: there is no worker 'admin'. Expected one "
                + "of: reader (reads files).");
    }

    /** A worker that is an AI service wired with the handlers only around one scripted model. */
    private static final class DirectCall implements DelegationTools.Worker {
        private final Agent agent;

        DirectCall(SecurityContext context, ScriptedChatModel model) {
            this.agent = MeroTools.configure(AiServices.builder(Agent.class).chatModel(model), context).build();
        }

        @Override
        public String perform(String task) {
            return agent.chat(task);
        }
    }
}
