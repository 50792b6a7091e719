package dev.mero.core.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.ApprovalTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An answer that arrives after the chain gave up on its backend is discarded and never remembered. */
class AbandonedApprovalTest {

    private static final Duration SHORT = Duration.ofMillis(200);
    private static final Duration LONG = Duration.ofSeconds(60);

    private final ApprovalRequest request = Requests.write("/ws/a.txt");
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<Thread> workers = new CopyOnWriteArrayList<>();
    private final AtomicInteger asked = new AtomicInteger();

    @AfterEach
    void releaseAndJoin() throws InterruptedException {
        release.countDown();
        joinWorkers();
    }

    private void joinWorkers() throws InterruptedException {
        for (Thread worker : workers) {
            worker.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(worker.isAlive()).as("approval thread %s still running", worker.getName()).isFalse();
        }
    }

    /** The first call answers APPROVED only once released (ignoring interrupts); later calls answer at once. */
    private ApprovalBackend lateThenPrompt() {
        return r -> {
            if (asked.incrementAndGet() == 1) {
                while (true) {
                    try {
                        release.await();
                        return ApprovalDecision.APPROVED;
                    } catch (InterruptedException ignored) {
                        // a backend that keeps waiting for its human
                    }
                }
            }
            return ApprovalDecision.APPROVED;
        };
    }

    private ChainedApproval chain(Duration timeout, ApprovalBackend backend) {
        return ChainedApproval.builder().perBackendTimeout(timeout).backend(backend)
                .workerObserver(workers::add).build();
    }

    @Test
    void aLateApprovalIsNotRememberedAndTheRetryAsksAgain() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(lateThenPrompt());

        assertThatThrownBy(() -> chain(SHORT, memory).decide(request))
                .isInstanceOf(ApprovalTimeoutException.class);
        release.countDown();
        joinWorkers(); // the late APPROVED has now been given, after the chain gave up
        assertThat(asked).hasValue(1);
        assertThat(memory.size()).isZero();

        ChainedApproval patient = chain(LONG, memory);
        assertThat(patient.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked).as("the retry must ask again").hasValue(2);
        assertThat(memory.size()).isEqualTo(1);

        assertThat(patient.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked).as("an approval given in time is remembered").hasValue(2);
    }

    @Test
    void aLateApprovalInsideANestedChainIsNotRememberedWhenTheOuterChainGaveUp() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(lateThenPrompt());
        ChainedApproval inner = chain(LONG, memory);
        ChainedApproval outer = chain(SHORT, inner);

        assertThatThrownBy(() -> outer.decide(request)).isInstanceOf(ApprovalTimeoutException.class);
        release.countDown();
        joinWorkers();

        assertThat(asked).hasValue(1);
        assertThat(memory.size()).isZero();
    }

    @Test
    void outsideAChainAnApprovalIsRememberedAtOnce() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(r -> {
            asked.incrementAndGet();
            return ApprovalDecision.APPROVED;
        });

        memory.decide(request);
        memory.decide(request);

        assertThat(asked).hasValue(1);
    }

    @Test
    void aCallIsEitherTakenOrAbandonedNeverBoth() {
        AtomicInteger done = new AtomicInteger();
        ApprovalCall taken = new ApprovalCall(null);
        assertThat(taken.whenTaken(done::incrementAndGet)).isTrue();
        assertThat(taken.take()).isTrue();
        assertThat(taken.abandon()).isFalse();
        assertThat(done).hasValue(1);

        ApprovalCall abandoned = new ApprovalCall(null);
        assertThat(abandoned.whenTaken(done::incrementAndGet)).isTrue();
        assertThat(abandoned.abandon()).isTrue();
        assertThat(abandoned.take()).isFalse();
        assertThat(abandoned.whenTaken(done::incrementAndGet)).isFalse();
        assertThat(done).hasValue(1);

        ApprovalCall outer = new ApprovalCall(null);
        ApprovalCall nested = new ApprovalCall(outer);
        nested.whenTaken(done::incrementAndGet);
        assertThat(nested.take()).isTrue();
        assertThat(done).as("waits for the outer call").hasValue(1);
        assertThat(outer.take()).isTrue();
        assertThat(done).hasValue(2);
    }
}
