package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.CallbackApproval;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.error.ErrorCode;
import dev.mero.core.error.ToolError;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An approval nobody answers in time is a timeout, not a refusal: the model reads its own text
 * ({@code approval_timeout}), the audit log records {@code APPROVAL_TIMED_OUT}, and nothing is written; the
 * provider and the annotated tools say the same.
 */
class ApprovalTimeoutLoopTest {

    interface Agent {
        String chat(String message);
    }

    @TempDir
    Path temp;

    private Path ws;
    private final List<AuditEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectories(temp.resolve("ws"));
    }

    private SecurityContext context() {
        // the application is asked, and never answers
        CallbackApproval silent = CallbackApproval.builder().handler(request -> new CompletableFuture<>())
                .timeout(Duration.ofMillis(200)).build();
        return SecurityContext.builder().name("gov")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE))
                .requireApproval(Permission.WRITE).approval(silent)
                .auditLog(AuditLog.builder().sink(events::add).build()).build();
    }

    private static ToolExecutionResultMessage only(ScriptedChatModel model) {
        return ScriptedChatModel.lastToolResults(model.requests().get(1)).get(0);
    }

    @Test
    void anUnansweredApprovalTimesOutWithItsOwnTextCodeAndAuditEvent() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("write_file", "{\"path\":\"/ws/out.txt\",\"content\":\"x\"}").reply("ok");

        MeroTools.configure(AiServices.builder(Agent.class).chatModel(model), context()).build().chat("go");

        ToolExecutionResultMessage result = only(model);
        assertThat(result.isError()).isTrue();
        assertThat(result.text()).isEqualTo("Denied: Approval of 'WRITE: /ws/out.txt' timed out in context 'gov': "
                + "nobody decided within 0.2s, so the action was not run.");
        assertThat(ws.resolve("out.txt")).doesNotExist();
        assertThat(events).extracting(AuditEvent::type)
                .containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_TIMED_OUT)
                .doesNotContain(AuditEventType.APPROVAL_REFUSED);
        assertThat(events.get(1).errorCode()).hasValue(ErrorCode.APPROVAL_TIMEOUT.code());
    }

    @Test
    void theAnnotatedToolsSayTheSameAndTheStructuredErrorIsApprovalTimeout() {
        ScriptedChatModel model = new ScriptedChatModel()
                .callTool("write_file", "{\"path\":\"/ws/out.txt\",\"content\":\"x\"}").reply("ok");
        MeroTools tools = MeroTools.forContext(context());

        AiServices.builder(Agent.class).chatModel(model).tools(tools.tools())
                .toolExecutionErrorHandler(tools.executionErrorHandler()).build().chat("go");

        assertThat(only(model).isError()).isTrue();
        assertThat(only(model).text()).startsWith("Denied: Approval of 'WRITE: /ws/out.txt' timed out");
        assertThat(ws.resolve("out.txt")).doesNotExist();
        var failure = tools.operations().respond("write_file", "{\"path\":\"/ws/out.txt\",\"content\":\"x\"}");
        assertThat(failure.errorCode()).hasValue("approval_timeout");
        assertThat(ToolError.from(failure.failure().orElseThrow()).errorCode()).isEqualTo("approval_timeout");
    }
}
