package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.Permission;
import dev.mero.core.approval.ApprovalBackends;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ElicitationApprovalTest {

    private final ApprovalRequest write = ApprovalRequest.builder()
            .contextName("worker_1")
            .permissions(Permission.WRITE)
            .subject("/ws/a.txt")
            .target(Path.of("/srv/host/secret-root/a.txt"))
            .details("-old\n+new \u001b[31mred\u202e")
            .build();

    @Test
    void anAcceptWithApproveTrueApproves() throws Exception {
        Client client = new Client(true, request -> answer(ElicitResult.Action.ACCEPT, true));

        ApprovalDecision decision = decideAs(client, ElicitationApproval.builder().build());

        assertThat(decision).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(client.asked).hasSize(1);
        ElicitFormRequest asked = client.asked.get(0);
        assertThat(asked.requestedSchema()).containsEntry("required", List.of("approve"));
        assertThat(asked.message()).contains("'WRITE: /ws/a.txt'", "'worker_1'", "+new \\x1b[31mred\\u202e")
                .doesNotContain("/srv/host", "\u001b", "\u202e");
    }

    @Test
    void everyOtherAnswerDenies() throws Exception {
        List<ElicitResult> answers = new ArrayList<>(List.of(
                answer(ElicitResult.Action.ACCEPT, false),
                answer(ElicitResult.Action.DECLINE, true),
                answer(ElicitResult.Action.CANCEL, true),
                new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("approve", "true")),
                new ElicitResult(ElicitResult.Action.ACCEPT, null)));
        Map<String, Object> nullApprove = new HashMap<>();
        nullApprove.put("approve", null);
        answers.add(new ElicitResult(ElicitResult.Action.ACCEPT, nullApprove));

        for (ElicitResult answer : answers) {
            ApprovalDecision decision = decideAs(new Client(true, request -> answer),
                    ElicitationApproval.builder().fallback(ApprovalBackends.alwaysApprove()).build());
            assertThat(decision).as("answer %s", answer).isEqualTo(ApprovalDecision.DENIED);
        }
    }

    @Test
    void aClientWithoutElicitationIsNotAskedAndTheFallbackDecides() throws Exception {
        Client client = new Client(false, request -> answer(ElicitResult.Action.ACCEPT, true));

        assertThat(decideAs(client, ElicitationApproval.builder().fallback(ApprovalBackends.alwaysDeny()).build()))
                .isEqualTo(ApprovalDecision.DENIED);
        assertThat(decideAs(client, ElicitationApproval.builder().fallback(ApprovalBackends.alwaysApprove()).build()))
                .isEqualTo(ApprovalDecision.APPROVED);
        assertThat(client.asked).isEmpty();
    }

    @Test
    void withoutClientAndWithoutFallbackItAbstains() throws Exception {
        assertThat(ElicitationApproval.builder().build().decide(write)).isEqualTo(ApprovalDecision.ABSTAIN);
        assertThat(ElicitationApproval.builder().fallback(ApprovalBackends.alwaysApprove()).build().decide(write))
                .isEqualTo(ApprovalDecision.APPROVED);
    }

    @Test
    void theCallingClientIsForgottenAfterTheCall() throws Exception {
        Client client = new Client(true, request -> answer(ElicitResult.Action.ACCEPT, true));
        decideAs(client, ElicitationApproval.builder().build());

        assertThat(CallingClient.current()).isEmpty();
        assertThat(ElicitationApproval.builder().build().decide(write)).isEqualTo(ApprovalDecision.ABSTAIN);
    }

    @Test
    void aCommandShowsItsWords() {
        ApprovalRequest command = ApprovalRequest.builder().contextName("c").permissions(Permission.EXECUTE)
                .argv(List.of("git", "status")).build();

        assertThat(ElicitationApproval.message(command)).contains("'EXECUTE: git status'", "'git' 'status'");
    }

    private ApprovalDecision decideAs(ApprovalClient client, ElicitationApproval approval) throws Exception {
        Object[] decision = new Object[1];
        CallingClient.during(client, () -> {
            try {
                decision[0] = approval.decide(write);
                return null;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        return (ApprovalDecision) decision[0];
    }

    private static ElicitResult answer(ElicitResult.Action action, boolean approve) {
        return new ElicitResult(action, Map.of("approve", approve));
    }

    private static final class Client implements ApprovalClient {
        private final boolean canElicit;
        private final Function<ElicitFormRequest, ElicitResult> user;
        private final List<ElicitFormRequest> asked = new ArrayList<>();

        Client(boolean canElicit, Function<ElicitFormRequest, ElicitResult> user) {
            this.canElicit = canElicit;
            this.user = user;
        }

        @Override
        public boolean canElicit() {
            return canElicit;
        }

        @Override
        public ElicitResult elicit(ElicitFormRequest request) {
            asked.add(request);
            return user.apply(request);
        }
    }
}
