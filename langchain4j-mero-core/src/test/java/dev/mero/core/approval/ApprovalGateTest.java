package dev.mero.core.approval;

import dev.mero.core.ApprovalDeniedException;
import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.Permission;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ApprovalGateTest {

    private static final String NOT_APPROVED = "Action 'WRITE: /ws/a.txt' was not approved for context 'worker_1'.";

    private final RecordingAudit audit = new RecordingAudit();
    private final ApprovalRequest request = Requests.write("/ws/a.txt");

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private ApprovalGate gate(ApprovalBackend backend) {
        return ApprovalGate.builder().backend(backend).auditLog(audit.log).build();
    }

    @Test
    void aBackendThrowingAnErrorIsARecordedRefusal() {
        assertThatThrownBy(() -> gate(r -> {
            throw new AssertionError("backend bug");
        }).approve(request)).isInstanceOf(ApprovalDeniedException.class).hasMessage(NOT_APPROVED);

        assertThat(audit.events).extracting(AuditEvent::type)
                .containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_REFUSED);
    }

    @Test
    void aVirtualMachineErrorPropagatesOnlyAfterTheRefusalIsRecorded() {
        StackOverflowError overflow = new StackOverflowError();

        assertThatThrownBy(() -> gate(r -> {
            throw overflow;
        }).approve(request)).isSameAs(overflow);

        assertThat(audit.events).extracting(AuditEvent::type)
                .containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_REFUSED);
    }

    @Test
    void approvedReturnsAndIsAudited() {
        assertThatCode(() -> gate(ApprovalBackends.alwaysApprove()).approve(request)).doesNotThrowAnyException();

        assertThat(audit.types()).containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_GRANTED);
        AuditEvent granted = audit.events.get(1);
        assertThat(granted.contextName()).contains("worker_1");
        assertThat(granted.action()).contains("WRITE: /ws/a.txt");
        assertThat(granted.subject()).contains("/ws/a.txt");
        assertThat(granted.permissions()).containsExactly(Permission.WRITE);
        assertThat(granted.requestId()).contains(request.id());
        assertThat(granted.reason()).isEmpty();
    }

    @Test
    void theGateUsesTheBackendAndAuditLogItWasGiven() {
        ApprovalBackend backend = ApprovalBackends.alwaysApprove();

        ApprovalGate gate = gate(backend);

        assertThat(gate.backend()).containsSame(backend);
        assertThat(gate.auditLog()).isSameAs(audit.log);
    }

    @Test
    void withoutABackendEveryRequestIsRefusedFailSafe() {
        ApprovalGate gate = ApprovalGate.builder().auditLog(audit.log).build();

        assertThat(gate.backend()).isEmpty();
        assertThatThrownBy(() -> gate.approve(request))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: /ws/a.txt' requires approval for ['WRITE'] but no approval backend is "
                        + "configured (fail-safe deny).");
        assertThat(audit.types()).containsExactly(AuditEventType.APPROVAL_REFUSED);
        assertThat(audit.events.get(0).errorCode()).contains("approval_denied");
    }

    @Test
    void theNoBackendMessageListsEveryPermissionInOrder() {
        ApprovalRequest both = ApprovalRequest.builder().contextName("worker_1")
                .permissions(Permission.DELETE, Permission.WRITE).subject("/ws/a.txt").build();

        assertThatThrownBy(() -> gate(null).approve(both))
                .hasMessage("Action 'WRITE, DELETE: /ws/a.txt' requires approval for ['WRITE', 'DELETE'] but no "
                        + "approval backend is configured (fail-safe deny).");
    }

    @ParameterizedTest
    @EnumSource(value = ApprovalDecision.class, names = {"DENIED", "ABSTAIN"})
    void anythingButApprovedIsRefused(ApprovalDecision decision) {
        assertThatThrownBy(() -> gate(r -> decision).approve(request))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage(NOT_APPROVED)
                .hasNoCause();
        assertThat(audit.types()).containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_REFUSED);
        assertThat(audit.events.get(1).reason()).contains(NOT_APPROVED);
    }

    @Test
    void aNullDecisionIsRefused() {
        assertThatThrownBy(() -> gate(r -> null).approve(request)).hasMessage(NOT_APPROVED);
    }

    @Test
    void aFailingBackendIsRefusedAndTheCauseKeptForLogs() {
        IOException failure = new IOException("chat server down");

        assertThatThrownBy(() -> gate(r -> {
            throw failure;
        }).approve(request))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage(NOT_APPROVED)
                .hasCause(failure);
        assertThat(audit.events.get(1).reason()).contains(NOT_APPROVED);
    }

    @Test
    void anInterruptRefusesAndRestoresTheFlag() {
        assertThatThrownBy(() -> gate(r -> {
            throw new InterruptedException();
        }).approve(request))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage(NOT_APPROVED);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        assertThat(audit.types()).containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_REFUSED);
    }

    @Test
    void anUnavailableStorePropagatesSoTheModelLearnsTheStoreRefused() {
        ApprovalBackend storeDown = r -> {
            throw dev.mero.core.PolicyStoreUnavailableException.of("approval", new java.io.IOException("down"));
        };

        assertThatThrownBy(() -> gate(storeDown).approve(request))
                .isExactlyInstanceOf(dev.mero.core.PolicyStoreUnavailableException.class)
                .hasMessageStartingWith("The policy store is unavailable (approval), so the action was not run.");
        assertThat(audit.types()).containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_REFUSED);
        assertThat(audit.events.get(1).errorCode()).contains("policy_store_unavailable");
    }

    @Test
    void aChainTimeoutPropagatesUnchanged() {
        ChainedApproval chain = ChainedApproval.of(java.time.Duration.ofSeconds(5), ApprovalBackends.alwaysAbstain());

        assertThatThrownBy(() -> gate(chain).approve(request))
                .isExactlyInstanceOf(ApprovalTimeoutException.class)
                .hasMessage("No backend in chain could resolve approval for 'WRITE: /ws/a.txt'.");
        assertThat(audit.types()).containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_TIMED_OUT);
        assertThat(audit.events.get(1).errorCode()).contains("approval_timeout");
    }

    @Test
    void controlCharactersInTheActionAreEscaped() {
        ApprovalRequest hostile = Requests.write("/ws/a\u001b[2J\u202e.txt");

        assertThatThrownBy(() -> gate(ApprovalBackends.alwaysDeny()).approve(hostile))
                .hasMessage("Action 'WRITE: /ws/a\\x1b[2J\\u202e.txt' was not approved for context 'worker_1'.");
    }

    @Test
    void theBackendIsAskedOncePerRequest() {
        AtomicInteger asked = new AtomicInteger();
        ApprovalGate gate = gate(r -> {
            asked.incrementAndGet();
            return ApprovalDecision.APPROVED;
        });

        gate.approve(request);
        gate.approve(request);

        assertThat(asked).hasValue(2);
    }

    @Test
    void detailsNeverReachTheAuditLog() {
        ApprovalRequest withDiff = ApprovalRequest.builder().contextName("worker_1").permissions(Permission.WRITE)
                .subject("/ws/.env").details("+API_KEY=sk-secret-123").build();

        gate(ApprovalBackends.alwaysApprove()).approve(withDiff);
        assertThatThrownBy(() -> gate(ApprovalBackends.alwaysDeny()).approve(withDiff));

        assertThat(audit.events).hasSize(4)
                .allSatisfy(event -> assertThat(event.toString()).doesNotContain("sk-secret"));
    }
}
