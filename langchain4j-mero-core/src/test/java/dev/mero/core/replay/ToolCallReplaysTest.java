package dev.mero.core.replay;

import dev.mero.core.error.ToolError;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ToolCallReplaysTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    @Test
    void aRepeatedIdReturnsTheFirstResultWithoutRunningAgain() {
        InMemoryReplayStore store = InMemoryReplayStore.create();
        AtomicInteger runs = new AtomicInteger();
        String scope = ToolCallReplays.scope("ctx", "chat", "alice", "append_file", "{\"a\":1}");
        ToolCallReplays.Result first = ToolCallReplays.run(store, scope, "id-1", WAIT,
                () -> new ToolCallReplays.Result("ran " + runs.incrementAndGet(), false));
        ToolCallReplays.Result repeat = ToolCallReplays.run(store, scope, "id-1", WAIT,
                () -> new ToolCallReplays.Result("ran " + runs.incrementAndGet(), false));

        assertThat(first).isEqualTo(new ToolCallReplays.Result("ran 1", false));
        assertThat(repeat).isEqualTo(first);
        assertThat(runs).hasValue(1);
    }

    @Test
    void anErrorIsReplayedAsAnError() {
        InMemoryReplayStore store = InMemoryReplayStore.create();
        ToolCallReplays.run(store, "s", "id", WAIT, () -> new ToolCallReplays.Result("Denied: no", true));
        assertThat(ToolCallReplays.run(store, "s", "id", WAIT, () -> new ToolCallReplays.Result("other", false)))
                .isEqualTo(new ToolCallReplays.Result("Denied: no", true));
    }

    @Test
    void aCallThatThrowsIsRecordedAsAnInternalErrorAndNotRunAgain() {
        InMemoryReplayStore store = InMemoryReplayStore.create();
        IllegalStateException bug = new IllegalStateException("bug");
        assertThatThrownBy(() -> ToolCallReplays.run(store, "s", "id", WAIT, () -> {
            throw bug;
        })).isSameAs(bug);
        assertThat(ToolCallReplays.run(store, "s", "id", WAIT, () -> new ToolCallReplays.Result("x", false)))
                .isEqualTo(new ToolCallReplays.Result("Error: " + ToolError.INTERNAL_ERROR_MESSAGE, true));
    }

    @Test
    void theScopeDiffersInEveryPartAndKeepsTheContextName() {
        String base = ToolCallReplays.scope("ctx", "chat", "alice", "append_file", "{}");
        assertThat(base).startsWith("ctx/").hasSize("ctx/".length() + 64);
        assertThat(ToolCallReplays.scope("ctx", "chat", "alice", "append_file", "{}")).isEqualTo(base);
        assertThat(ToolCallReplays.scope("other", "chat", "alice", "append_file", "{}")).isNotEqualTo(base);
        assertThat(ToolCallReplays.scope("ctx", "chat2", "alice", "append_file", "{}")).isNotEqualTo(base);
        assertThat(ToolCallReplays.scope("ctx", "chat", "bob", "append_file", "{}")).isNotEqualTo(base);
        assertThat(ToolCallReplays.scope("ctx", "chat", "alice", "write_file", "{}")).isNotEqualTo(base);
        assertThat(ToolCallReplays.scope("ctx", "chat", "alice", "append_file", "{ }")).isNotEqualTo(base);
        // the separator keeps parts apart: moving text from one part into the next is another call
        assertThat(ToolCallReplays.scope("ctx", "ab", "c", "t", "{}"))
                .isNotEqualTo(ToolCallReplays.scope("ctx", "a", "bc", "t", "{}"));
    }

    @Test
    void resultsWrittenByRunOnceAreReadByTheirPrefix() {
        assertThat(ToolCallReplays.decode("Denied: x")).isEqualTo(new ToolCallReplays.Result("Denied: x", true));
        assertThat(ToolCallReplays.decode("Error: x")).isEqualTo(new ToolCallReplays.Result("Error: x", true));
        assertThat(ToolCallReplays.decode("fine")).isEqualTo(new ToolCallReplays.Result("fine", false));
        assertThat(ToolCallReplays.decode("")).isEqualTo(new ToolCallReplays.Result("", false));
        assertThat(ToolCallReplays.decode(ToolCallReplays.encode(new ToolCallReplays.Result("=x", false))))
                .isEqualTo(new ToolCallReplays.Result("=x", false));
        assertThat(ToolCallReplays.decode(ToolCallReplays.encode(new ToolCallReplays.Result("!y", true))))
                .isEqualTo(new ToolCallReplays.Result("!y", true));
    }

    @Test
    void nullsAreRefused() {
        assertThatThrownBy(() -> new ToolCallReplays.Result(null, false)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ToolCallReplays.scope(null, null, null, "t", null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ToolCallReplays.scope("c", null, null, null, null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ToolCallReplays.run(null, "s", "i", WAIT, () -> null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ToolCallReplays.run(InMemoryReplayStore.create(), "s", "i", WAIT, null))
                .isInstanceOf(NullPointerException.class);
    }
}
