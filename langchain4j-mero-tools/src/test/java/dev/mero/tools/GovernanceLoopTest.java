package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalBackends;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.SessionApprovalMemory;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.limit.RetryBudget;
import dev.mero.core.ops.UntrustedContent;
import dev.mero.tools.testing.ScriptedChatModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Scopes, approval and audit apply to FileTools inside the real LangChain4j loop. */
class GovernanceLoopTest {

    interface Agent {
        String chat(String message);
    }

    @TempDir
    Path tempDir;

    Path ws;
    List<AuditEvent> events;

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectories(tempDir.toRealPath().resolve("ws"));
        Files.writeString(ws.resolve("notes.txt"), "notes\n");
        events = new CopyOnWriteArrayList<>();
    }

    private SecurityContext.Builder context() {
        return SecurityContext.builder().name("gov")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE))
                .auditLog(AuditLog.builder().sink(events::add).build());
    }

    private static ToolExecutionResultMessage run(SecurityContext context, String tool, Map<String, Object> args) {
        ScriptedChatModel model = new ScriptedChatModel().callTool(tool, args).reply("done");
        AiServices.builder(Agent.class).chatModel(model).tools(new FileTools(context), new DirectoryTools(context))
                .toolExecutionErrorHandler(new MeroToolExecutionErrorHandler()).build().chat("go");
        return ScriptedChatModel.lastToolResults(model.requests().get(1)).get(0);
    }

    @Test
    void aMissingScopeIsDeniedBeforeTheFileIsTouched() {
        SecurityContext context = context().scopes("files:file:read").build();

        ToolExecutionResultMessage result = run(context, "list_directory", Map.of("path", "/ws"));

        assertThat(result.isError()).isTrue();
        assertThat(result.text()).isEqualTo("Denied: Context 'gov' lacks scope 'files:directory:list' "
                + "(has: ['files:file:read']). Ask for a caller with that scope or use an operation your scopes allow.");
        assertThat(UntrustedContent.unwrap(run(context, "read_file", Map.of("path", "/ws/notes.txt")).text()))
                .contains("notes\n");
    }

    @Test
    void aRefusedApprovalLeavesNoFileBehind() {
        SecurityContext context = context().requireApproval(Permission.WRITE)
                .approval(ApprovalBackends.alwaysDeny()).build();

        ToolExecutionResultMessage result = run(context, "write_file", Map.of("path", "/ws/out.txt", "content", "x"));

        assertThat(result.text()).isEqualTo("Denied: Action 'WRITE: /ws/out.txt' was not approved for context 'gov'.");
        assertThat(ws.resolve("out.txt")).doesNotExist();
        assertThat(events).extracting(AuditEvent::type)
                .containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_REFUSED);
    }

    @Test
    void anApproverSeesWhatWillBeWritten() throws IOException {
        List<ApprovalRequest> seen = new CopyOnWriteArrayList<>();
        SecurityContext context = context().requireApproval(Permission.WRITE).approval(request -> {
            seen.add(request);
            return ApprovalDecision.APPROVED;
        }).build();

        ToolExecutionResultMessage result = run(context, "write_file", Map.of("path", "/ws/out.txt", "content", "hi"));

        assertThat(result.isError()).isFalse();
        assertThat(Files.readString(ws.resolve("out.txt"))).isEqualTo("hi");
        assertThat(seen).singleElement().satisfies(request -> {
            assertThat(request.action()).isEqualTo("WRITE: /ws/out.txt");
            assertThat(request.details().orElseThrow()).isEqualTo("New contents (2 bytes):\nhi");
            // the digest of the complete new content binds the approval to exactly this write
            assertThat(request.contentDigest())
                    .contains("8f434346648f6b96df89dda901c5176b10a6d83961dd3c1ac88b59b2dc327aa4");
        });
        assertThat(events).extracting(AuditEvent::type).endsWith(AuditEventType.ALLOWED);
    }

    @Test
    void theSameFailingCallIsStoppedByTheRetryBudget() throws IOException {
        SecurityContext context = context().retryBudget(RetryBudget.builder().maxFailures(2).build()).build();
        Map<String, Object> missing = Map.of("path", "/ws/missing.txt");

        assertThat(run(context, "read_file", missing).text()).startsWith("Error: '/ws/missing.txt' is not a file");
        assertThat(run(context, "read_file", missing).text()).startsWith("Error: ");
        ToolExecutionResultMessage third = run(context, "read_file", missing);

        assertThat(third.isError()).isTrue();
        assertThat(third.text()).startsWith("Denied: Call 'read_file' with these exact arguments already failed 2 "
                + "time(s) in a row and was not run again.");
        assertThat(UntrustedContent.unwrap(run(context, "read_file", Map.of("path", "/ws/notes.txt")).text()))
                .contains("notes\n");
        Files.writeString(ws.resolve("missing.txt"), "now here");
        assertThat(run(context, "read_file", missing).text()).as("still refused until the approach changes")
                .startsWith("Denied: Call 'read_file'");
    }

    @Test
    void approvingOneWriteNeverApprovesAnotherOfTheSameLengthAndPreview() throws IOException {
        List<ApprovalRequest> seen = new CopyOnWriteArrayList<>();
        SecurityContext context = context().requireApproval(Permission.WRITE)
                .approval(SessionApprovalMemory.wrap(request -> {
                    seen.add(request);
                    return ApprovalDecision.APPROVED;
                })).build();
        String prefix = "p".repeat(5000);

        run(context, "write_file", Map.of("path", "/ws/out.txt", "content", prefix + "harmless"));
        run(context, "write_file", Map.of("path", "/ws/out.txt", "content", prefix + "harmless"));
        run(context, "write_file", Map.of("path", "/ws/out.txt", "content", prefix + "evil!!!!"));

        assertThat(seen).hasSize(2);
        assertThat(seen.get(0).details()).isEqualTo(seen.get(1).details());
        assertThat(seen.get(0).contentDigest()).isNotEqualTo(seen.get(1).contentDigest());
        assertThat(Files.readString(ws.resolve("out.txt"))).isEqualTo(prefix + "evil!!!!");
    }

    @Test
    void respellingAFailingPathDoesNotBuyMoreRetries() {
        SecurityContext context = context().retryBudget(RetryBudget.builder().maxFailures(2).build()).build();

        assertThat(run(context, "read_file", Map.of("path", "/ws/missing.txt")).text()).startsWith("Error: ");
        assertThat(run(context, "read_file", Map.of("path", "missing.txt")).text()).startsWith("Error: ");
        assertThat(run(context, "read_file", Map.of("path", "/ws//missing.txt")).text())
                .startsWith("Denied: Call 'read_file'");
        assertThat(run(context, "read_file", Map.of("path", ws.resolve("missing.txt").toString())).text())
                .startsWith("Denied: Call 'read_file'");
        assertThat(events).filteredOn(e -> e.errorCode().filter("retry_exhausted"::equals).isPresent()).hasSize(2);
    }
}
