package dev.mero.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.MeroToolsException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.audit.AuditSink;
import dev.mero.core.ops.CallerNarrowing;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.ToolResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Metrics count what the audit log recorded and what the one response path answered, with bounded tags. */
class MeroMetricsTest {

    @TempDir
    Path dir;

    /** Records every call as one line, for exact comparison. */
    static final class Recording implements MeroMetrics {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final List<Duration> durations = new CopyOnWriteArrayList<>();

        @Override
        public void toolCall(String tool, String outcome, Duration duration) {
            calls.add("tool " + tool + " " + outcome);
            durations.add(duration);
        }

        @Override
        public void decision(Permission permission, String outcome) {
            calls.add("decision " + permission + " " + outcome);
        }

        @Override
        public void approval(String outcome) {
            calls.add("approval " + outcome);
        }

        @Override
        public void sandboxRun(String exit) {
            calls.add("run " + exit);
        }
    }

    private static AuditEvent event(AuditEventType type, Permission... permissions) {
        return AuditEvent.builder().type(type).permissions(List.of(permissions)).build();
    }

    @Test
    void everyAuditEventTypeMapsToItsDecisionOrApproval() throws Exception {
        Recording metrics = new Recording();
        AuditSink sink = MeroMetrics.auditSink(metrics);
        sink.write(event(AuditEventType.ALLOWED, Permission.READ, Permission.WRITE));
        sink.write(event(AuditEventType.DENIED, Permission.DELETE));
        sink.write(event(AuditEventType.RATE_LIMITED, Permission.READ));
        sink.write(event(AuditEventType.FAILED, Permission.WRITE));
        sink.write(event(AuditEventType.APPROVAL_REQUESTED, Permission.WRITE));
        sink.write(event(AuditEventType.APPROVAL_GRANTED, Permission.WRITE));
        sink.write(event(AuditEventType.APPROVAL_REFUSED, Permission.EXECUTE));
        sink.write(event(AuditEventType.APPROVAL_TIMED_OUT, Permission.DELETE));
        // who decided (the inbox's record beside the gate's own event, a standing rule): not counted again
        sink.write(event(AuditEventType.APPROVER_GRANTED, Permission.WRITE));
        sink.write(event(AuditEventType.APPROVER_REFUSED, Permission.WRITE));
        sink.write(event(AuditEventType.RULE_GRANTED, Permission.WRITE));
        sink.write(event(AuditEventType.RULE_REVOKED, Permission.WRITE));
        sink.write(event(AuditEventType.ALLOWED));
        assertThat(metrics.calls).containsExactly(
                "decision READ allowed", "decision WRITE allowed",
                "decision DELETE denied",
                "decision READ denied",
                "decision WRITE failed",
                "approval requested",
                "approval granted",
                "approval refused", "decision EXECUTE denied",
                "approval timed_out", "decision DELETE denied");
        assertThat(sink.toString()).contains("MetricsAuditSink");
    }

    @Test
    void theNoOpMetricsCountNothingAndNeedNoOverride() throws Exception {
        MeroMetrics none = MeroMetrics.none();
        none.toolCall("read_file", MeroMetrics.SUCCESS, Duration.ZERO);
        none.decision(Permission.READ, MeroMetrics.ALLOWED);
        none.approval("granted");
        none.sandboxRun("0");
        MeroMetrics.auditSink(none).write(event(AuditEventType.DENIED, Permission.READ));
        assertThat(none).hasToString("MeroMetrics.none()");
        assertThat(MeroMetrics.none()).isSameAs(none);
        assertThatThrownBy(() -> MeroMetrics.auditSink(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void anAddedSinkSeesEveryDecisionBesideThePolicysOwnLog() throws IOException {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Files.writeString(ws.resolve("a.txt"), "A");
        List<AuditEvent> own = new CopyOnWriteArrayList<>();
        Recording metrics = new Recording();
        AuditLog policyLog = AuditLog.builder().sink(own::add).failClosed(true).build();
        SecurityContext context = SecurityContext.builder().name("m")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ))
                .auditLog(policyLog).auditSink(MeroMetrics.auditSink(metrics)).build();
        assertThat(context.auditLog().sinkCount()).isEqualTo(2);
        assertThat(context.auditLog().failClosed()).isTrue();
        assertThat(policyLog.sinkCount()).as("the given log is unchanged").isEqualTo(1);

        context.checkPathAccess("/ws/a.txt", Permission.READ);
        assertThatThrownBy(() -> context.guard("/ws/a.txt", Permission.WRITE)).isInstanceOf(MeroToolsException.class);
        assertThat(own).extracting(AuditEvent::type).contains(AuditEventType.DENIED);
        assertThat(metrics.calls).contains("decision WRITE denied");

        // a context narrowed from it records to the same sinks
        SecurityContext child = context.narrow("child").build();
        assertThatThrownBy(() -> child.guard("/ws/b.txt", Permission.DELETE)).isInstanceOf(MeroToolsException.class);
        assertThat(metrics.calls).contains("decision DELETE denied");
        assertThatThrownBy(() -> SecurityContext.builder().auditSink(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void withSinkKeepsTheLogsOwnSinksAndMode() {
        List<AuditEvent> first = new CopyOnWriteArrayList<>();
        List<AuditEvent> second = new CopyOnWriteArrayList<>();
        AuditLog open = AuditLog.builder().sink(first::add).build();
        AuditLog both = open.withSink(second::add);
        assertThat(both.failClosed()).isFalse();
        assertThat(both.sinkCount()).isEqualTo(2);
        both.record(event(AuditEventType.ALLOWED, Permission.READ));
        assertThat(first).hasSize(1);
        assertThat(second).hasSize(1);
        AuditLog closed = AuditLog.builder().failClosed(true).build().withSink(e -> {
            throw new IOException("disk full");
        });
        assertThatThrownBy(() -> closed.record(event(AuditEventType.ALLOWED, Permission.READ)))
                .hasMessageContaining("audit log cannot record");
        assertThatThrownBy(() -> open.withSink(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void toolCallsAreCountedPerToolAndOutcomeOnTheOneResponsePath() throws IOException {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Files.writeString(ws.resolve("a.txt"), "A");
        Recording metrics = new Recording();
        SecurityContext context = SecurityContext.builder().name("m")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE))
                .denyCommand("rm").build();
        MeroOperations ops = MeroOperations.builder(context).metrics(metrics).build();
        assertThat(ops.metrics()).isSameAs(metrics);
        assertThat(MeroOperations.forContext(context).metrics()).isSameAs(MeroMetrics.none());

        assertThat(ops.respond("read_file", "{\"path\": \"/ws/a.txt\"}").isError()).isFalse();
        assertThat(ops.respond("read_file", "{\"path\": \"/ws/../../etc/passwd\"}").isError()).isTrue();
        assertThat(ops.respond("read_file", "{\"path\": \"/ws/missing.txt\"}").isError()).isTrue();
        assertThat(ops.respond("read_file", Map.of("path", "/ws/a.txt")).isError()).isFalse();
        ToolResponse unoffered = ops.respond("delete_file", "{\"path\": \"/ws/a.txt\"}");
        assertThat(unoffered.isError()).isTrue();
        assertThat(ops.respond("format_disk", "{}").isError()).isTrue();
        assertThat(ops.respond(null, "{}").isError()).isTrue();

        assertThat(metrics.calls).containsExactly(
                "tool read_file success",
                "tool read_file denied",
                "tool read_file failed",
                "tool read_file success",
                "tool delete_file denied",
                "tool unknown failed",
                "tool unknown failed");
        assertThat(metrics.durations).allSatisfy(d -> assertThat(d.isNegative()).isFalse());
        assertThat(metrics.durations.get(0)).isPositive();
        assertThatThrownBy(() -> MeroOperations.builder(context).metrics(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aCallerNarrowedOperationCountsInTheSamePlace() throws IOException {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Files.writeString(ws.resolve("a.txt"), "A");
        Recording metrics = new Recording();
        MeroOperations ops = MeroOperations.builder(SecurityContext.builder().name("m")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ)).build()).metrics(metrics).build();
        MeroOperations narrowed = new CallerNarrowing(ops).operationsFor(Map.of(CallerNarrowing.CALLER, "alice"));
        assertThat(narrowed).isNotSameAs(ops);
        narrowed.respond("read_file", "{\"path\": \"/ws/a.txt\"}");
        assertThat(metrics.calls).containsExactly("tool read_file success");
    }

    @Test
    void commandRunsAreCountedByExitCode() throws IOException {
        Path ws = Files.createDirectories(dir.resolve("ws"));
        Recording metrics = new Recording();
        MeroOperations ops = MeroOperations.builder(SecurityContext.builder().name("cmd")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.EXECUTE))
                .allowCommand("echo").allowCommand("ls").build()).metrics(metrics).build();
        assertThat(ops.respond("run_command", "{\"command\": \"echo hi\"}").isError()).isFalse();
        assertThat(ops.respond("run_command", "{\"command\": \"ls nope\", \"working_directory\": \"/ws\"}")
                .isError()).isFalse();
        assertThat(ops.respond("run_command", "{\"command\": \"rm -rf /ws\"}").isError()).isTrue();
        assertThat(metrics.calls).containsExactly(
                "run 0", "tool run_command success",
                "run 2", "tool run_command success",
                "tool run_command denied");
    }
}
