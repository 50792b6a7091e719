package dev.mero.springai;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.replay.InMemoryReplayStore;
import dev.mero.core.replay.ReplayStore;
import dev.mero.springai.testing.ScriptedSpringChatModel;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.messages.ToolResponseMessage;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tool-call ids claimed through Spring AI's loop: with {@link MeroToolCallbacks#toolCallingManager()}, two
 * "instances" (two contexts and clients over one shared replay store) run one {@code append_file} call id once
 * and replay a refusal as the same text; without that manager no id reaches a callback and every call runs.
 */
class ReplayedToolCallsTest {

    private static final String APPEND = "{\"path\":\"/ws/log.txt\",\"content\":\"one\\n\"}";

    @TempDir
    Path workspace;

    private SecurityContext context(ReplayStore replays) {
        return SecurityContext.builder().name("replayed")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .replayStore(replays).build();
    }

    /** One chat whose model calls the tool once; its scripted ids start at call_1 in every model. */
    private static ToolResponseMessage.ToolResponse chat(SecurityContext context, String tool, String arguments,
                                                         boolean meroManager) {
        ScriptedSpringChatModel model = new ScriptedSpringChatModel().callTool(tool, arguments).reply("done");
        MeroToolCallbacks tools = MeroToolCallbacks.forContext(context);
        ChatClient client = meroManager
                ? ChatClient.builder(model, ObservationRegistry.NOOP, null, null,
                        ToolCallingAdvisor.builder().toolCallingManager(tools.toolCallingManager())).build()
                : ChatClient.create(model);
        client.prompt().user("go").tools(tools).call().content();
        return ScriptedSpringChatModel.lastToolResponses(model.prompts().get(1)).get(0);
    }

    @Test
    void theSameCallIdOnTwoInstancesAppendsOnce() throws Exception {
        ReplayStore shared = InMemoryReplayStore.create();
        ToolResponseMessage.ToolResponse first = chat(context(shared), "append_file", APPEND, true);
        ToolResponseMessage.ToolResponse repeat = chat(context(shared), "append_file", APPEND, true);
        assertThat(first.id()).isEqualTo(repeat.id()).isEqualTo("call_1");
        assertThat(repeat.responseData()).isEqualTo(first.responseData());
        assertThat(workspace.resolve("log.txt")).hasContent("one\n");

        // the same id with other arguments is another call
        chat(context(shared), "append_file", "{\"path\":\"/ws/log.txt\",\"content\":\"two\\n\"}", true);
        assertThat(Files.readString(workspace.resolve("log.txt"))).isEqualTo("one\ntwo\n");
    }

    @Test
    void aRefusalIsReplayedAsTheSameText() {
        ReplayStore shared = InMemoryReplayStore.create();
        String outside = "{\"path\":\"/elsewhere/x.txt\",\"content\":\"x\"}";
        ToolResponseMessage.ToolResponse first = chat(context(shared), "append_file", outside, true);
        ToolResponseMessage.ToolResponse repeat = chat(context(shared), "append_file", outside, true);
        assertThat(first.responseData()).startsWith("Denied: ");
        assertThat(repeat.responseData()).isEqualTo(first.responseData());
    }

    @Test
    void withoutTheManagerNoIdReachesACallbackAndEveryCallRuns() throws Exception {
        ReplayStore shared = InMemoryReplayStore.create();
        chat(context(shared), "append_file", APPEND, false);
        chat(context(shared), "append_file", APPEND, false);
        assertThat(Files.readString(workspace.resolve("log.txt"))).isEqualTo("one\none\n");
    }
}
