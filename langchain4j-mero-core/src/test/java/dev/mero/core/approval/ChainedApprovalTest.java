package dev.mero.core.approval;

import dev.mero.core.ApprovalDeniedException;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    void approvedFirstWinsAndNothingElseIsAsked() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG, answering("a", ApprovalDecision.APPROVED),
                answering("b", ApprovalDecision.DENIED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked()).containsExactly("a");
    }

    @Test
    void abstainPassesToTheNextBackend() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG, answering("a", ApprovalDecision.ABSTAIN),
                answering("b", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked()).containsExactly("a", "b");
    }

    @Test
    void nullPassesToTheNextBackend() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG, answering("a", null), answering("b", ApprovalDecision.DENIED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.DENIED);
        assertThat(asked()).containsExactly("a", "b");
    }

    @Test
    void anExceptionPassesToTheNextBackend() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG, throwing("a"), answering("b", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked()).containsExactly("a", "b");
    }

    @Test
    void aRuntimeExceptionOrErrorPassesToTheNextBackend() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG,
                r -> {
                    throw new IllegalStateException("bug");
                },
                r -> {
                    throw new AssertionError("worse bug");
                },
                answering("c", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
    }

    @Test
    void aTimeoutPassesToTheNextBackendAndInterruptsTheSlowOne() throws Exception {
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(1);
        ApprovalBackend slow = r -> {
            try {
                release.await();
                return ApprovalDecision.APPROVED;
            } catch (InterruptedException e) {
                interrupted.set(true);
                throw e;
            } finally {
                ended.countDown();
            }
        };
        ChainedApproval chain = ChainedApproval.of(SHORT, slow, answering("b", ApprovalDecision.APPROVED));

        long start = System.nanoTime();
        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(LONG);
        assertThat(ended.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted).isTrue();
    }

    @Test
    void aBackendInterruptedByItselfPassesToTheNextBackend() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG, r -> {
            Thread.currentThread().interrupt();
            throw new InterruptedException("gave up");
        }, answering("b", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void deniedIsFinal() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG, answering("a", ApprovalDecision.ABSTAIN),
                answering("b", ApprovalDecision.DENIED), answering("c", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.DENIED);
        assertThat(asked()).containsExactly("a", "b");
    }

    @Test
    void deniedFirstIsFinal() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG, answering("a", ApprovalDecision.DENIED),
                answering("b", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.DENIED);
        assertThat(asked()).containsExactly("a");
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
    void backendsRunOnNamedDaemonThreads() throws Exception {
        AtomicReference<Thread> worker = new AtomicReference<>();
        ChainedApproval chain = ChainedApproval.of(LONG, r -> {
            worker.set(Thread.currentThread());
            return ApprovalDecision.APPROVED;
        });

        chain.decide(request);

        assertThat(worker.get()).isNotSameAs(Thread.currentThread());
        assertThat(worker.get().getName()).matches("mero-approval-\\d+");
        assertThat(worker.get().isDaemon()).isTrue();
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

    @Test
    void anInterruptedCallerStopsTheChainAndInterruptsTheBackend() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch backendInterrupted = new CountDownLatch(1);
        ApprovalBackend waiting = r -> {
            started.countDown();
            try {
                release.await();
                return ApprovalDecision.APPROVED;
            } catch (InterruptedException e) {
                backendInterrupted.countDown();
                throw e;
            }
        };
        ChainedApproval chain = ChainedApproval.of(LONG, waiting, answering("b", ApprovalDecision.APPROVED));

        BlockingCall caller = BlockingCall.start(() -> chain.decide(request));
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();

        assertThat(caller.failure()).isInstanceOf(InterruptedException.class);
        assertThat(backendInterrupted.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(asked()).isEmpty();
    }

    @Test
    void throughTheGateAnInterruptedCallerIsRefusedAndKeepsItsFlag() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        ApprovalGate gate = ApprovalGate.builder().backend(ChainedApproval.of(LONG, r -> {
            started.countDown();
            release.await();
            return ApprovalDecision.APPROVED;
        })).build();

        BlockingCall caller = BlockingCall.start(() -> {
            gate.approve(request);
            return "approved";
        });
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();

        assertThat(caller.failure()).isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: /ws/a.txt' was not approved for context 'worker_1'.");
        assertThat(caller.interruptedAtEnd()).isTrue();
    }

    @Test
    void chainsNest() throws Exception {
        AtomicInteger inner = new AtomicInteger();
        ChainedApproval nested = ChainedApproval.of(SHORT, r -> {
            inner.incrementAndGet();
            return ApprovalDecision.ABSTAIN;
        });
        ChainedApproval chain = ChainedApproval.of(LONG, nested, answering("b", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(inner).hasValue(1);
    }

    @Test
    void configurationIsValidated() {
        assertThatThrownBy(() -> ChainedApproval.of(Duration.ZERO, ApprovalBackends.alwaysApprove()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ChainedApproval per-backend timeout must be positive, got PT0S");
        assertThatThrownBy(() -> ChainedApproval.of(LONG))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ChainedApproval needs at least one backend");
        assertThatThrownBy(() -> ChainedApproval.builder().maxConcurrentCalls(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ChainedApproval maxConcurrentCalls must be at least 1, got 0");
        assertThatThrownBy(() -> ChainedApproval.builder().backend(ApprovalBackends.alwaysApprove()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("ChainedApproval needs a per-backend timeout");
    }
}
