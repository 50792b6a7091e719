package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.tools.testing.ScriptedChatModel;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A model that calls a tool it was not offered reads the core's refusal, naming the tool, flagged as an error,
 * also when the application brings a chat-request transformer of its own.
 */
class UnofferedToolLoopTest {

    interface Agent {
        String chat(String message);
    }

    @TempDir
    Path temp;

    @Test
    void theFlagSurvivesAnApplicationsOwnTransformerComposedWithOurs() {
        SecurityContext readOnly = SecurityContext.builder().name("ro")
                .path(PathEntry.of(temp.toString(), "ws", Permission.READ)).build();
        MeroTools tools = MeroTools.forContext(readOnly);
        AtomicInteger seen = new AtomicInteger();
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("delete_file", "{\"path\":\"/ws/a\"}")
                .callTool("format_disk", "{}")
                .reply("ok");

        tools.applyTo(AiServices.builder(Agent.class).chatModel(model))
                .chatRequestTransformer(request -> {
                    seen.incrementAndGet();
                    return tools.flagUnofferedCalls(request);
                })
                .build().chat("go");

        ToolExecutionResultMessage withheld = ScriptedChatModel.lastToolResults(model.requests().get(1)).get(0);
        ToolExecutionResultMessage unknown = ScriptedChatModel.lastToolResults(model.requests().get(2)).get(0);
        assertThat(seen).hasValue(3);
        assertThat(withheld.isError()).isTrue();
        assertThat(withheld.text()).isEqualTo("Denied: the tool 'delete_file' is not available to you in context "
                + "'ro': nothing here grants what it needs. Use the tools you were given; list_roots shows what you "
                + "may do where.");
        assertThat(unknown.isError()).isTrue();
        assertThat(unknown.text()).startsWith("Error: there is no tool 'format_disk' available to you.");
    }

    @Test
    void aRequestWithoutSuchRefusalsIsLeftAsItIs() {
        MeroTools tools = MeroTools.forContext(SecurityContext.builder().name("ro")
                .path(PathEntry.of(temp.toString(), "ws", Permission.READ)).build());
        ChatRequest request = ChatRequest.builder().messages(UserMessage.from("hi"))
                .build();

        assertThat(tools.flagUnofferedCalls(request)).isSameAs(request);
        tools.unknownTool(ToolExecutionRequest.builder().id("1").name("x").arguments("{}")
                .build());
        ChatRequest other = ChatRequest.builder().messages(UserMessage.from("hi"),
                ToolExecutionResultMessage.from("2", "x", "Error: something else")).build();
        assertThat(tools.flagUnofferedCalls(other)).isSameAs(other);
    }
}
