package dev.mero.tools;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.replay.InMemoryReplayStore;
import dev.mero.core.replay.ReplayStore;
import dev.mero.tools.testing.ScriptedChatModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Annotated {@code @Tool} classes claim their tool-call ids through {@link MeroTools#replayedTools}, through
 * the real LangChain4j loop: two "instances" (two contexts and AI services over one shared replay store) run
 * one {@code append_file} call id once, a refusal is replayed as the same error, the application's own
 * annotated tools are claimed too, and narrowed contexts of one bare name under different parents never
 * share a call.
 */
class ReplayedToolsLoopTest {

    /** What the loop needs of an AI service. */
    interface Assistant {
        String chat(String message);
    }

    /** An application's own tool: counts its runs. */
    static final class Counter {
        final AtomicInteger runs = new AtomicInteger();

        @Tool(name = "bump", value = "Adds one")
        public String bump() {
            return "bumped " + runs.incrementAndGet();
        }
    }

    @TempDir
    Path workspace;

    private SecurityContext context(String name, ReplayStore replays) {
        SecurityContext.Builder builder = SecurityContext.builder().name(name)
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE));
        return replays == null ? builder.build() : builder.replayStore(replays).build();
    }

    private static ToolExecutionResultMessage chat(SecurityContext context, ToolExecutionRequest call,
                                                   Object... own) {
        ScriptedChatModel model = new ScriptedChatModel().callTools(call).reply("done");
        MeroTools mero = MeroTools.forContext(context);
        AiServices.builder(Assistant.class).chatModel(model).tools(mero.replayedTools(own))
                .toolExecutionErrorHandler(mero.executionErrorHandler()).build().chat("go");
        return ScriptedChatModel.lastToolResults(model.requests().get(1)).get(0);
    }

    private static ToolExecutionRequest append(String id, String path, String line) {
        return ToolExecutionRequest.builder().id(id).name("append_file")
                .arguments(ScriptedChatModel.json(Map.of("path", path, "content", line))).build();
    }

    @Test
    void theSameCallIdOnTwoInstancesAppendsOnceAndARefusalIsReplayedAsTheSameError() throws Exception {
        ReplayStore shared = InMemoryReplayStore.create();
        ToolExecutionResultMessage first = chat(context("replayed", shared), append("call-1", "/ws/log.txt", "one\n"));
        ToolExecutionResultMessage repeat = chat(context("replayed", shared), append("call-1", "/ws/log.txt", "one\n"));
        assertThat(first.isError()).isFalse();
        assertThat(repeat.text()).isEqualTo(first.text());
        assertThat(Files.readString(workspace.resolve("log.txt"))).isEqualTo("one\n");

        chat(context("replayed", shared), append("call-2", "/ws/log.txt", "two\n"));
        assertThat(Files.readString(workspace.resolve("log.txt"))).as("another id runs").isEqualTo("one\ntwo\n");

        ToolExecutionRequest outside = append("call-9", "/elsewhere/x.txt", "x");
        ToolExecutionResultMessage refused = chat(context("replayed", shared), outside);
        ToolExecutionResultMessage again = chat(context("replayed", shared), outside);
        assertThat(refused.isError()).isTrue();
        assertThat(refused.text()).startsWith("Denied: ");
        assertThat(again.isError()).isTrue();
        assertThat(again.text()).isEqualTo(refused.text());
    }

    @Test
    void theApplicationsOwnAnnotatedToolsAreClaimedToo() {
        ReplayStore shared = InMemoryReplayStore.create();
        Counter counter = new Counter();
        ToolExecutionRequest bump = ToolExecutionRequest.builder().id("call-3").name("bump").arguments("{}").build();
        ToolExecutionResultMessage first = chat(context("own", shared), bump, counter);
        ToolExecutionResultMessage repeat = chat(context("own", shared), bump, counter);
        assertThat(counter.runs).hasValue(1);
        assertThat(repeat.text()).isEqualTo(first.text()).isEqualTo("bumped 1");

        // without a replay store, every call runs
        chat(context("own", null), bump, counter);
        chat(context("own", null), bump, counter);
        assertThat(counter.runs).hasValue(3);
    }

    @Test
    void narrowedContextsOfOneNameUnderDifferentParentsNeverShareACall() throws Exception {
        ReplayStore shared = InMemoryReplayStore.create();
        SecurityContext workerOfA = context("team_a", shared).narrow("worker").build();
        SecurityContext workerOfB = context("team_b", shared).narrow("worker").build();
        chat(workerOfA, append("call-5", "/ws/work.txt", "a\n"));
        chat(workerOfB, append("call-5", "/ws/work.txt", "a\n"));
        assertThat(Files.readString(workspace.resolve("work.txt"))).isEqualTo("a\na\n");
        chat(context("team_a", shared).narrow("worker").build(), append("call-5", "/ws/work.txt", "a\n"));
        assertThat(Files.readString(workspace.resolve("work.txt"))).as("the same lineage replays").isEqualTo("a\na\n");
    }
}
