package dev.mero.core.approval;

import dev.mero.core.ApprovalTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A chain whose backends time out or hang: these tests wait out real per-backend time-outs, so PIT does not run
 * them; {@link ChainedApprovalDecisionTest} holds the chain's tests that never wait for a time-out.
 */
@Timeout(30)
class ChainedApprovalTest {

    private static final Duration LONG = Duration.ofSeconds(10);
    private static final Duration SHORT = Duration.ofMillis(300);
    private static final String NONE_DECIDED = "No backend in chain could resolve approval for 'WRITE: /ws/a.txt'.";

    private final ApprovalRequest request = Requests.write("/ws/a.txt");
    /** Released at the end of every test so that no hanging backend outlives it. */
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<String> asked = new ArrayList<>();
    /** Worker threads started by chains built with {@link #tracked}. */
    private final List<Thread> workers = new CopyOnWriteArrayList<>();
    /** Threads currently inside a backend from {@link #ignoringInterrupts}. */
    private final List<Thread> stuckThreads = new CopyOnWriteArrayList<>();
    /** Counted down each time a backend from {@link #ignoringInterrupts} is entered. */
    private volatile CountDownLatch stuckEntered = new CountDownLatch(0);

    @AfterEach
    void releaseHangingBackends() throws InterruptedException {
        release.countDown();
        Thread.interrupted();
        // Every backend thread a tracked chain started ends once released: joined, never counted.
        for (Thread worker : workers) {
            worker.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(worker.isAlive()).as("approval thread %s still running", worker.getName()).isFalse();
        }
    }

    /** A chain whose worker threads the test can join. */
    private ChainedApproval tracked(int maxConcurrentCalls, ApprovalBackend... backends) {
        return ChainedApproval.builder().perBackendTimeout(SHORT).backends(List.of(backends))
                .maxConcurrentCalls(maxConcurrentCalls).workerObserver(workers::add).build();
    }

    private ApprovalBackend answering(String name, ApprovalDecision decision) {
        return r -> {
            record(name);
            return decision;
        };
    }

    private ApprovalBackend throwing(String name) {
        return r -> {
            record(name);
            throw new IOException("backend " + name + " is down");
        };
    }

    /** Blocks until interrupted (then throws) or released. */
    private ApprovalBackend hanging(String name) {
        return r -> {
            record(name);
            release.await();
            return ApprovalDecision.APPROVED;
        };
    }

    /** Blocks until released, swallowing every interrupt. */
    private ApprovalBackend ignoringInterrupts(String name) {
        return r -> {
            stuckThreads.add(Thread.currentThread());
            record(name);
            stuckEntered.countDown();
            while (true) {
                try {
                    release.await();
                    return ApprovalDecision.APPROVED;
                } catch (InterruptedException ignored) {
                    // a badly written backend
                }
            }
        };
    }

    private synchronized void record(String name) {
        asked.add(name);
    }

    private synchronized List<String> asked() {
        return List.copyOf(asked);
    }

    @Test
    void whenNoBackendDecidesTheChainTimesOut() {
        ChainedApproval chain = ChainedApproval.of(SHORT, answering("a", ApprovalDecision.ABSTAIN), throwing("b"),
                hanging("c"), answering("d", null));

        assertThatThrownBy(() -> chain.decide(request))
                .isExactlyInstanceOf(ApprovalTimeoutException.class)
                .hasMessage(NONE_DECIDED);
        assertThat(asked()).containsExactly("a", "b", "c", "d");
    }

    @Test
    void everyMixOfOutcomes() throws Exception {
        List<String> undecided = List.of("abstain", "null", "throw", "timeout");
        Duration timeout = Duration.ofMillis(250);
        for (String first : undecided) {
            for (ApprovalDecision last : List.of(ApprovalDecision.APPROVED, ApprovalDecision.DENIED)) {
                ChainedApproval chain = ChainedApproval.of(timeout, undecided(first), answering("last", last),
                        answering("never asked", ApprovalDecision.APPROVED));
                assertThat(chain.decide(request)).as("%s, %s", first, last).isEqualTo(last);
            }
            for (String second : undecided) {
                ChainedApproval none = ChainedApproval.of(timeout, undecided(first), undecided(second));
                assertThatThrownBy(() -> none.decide(request)).as("%s, %s", first, second)
                        .isInstanceOf(ApprovalTimeoutException.class).hasMessage(NONE_DECIDED);
            }
        }
        assertThat(asked()).doesNotContain("never asked");
    }

    private ApprovalBackend undecided(String kind) {
        return switch (kind) {
            case "abstain" -> answering(kind, ApprovalDecision.ABSTAIN);
            case "null" -> answering(kind, null);
            case "throw" -> throwing(kind);
            default -> hanging(kind);
        };
    }

    @Test
    void aBackendIgnoringInterruptsBlocksNothingAndLeaksNoThreadOnceReleased() throws Exception {
        stuckEntered = new CountDownLatch(3);
        ChainedApproval chain = tracked(ChainedApproval.DEFAULT_MAX_CONCURRENT_CALLS, ignoringInterrupts("stuck"),
                answering("b", ApprovalDecision.APPROVED));

        for (int i = 0; i < 3; i++) {
            assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        }
        assertThat(stuckEntered.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(stuckThreads).hasSize(3).allSatisfy(thread -> {
            assertThat(thread.isAlive()).isTrue();
            assertThat(thread.isDaemon()).isTrue();
        });
        assertThat(workers).hasSize(6).allSatisfy(thread -> assertThat(thread.isDaemon()).isTrue());

        release.countDown();
        for (Thread thread : workers) {
            thread.join(TimeUnit.SECONDS.toMillis(20));
        }
        assertThat(workers).noneMatch(Thread::isAlive);
    }

    @Test
    void hungCallsAreBoundedPerBackend() throws Exception {
        stuckEntered = new CountDownLatch(1);
        ChainedApproval chain = tracked(1, ignoringInterrupts("stuck"), answering("b", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        // The stuck call still holds the stuck backend's only slot: it is skipped, the next one is asked.
        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(stuckEntered.await(20, TimeUnit.SECONDS)).isTrue();
        assertThat(asked()).containsExactlyInAnyOrder("stuck", "b", "b");
        assertThat(stuckThreads).hasSize(1);

        release.countDown();
        // The slot is given back before the backend's thread ends, so after the join the stuck backend is asked.
        stuckThreads.get(0).join(TimeUnit.SECONDS.toMillis(20));
        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked()).hasSize(4).endsWith("stuck");
    }
}
