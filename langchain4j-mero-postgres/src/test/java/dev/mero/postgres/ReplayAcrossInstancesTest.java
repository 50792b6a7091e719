package dev.mero.postgres;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.replay.ReplayClaim;
import dev.mero.core.replay.ReplayStore;
import dev.mero.tools.MeroToolProvider;
import dev.mero.tools.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Replayed tool calls across two application instances (two pools, two stores, one database): the same
 * {@code append_file} call id runs once whichever instance it lands on, through the real LangChain4j loop,
 * and a claim whose owner died is taken over once its lease has passed.
 */
class ReplayAcrossInstancesTest {

    /** What the loop needs of an AI service. */
    interface Assistant {
        String chat(String message);
    }

    private TwoInstances instances;
    private PostgresPolicyStore storeA;
    private PostgresPolicyStore storeB;

    @TempDir
    Path workspace;

    @BeforeEach
    void twoInstancesOnOneDatabase() throws Exception {
        // A's claims hold for a short lease
        instances = TwoInstances.start(builder -> builder.timeout(Duration.ofSeconds(5))
                        .pollInterval(Duration.ofMillis(50)).replayLease(Duration.ofMillis(300)),
                builder -> builder.timeout(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)), 4);
        storeA = instances.a;
        storeB = instances.b;
    }

    @AfterEach
    void closeAll() throws Exception {
        instances.close();
    }

    private SecurityContext context(ReplayStore replays) {
        return SecurityContext.builder().name("replayed")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .replayStore(replays).build();
    }

    private static ToolExecutionResultMessage chat(SecurityContext context, ToolExecutionRequest call) {
        ScriptedChatModel model = new ScriptedChatModel().callTools(call).reply("done");
        AiServices.builder(Assistant.class).chatModel(model).toolProvider(new MeroToolProvider(context)).build()
                .chat("append a line");
        return ScriptedChatModel.lastToolResults(model.requests().get(1)).get(0);
    }

    private static ToolExecutionRequest append(String id, String line) {
        return ToolExecutionRequest.builder().id(id).name("append_file")
                .arguments(ScriptedChatModel.json(Map.of("path", "/ws/log.txt", "content", line))).build();
    }

    @Test
    void theSameCallIdOnTwoInstancesAppendsOnce() throws Exception {
        ToolExecutionResultMessage first = chat(context(storeA.replays()), append("call-1", "one\n"));
        ToolExecutionResultMessage repeat = chat(context(storeB.replays()), append("call-1", "one\n"));

        assertThat(first.isError()).isFalse();
        assertThat(repeat.isError()).isFalse();
        assertThat(repeat.text()).isEqualTo(first.text());
        assertThat(Files.readString(workspace.resolve("log.txt"))).isEqualTo("one\n");

        // another id, or the same id with other arguments, is another call and runs
        chat(context(storeB.replays()), append("call-2", "two\n"));
        chat(context(storeA.replays()), append("call-1", "three\n"));
        assertThat(Files.readString(workspace.resolve("log.txt"))).isEqualTo("one\ntwo\nthree\n");
    }

    @Test
    void aRefusalIsReplayedAsTheSameError() {
        ToolExecutionRequest outside = ToolExecutionRequest.builder().id("call-9").name("append_file")
                .arguments(ScriptedChatModel.json(Map.of("path", "/elsewhere/x.txt", "content", "x"))).build();
        ToolExecutionResultMessage first = chat(context(storeA.replays()), outside);
        ToolExecutionResultMessage repeat = chat(context(storeB.replays()), outside);

        assertThat(first.isError()).isTrue();
        assertThat(repeat.isError()).isTrue();
        assertThat(repeat.text()).isEqualTo(first.text());
    }

    @Test
    void aClaimWhoseOwnerDiedIsTakenOverAfterItsLease() {
        ReplayStore died = storeA.replays();
        assertThat(died.claim("tenant", "call-7", Duration.ofSeconds(1)).isOwner()).isTrue();
        // the owner never completes: its instance is gone. Within the lease a repeat is refused ...
        assertThatThrownBy(() -> storeA.replays().claim("tenant", "call-7", Duration.ZERO))
                .isInstanceOf(OperationFailedException.class).hasMessageContaining("already started");
        // ... and once the lease (300 ms) has passed, a repeat still waiting takes the claim over
        ReplayClaim takeover = storeB.replays().claim("tenant", "call-7", Duration.ofSeconds(60));
        assertThat(takeover.isOwner()).isTrue();
        storeB.replays().complete("tenant", "call-7", "done");
        assertThat(storeA.replays().claim("tenant", "call-7", Duration.ofSeconds(5)).result()).contains("done");
    }
}
