package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.InvalidInputException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.tools.testing.ScriptedChatModel;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worker stopped by a refusal is a refusal for the manager too: named, and flagged as an error. */
class DelegationRefusalTest {

    interface Agent {
        String chat(String message);
    }

    @TempDir
    Path temp;

    private ToolExecutionResultMessage delegateTo(DelegationTools.Worker worker) {
        SecurityContext manager = SecurityContext.builder().name("manager")
                .path(PathEntry.of(temp.toString(), "ws", Permission.READ)).build();
        DelegationTools delegation = DelegationTools.builder(manager)
                .worker("reader", "reads", narrowing -> narrowing, context -> worker).build();
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("delegate_task", "{\"worker\":\"reader\",\"task\":\"read\"}").reply("ok");
        AiServices.builder(Agent.class).chatModel(model).tools(delegation)
                .toolExecutionErrorHandler(MeroToolExecutionErrorHandler.create()).build().chat("go");
        return ScriptedChatModel.lastToolResults(model.requests().get(1)).get(0);
    }

    @Test
    void aWorkerStoppedByADenialIsADeniedErrorResult() {
        ToolExecutionResultMessage result = delegateTo(task -> {
            throw new MeroToolsException("Context 'reader' lacks scope 'files:file:read'.");
        });

        assertThat(result.isError()).isTrue();
        assertThat(result.text()).isEqualTo("Denied: Worker 'reader' was stopped: Context 'reader' lacks scope "
                + "'files:file:read'.");
    }

    @Test
    void aWorkerStoppedByAnOrdinaryFailureIsAnErrorResult() {
        ToolExecutionResultMessage result = delegateTo(task -> {
            throw new InvalidInputException("the task is empty");
        });

        assertThat(result.isError()).isTrue();
        assertThat(result.text()).isEqualTo("Error: Worker 'reader' was stopped: the task is empty");
    }
}
