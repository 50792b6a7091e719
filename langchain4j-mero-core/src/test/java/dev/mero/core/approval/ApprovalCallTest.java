package dev.mero.core.approval;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Taking and abandoning a chain's backend call, alone and nested: registered work runs only when every chain takes. */
class ApprovalCallTest {

    private final List<String> done = new ArrayList<>();

    private Runnable work(String name) {
        return () -> done.add(name);
    }

    @Test
    void workRegisteredWhilePendingRunsOnceWhenTheAnswerIsTaken() {
        ApprovalCall call = new ApprovalCall(null);
        assertThat(call.whenTaken(work("remember"))).isTrue();
        assertThat(done).isEmpty();

        assertThat(call.take()).isTrue();
        assertThat(done).containsExactly("remember");
        assertThat(call.take()).isTrue();
        assertThat(call.abandon()).isFalse();
        assertThat(done).containsExactly("remember");

        assertThat(call.whenTaken(work("late"))).isTrue();
        assertThat(done).containsExactly("remember", "late");
    }

    @Test
    void anAbandonedCallDropsItsWorkAndRefusesMore() {
        ApprovalCall call = new ApprovalCall(null);
        call.whenTaken(work("remember"));

        assertThat(call.abandon()).isTrue();
        assertThat(call.abandon()).isTrue();
        assertThat(call.take()).isFalse();
        assertThat(call.whenTaken(work("late"))).isFalse();
        assertThat(done).isEmpty();
    }

    @Test
    void nestedWorkRunsOnlyWhenTheOuterCallIsTakenToo() {
        ApprovalCall outer = new ApprovalCall(null);
        ApprovalCall inner = new ApprovalCall(outer);
        inner.whenTaken(work("remember"));

        assertThat(inner.take()).isTrue();
        assertThat(done).isEmpty();
        assertThat(outer.take()).isTrue();
        assertThat(done).containsExactly("remember");
    }

    @Test
    void workRegisteredAfterTheInnerCallIsTakenWaitsForTheOuterCall() {
        ApprovalCall outer = new ApprovalCall(null);
        ApprovalCall inner = new ApprovalCall(outer);
        inner.take();

        assertThat(inner.whenTaken(work("late"))).isTrue();
        assertThat(done).isEmpty();
        outer.take();
        assertThat(done).containsExactly("late");
    }

    @Test
    void nestedWorkIsDroppedWhenTheOuterCallIsAbandoned() {
        ApprovalCall outer = new ApprovalCall(null);
        ApprovalCall inner = new ApprovalCall(outer);
        inner.whenTaken(work("remember"));
        inner.take();

        assertThat(outer.abandon()).isTrue();
        assertThat(inner.whenTaken(work("late"))).isFalse();
        assertThat(outer.take()).isFalse();
        assertThat(done).isEmpty();
    }

    @Test
    void aCallIsCurrentOnlyWhileItsBodyRuns() {
        ApprovalCall call = new ApprovalCall(null);
        List<ApprovalCall> seen = new ArrayList<>();

        call.runAsCurrent(() -> seen.add(ApprovalCall.current()));

        assertThat(seen).containsExactly(call);
        assertThat(ApprovalCall.current()).isNull();
    }
}
