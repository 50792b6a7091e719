package dev.mero.core.approval;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ApprovalBackendsTest {

    private final ApprovalRequest request = Requests.write("/ws/a.txt");

    @Test
    void fixedBackendsGiveTheirAnswer() throws Exception {
        assertThat(ApprovalBackends.alwaysApprove().decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(ApprovalBackends.alwaysDeny().decide(request)).isEqualTo(ApprovalDecision.DENIED);
        assertThat(ApprovalBackends.alwaysAbstain().decide(request)).isEqualTo(ApprovalDecision.ABSTAIN);
    }

    @Test
    void fixedBackendsNameThemselves() {
        assertThat(ApprovalBackends.alwaysApprove()).hasToString("ApprovalBackends.alwaysApprove()");
        assertThat(ApprovalBackends.alwaysDeny()).hasToString("ApprovalBackends.alwaysDeny()");
        assertThat(ApprovalBackends.alwaysAbstain()).hasToString("ApprovalBackends.alwaysAbstain()");
    }
}
