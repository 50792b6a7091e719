package dev.mero.core.approval;

import dev.mero.core.ApprovalDeniedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * How a chain decides, on its worker threads and slots, without waiting for a real time-out (the chain's
 * tests that wait out time-outs are in {@link ChainedApprovalTest}).
 */
@Timeout(30)
class ChainedApprovalDecisionTest {

    private static final Duration LONG = Duration.ofSeconds(10);

    private final ApprovalRequest request = Requests.write("/ws/a.txt");
    /** Released at the end of every test so that no waiting backend outlives it. */
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<String> asked = new CopyOnWriteArrayList<>();

    @AfterEach
    void releaseWaitingBackends() {
        release.countDown();
    }

    private ApprovalBackend answering(String name, ApprovalDecision decision) {
        return r -> {
            asked.add(name);
            return decision;
        };
    }

    /** Waits for the release; counts down {@code started} first and {@code interrupted} when interrupted. */
    private ApprovalBackend waiting(CountDownLatch started, CountDownLatch interrupted) {
        return r -> {
            started.countDown();
            try {
                release.await();
                return ApprovalDecision.APPROVED;
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        };
    }

    @ParameterizedTest
    @EnumSource(value = ApprovalDecision.class, names = {"APPROVED", "DENIED"})
    void theFirstDecisionIsFinalAndNothingElseIsAsked(ApprovalDecision decision) throws Exception {
        ApprovalDecision other = decision == ApprovalDecision.APPROVED ? ApprovalDecision.DENIED
                : ApprovalDecision.APPROVED;
        ChainedApproval chain = ChainedApproval.of(LONG, answering("a", decision), answering("b", other));

        assertThat(chain.decide(request)).isEqualTo(decision);
        assertThat(asked).containsExactly("a");
    }

    @Test
    void abstainPassesToTheNextBackend() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG, answering("a", ApprovalDecision.ABSTAIN),
                answering("b", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked).containsExactly("a", "b");
    }

    @Test
    void nullPassesToTheNextBackend() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG, answering("a", null), answering("b", ApprovalDecision.DENIED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.DENIED);
        assertThat(asked).containsExactly("a", "b");
    }

    @Test
    void anExceptionPassesToTheNextBackend() throws Exception {
        ChainedApproval chain = ChainedApproval.of(LONG, r -> {
            asked.add("a");
            throw new IOException("backend a is down");
        }, answering("b", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked).containsExactly("a", "b");
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
        assertThat(asked).containsExactly("a", "b");
    }

    @Test
    void aTimedOutBackendIsInterruptedAndTheNextOneAsked() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        // the backend waits until released, which happens only after the test: the time-out always fires
        ChainedApproval chain = ChainedApproval.of(Duration.ofMillis(50), waiting(new CountDownLatch(1), interrupted),
                answering("b", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).as("the abandoned backend was interrupted").isTrue();
    }

    @Test
    void backendsRunOnNamedDaemonThreadsThatTheObserverSees() throws Exception {
        AtomicReference<Thread> worker = new AtomicReference<>();
        List<Thread> observed = new CopyOnWriteArrayList<>();
        ChainedApproval chain = ChainedApproval.builder().perBackendTimeout(LONG).backend(r -> {
            worker.set(Thread.currentThread());
            return ApprovalDecision.APPROVED;
        }).workerObserver(observed::add).build();

        chain.decide(request);

        assertThat(worker.get()).isNotSameAs(Thread.currentThread());
        assertThat(worker.get().getName()).matches("mero-approval-\\d+");
        assertThat(worker.get().isDaemon()).isTrue();
        assertThat(observed).containsExactly(worker.get());
    }

    @Test
    void aCallGivesItsSlotBackWhenTheBackendReturns() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ChainedApproval chain = ChainedApproval.builder().perBackendTimeout(LONG).maxConcurrentCalls(1)
                .backend(r -> {
                    calls.incrementAndGet();
                    return ApprovalDecision.APPROVED;
                }).build();

        for (int i = 0; i < 3; i++) {
            assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        }
        assertThat(calls).hasValue(3);
    }

    @Test
    void anInterruptedCallerStopsTheChainAndInterruptsTheBackend() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch backendInterrupted = new CountDownLatch(1);
        ChainedApproval chain = ChainedApproval.of(LONG, waiting(started, backendInterrupted),
                answering("b", ApprovalDecision.APPROVED));

        BlockingCall caller = BlockingCall.start(() -> chain.decide(request));
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        caller.interrupt();

        assertThat(caller.failure()).isInstanceOf(InterruptedException.class);
        assertThat(backendInterrupted.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(asked).isEmpty();
    }

    @Test
    void throughTheGateAnInterruptedCallerIsRefusedAndKeepsItsFlag() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        ApprovalGate gate = ApprovalGate.builder()
                .backend(ChainedApproval.of(LONG, waiting(started, new CountDownLatch(1)))).build();

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
        AtomicBoolean innerAsked = new AtomicBoolean();
        ChainedApproval nested = ChainedApproval.of(LONG, r -> {
            innerAsked.set(true);
            return ApprovalDecision.ABSTAIN;
        });
        ChainedApproval chain = ChainedApproval.of(LONG, nested, answering("b", ApprovalDecision.APPROVED));

        assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(innerAsked).isTrue();
    }

    @Test
    void theChainKeepsItsTimeoutAndItsBackendsInOrder() {
        ApprovalBackend first = ApprovalBackends.alwaysDeny();
        ApprovalBackend second = ApprovalBackends.alwaysApprove();

        ChainedApproval chain = ChainedApproval.of(LONG, first, second);

        assertThat(chain.perBackendTimeout()).isEqualTo(LONG);
        assertThat(chain.backends()).containsExactly(first, second);
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
