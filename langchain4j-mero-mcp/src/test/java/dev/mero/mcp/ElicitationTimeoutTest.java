package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.ops.MeroOperations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A client whose user never answers the approval question: through the real SDK server, the call ends as an
 * approval timeout (its own text, {@code isError}, audited {@code APPROVAL_TIMED_OUT}), not as a refusal.
 */
class ElicitationTimeoutTest {

    @TempDir
    Path temp;

    @Test
    void anUnansweredQuestionIsAnApprovalTimeout() throws Exception {
        Path ws = Files.createDirectories(temp.resolve("ws"));
        List<AuditEvent> events = new CopyOnWriteArrayList<>();
        SecurityContext context = SecurityContext.builder().name("asker")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE))
                .requireApproval(Permission.WRITE).approval(ElicitationApproval.builder().build())
                .auditLog(AuditLog.builder().sink(events::add).build()).build();
        MeroMcpServer server = MeroMcpServer.builder(MeroOperations.forContext(context))
                .approvalTimeout(Duration.ofMillis(300)).build();

        try (PipedServer piped = PipedServer.initialized(server, "{\"elicitation\":{}}")) {
            piped.callTool(1, "write_file", "{\"path\":\"/ws/a.txt\",\"content\":\"x\"}");
            JsonNode question = piped.receive();
            assertThat(question.get("method").asText()).isEqualTo("elicitation/create");
            // the user never answers
            JsonNode result = piped.receive();

            assertThat(result.get("id").asInt()).isEqualTo(1);
            assertThat(result.at("/result/isError").asBoolean()).isTrue();
            assertThat(result.at("/result/content/0/text").asText()).isEqualTo("Denied: Approval of "
                    + "'WRITE: /ws/a.txt' timed out in context 'asker': nobody decided in time, so the action was "
                    + "not run.");
        }
        assertThat(ws.resolve("a.txt")).doesNotExist();
        assertThat(events).extracting(AuditEvent::type).contains(AuditEventType.APPROVAL_TIMED_OUT)
                .doesNotContain(AuditEventType.APPROVAL_REFUSED);
    }
}
