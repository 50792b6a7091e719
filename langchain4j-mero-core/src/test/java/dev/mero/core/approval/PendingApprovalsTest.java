package dev.mero.core.approval;

import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.Permission;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class PendingApprovalsTest {

    private final BlockingQueue<ApprovalRequest> announced = new LinkedBlockingQueue<>();
    /** A thread per waiting request, as in a server; the common pool may have a single thread. */
    private final ExecutorService callers = Executors.newCachedThreadPool();

    @AfterEach
    void stopCallers() {
        callers.shutdownNow();
    }

    private CompletableFuture<ApprovalDecision> decideAsync(PendingApprovals pending, ApprovalRequest request) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return pending.decide(request);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, callers);
    }

    @Test
    void aWebPageListsAndApprovesByIdAndTheRequestLeavesTheRegistry() throws Exception {
        PendingApprovals pending = PendingApprovals.builder().listener(announced::add).build();
        ApprovalRequest request = Requests.write("/ws/a.txt");

        CompletableFuture<ApprovalDecision> decision = decideAsync(pending, request);
        ApprovalRequest seen = announced.poll(10, TimeUnit.SECONDS);

        assertThat(seen).isSameAs(request);
        assertThat(pending.pending()).containsExactly(request);
        assertThat(pending.pending(request.id())).contains(request);
        assertThat(pending.complete(request.id(), ApprovalDecision.APPROVED)).isTrue();
        assertThat(decision.get(10, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(pending.pending()).isEmpty();
        assertThat(pending.complete(request.id(), ApprovalDecision.DENIED)).isFalse();
    }

    @Test
    void aDenialByIdIsReturned() throws Exception {
        PendingApprovals pending = PendingApprovals.builder().listener(announced::add).build();
        ApprovalRequest request = Requests.write("/ws/a.txt");

        CompletableFuture<ApprovalDecision> decision = decideAsync(pending, request);
        pending.complete(announced.poll(10, TimeUnit.SECONDS).id(), ApprovalDecision.DENIED);

        assertThat(decision.get(10, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.DENIED);
    }

    @Test
    void unknownIdsCompleteNothing() {
        PendingApprovals pending = PendingApprovals.create();

        assertThat(pending.complete("no-such-id", ApprovalDecision.APPROVED)).isFalse();
        assertThat(pending.pending("no-such-id")).isEmpty();
    }

    @Test
    void anUnansweredRequestTimesOutAndIsWithdrawn() {
        PendingApprovals pending = PendingApprovals.builder().timeout(Duration.ofMillis(100)).build();

        assertThatThrownBy(() -> pending.decide(Requests.write("/ws/a.txt"))).isInstanceOf(ApprovalTimeoutException.class)
                .hasMessage("Approval of 'WRITE: /ws/a.txt' timed out in context 'worker_1': nobody decided within 0.1s, "
                        + "so the action was not run.");
        assertThat(pending.pending()).isEmpty();
    }

    @Test
    void beyondTheBoundARequestAbstainsAtOnce() throws Exception {
        PendingApprovals pending = PendingApprovals.builder().maxPending(1).listener(announced::add).build();
        ApprovalRequest first = Requests.write("/ws/a.txt");
        CompletableFuture<ApprovalDecision> waiting = decideAsync(pending, first);
        announced.poll(10, TimeUnit.SECONDS);

        assertThat(pending.decide(Requests.write("/ws/b.txt"))).isEqualTo(ApprovalDecision.ABSTAIN);
        assertThat(pending.pending()).containsExactly(first);

        pending.complete(first.id(), ApprovalDecision.APPROVED);
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.APPROVED);
    }

    @Test
    void theSameRequestCannotWaitTwice() throws Exception {
        PendingApprovals pending = PendingApprovals.builder().listener(announced::add).build();
        ApprovalRequest request = Requests.write("/ws/a.txt");
        CompletableFuture<ApprovalDecision> waiting = decideAsync(pending, request);
        announced.poll(10, TimeUnit.SECONDS);

        assertThat(pending.decide(request)).isEqualTo(ApprovalDecision.ABSTAIN);

        pending.complete(request.id(), ApprovalDecision.DENIED);
        assertThat(waiting.get(10, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.DENIED);
    }

    @Test
    void aThrowingListenerDoesNotStopTheRequest() throws Exception {
        PendingApprovals pending = PendingApprovals.builder()
                .listener(r -> {
                    throw new IllegalStateException("websocket gone");
                })
                .listener(announced::add)
                .build();
        ApprovalRequest request = Requests.write("/ws/a.txt");

        CompletableFuture<ApprovalDecision> decision = decideAsync(pending, request);
        pending.complete(announced.poll(10, TimeUnit.SECONDS).id(), ApprovalDecision.APPROVED);

        assertThat(decision.get(10, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.APPROVED);
    }

    @Test
    void pendingRequestsAreListedOldestFirst() throws Exception {
        PendingApprovals pending = PendingApprovals.builder().listener(announced::add).build();
        Instant now = Instant.now();
        // ids that a hash map keeps newest first, so that only sorting by time lists them oldest first
        ApprovalRequest newer = ApprovalRequest.builder().id("a").contextName("c").permissions(Permission.WRITE)
                .subject("/ws/new").requestedAt(now).build();
        ApprovalRequest older = ApprovalRequest.builder().id("b").contextName("c").permissions(Permission.WRITE)
                .subject("/ws/old").requestedAt(now.minusSeconds(5)).build();
        List<CompletableFuture<ApprovalDecision>> waiting = List.of(decideAsync(pending, newer),
                decideAsync(pending, older));
        announced.poll(10, TimeUnit.SECONDS);
        announced.poll(10, TimeUnit.SECONDS);

        assertThat(pending.pending()).containsExactly(older, newer);

        pending.pending().forEach(r -> pending.complete(r.id(), ApprovalDecision.DENIED));
        for (CompletableFuture<ApprovalDecision> decision : waiting) {
            assertThat(decision.get(10, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.DENIED);
        }
    }

    @Test
    void configurationIsValidated() {
        assertThatThrownBy(() -> PendingApprovals.builder().maxPending(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PendingApprovals maxPending must be at least 1, got 0");
        assertThatThrownBy(() -> PendingApprovals.builder().timeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PendingApprovals timeout must be positive, got PT0S");
    }
}
