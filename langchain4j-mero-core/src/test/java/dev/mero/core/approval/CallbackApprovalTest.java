package dev.mero.core.approval;

import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.ApprovalDeniedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class CallbackApprovalTest {

    private final ApprovalRequest request = Requests.write("/ws/a.txt");
    private final AtomicReference<CompletableFuture<ApprovalDecision>> handedOut = new AtomicReference<>();

    private CallbackApproval.Builder capturing() {
        return CallbackApproval.builder().handler(r -> {
            CompletableFuture<ApprovalDecision> future = new CompletableFuture<>();
            handedOut.set(future);
            return future;
        });
    }

    @Test
    void theApplicationDecidesFromAnotherThread() throws Exception {
        AtomicReference<ApprovalRequest> seen = new AtomicReference<>();
        CallbackApproval approval = CallbackApproval.of(r -> {
            seen.set(r);
            return CompletableFuture.supplyAsync(() -> ApprovalDecision.APPROVED,
                    CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS));
        });

        assertThat(approval.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(seen.get()).isSameAs(request);
        assertThat(approval.timeout()).isEqualTo(CallbackApproval.DEFAULT_TIMEOUT);
    }

    @Test
    void aDenialIsReturned() throws Exception {
        CallbackApproval approval = CallbackApproval.of(
                r -> CompletableFuture.completedFuture(ApprovalDecision.DENIED));

        assertThat(approval.decide(request)).isEqualTo(ApprovalDecision.DENIED);
    }

    @Test
    void noAnswerInTimeIsATimeoutAndCancelsTheQuestion() {
        CallbackApproval approval = capturing().timeout(Duration.ofMillis(100)).build();

        assertThatThrownBy(() -> approval.decide(request)).isInstanceOf(ApprovalTimeoutException.class)
                .hasMessage("Approval of 'WRITE: /ws/a.txt' timed out in context 'worker_1': nobody decided within 0.1s, "
                        + "so the action was not run.");
        assertThat(handedOut.get()).isCancelled();
    }

    @Test
    void theTimeoutDecisionCanBeAbstain() throws Exception {
        CallbackApproval approval = capturing().timeout(Duration.ofMillis(100))
                .timeoutDecision(ApprovalDecision.ABSTAIN).build();

        assertThat(approval.decide(request)).isEqualTo(ApprovalDecision.ABSTAIN);
        assertThat(handedOut.get()).isCancelled();
    }

    @Test
    void theTimeoutDecisionCanBeDenied() throws Exception {
        CallbackApproval approval = capturing().timeout(Duration.ofMillis(100))
                .timeoutDecision(ApprovalDecision.DENIED).build();

        assertThat(approval.decide(request)).isEqualTo(ApprovalDecision.DENIED);
    }

    @Test
    void silenceCanNeverApprove() {
        assertThatThrownBy(() -> CallbackApproval.builder().timeoutDecision(ApprovalDecision.APPROVED))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CallbackApproval timeoutDecision must be ABSTAIN or DENIED, got APPROVED: silence must "
                        + "never approve");
    }

    @Test
    void noFutureOrANullDecisionAbstains() throws Exception {
        assertThat(CallbackApproval.of(r -> null).decide(request)).isEqualTo(ApprovalDecision.ABSTAIN);
        assertThat(CallbackApproval.of(r -> CompletableFuture.completedFuture(null)).decide(request))
                .isEqualTo(ApprovalDecision.ABSTAIN);
    }

    @Test
    void aQuestionCancelledByTheApplicationAbstains() throws Exception {
        CallbackApproval approval = CallbackApproval.of(r -> {
            CompletableFuture<ApprovalDecision> future = new CompletableFuture<>();
            future.cancel(false);
            return future;
        });

        assertThat(approval.decide(request)).isEqualTo(ApprovalDecision.ABSTAIN);
    }

    @Test
    void aFailedFutureFailsTheCallAndTheGateRefuses() {
        IOException failure = new IOException("websocket closed");
        CallbackApproval approval = CallbackApproval.of(r -> CompletableFuture.failedFuture(failure));

        assertThatThrownBy(() -> approval.decide(request)).isSameAs(failure);
        assertThatThrownBy(() -> ApprovalGate.builder().backend(approval).build().approve(request))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: /ws/a.txt' was not approved for context 'worker_1'.")
                .hasCause(failure);
    }

    @Test
    void anInterruptCancelsTheQuestion() throws Exception {
        CallbackApproval approval = capturing().build();
        BlockingCall waiting = BlockingCall.start(() -> approval.decide(request));
        while (handedOut.get() == null) {
            Thread.sleep(5);
        }

        waiting.interrupt();

        assertThat(waiting.failure()).isInstanceOf(InterruptedException.class);
        assertThat(handedOut.get()).isCancelled();
    }

    @Test
    void theTimeoutMustBePositive() {
        assertThatThrownBy(() -> CallbackApproval.builder().timeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CallbackApproval timeout must be positive, got PT-1S");
        assertThatThrownBy(() -> CallbackApproval.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("CallbackApproval needs a handler; call handler(...) on the builder");
    }
}
