package dev.mero.core;

import dev.mero.core.guard.Operation;
import dev.mero.core.path.ContentDigest;
import dev.mero.core.path.ResolvedPath;

import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.approval.ApprovalBackend;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.SessionApprovalMemory;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.command.CheckedCommand;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Approvals, audit events and re-checks are bound to exactly what runs: content digests and resolved targets. */
class GovernanceBindingTest {

    @TempDir
    Path tmp;

    Path ws;
    List<AuditEvent> events;
    List<ApprovalRequest> asked;

    @BeforeEach
    void setUp() throws IOException {
        Path root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        Files.writeString(ws.resolve("harmless.txt"), "harmless");
        Files.writeString(ws.resolve("secret.txt"), "secret");
        events = new CopyOnWriteArrayList<>();
        asked = new CopyOnWriteArrayList<>();
    }

    private ApprovalBackend approvingAndCounting() {
        return request -> {
            asked.add(request);
            return ApprovalDecision.APPROVED;
        };
    }

    private SecurityContext.Builder context(ApprovalBackend backend) {
        return SecurityContext.builder().name("w")
                .path(PathEntry.builder().path(ws).slug("ws").allow(READ, WRITE, EXECUTE)
                        .requireApproval(WRITE, EXECUTE).build())
                .allowCommand("cat")
                .approval(backend)
                .auditLog(AuditLog.builder().sink(events::add).build());
    }

    private static String digest(String text) {
        return ContentDigest.of(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aRememberedWriteApprovalCoversOnlyTheSameContentNeverTheSamePreview() {
        SecurityContext context = context(SessionApprovalMemory.wrap(approvingAndCounting())).build();
        String preview = "New contents (9000 bytes, first 4000 characters):\n" + "x".repeat(4000);
        String first = "x".repeat(4000) + "a".repeat(5000);
        String second = "x".repeat(4000) + "b".repeat(5000);

        context.guard(Operation.FILE_WRITE, "/ws/new.txt", preview, digest(first));
        context.guard(Operation.FILE_WRITE, "./new.txt", preview, digest(first));
        context.guard(Operation.FILE_WRITE, "/ws/new.txt", preview, digest(second));

        assertThat(asked).hasSize(2);
        assertThat(asked.get(0).contentDigest()).contains(digest(first));
        assertThat(asked.get(1).contentDigest()).contains(digest(second));
    }

    @Test
    void theTargetCarriesItsDigestAndOtherContentIsRefusedAndAudited() {
        SecurityContext context = context(approvingAndCounting()).build();
        String approved = "approved text";

        ResolvedPath target = context.guard(Operation.FILE_WRITE, "/ws/new.txt", "preview", digest(approved));

        assertThat(target.contentDigest()).contains(digest(approved));
        assertThatCode(() -> context.recheck(target, approved.getBytes(StandardCharsets.UTF_8)))
                .doesNotThrowAnyException();
        events.clear();
        assertThatThrownBy(() -> context.recheck(target, "other text".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessageContaining("not the content that was checked and approved");
        assertThat(events).singleElement().satisfies(e -> assertThat(e.outcome()).isEqualTo("denied"));
        assertThat(events.get(0).reason()).isPresent();
    }

    @Test
    void theAllowedEventCarriesTheDigestAndTheResolvedTarget() {
        SecurityContext context = context(approvingAndCounting()).build();

        context.guard(Operation.FILE_WRITE, "./new.txt", "preview", digest("t"));

        AuditEvent allowed = events.get(events.size() - 1);
        assertThat(allowed.type()).isEqualTo(AuditEventType.ALLOWED);
        assertThat(allowed.contentDigest()).contains(digest("t"));
        assertThat(allowed.targets()).containsExactly("/ws/new.txt -> " + ws.resolve("new.txt"));
    }

    @Test
    void aMalformedDigestIsAProgrammingError() {
        SecurityContext context = context(approvingAndCounting()).build();

        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "/ws/a", null, "ABC"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCommandApprovalCarriesWhatEveryLinkArgumentPointsToAndIsNotReusedAfterTheLinkChanges() throws IOException {
        Path link = Files.createSymbolicLink(ws.resolve("link"), ws.resolve("harmless.txt"));
        SecurityContext context = context(SessionApprovalMemory.wrap(approvingAndCounting())).build();

        CheckedCommand first = context.guardCommand("cat link", "/ws");
        context.guardCommand("cat link", "/ws");
        assertThat(asked).hasSize(1);
        assertThat(asked.get(0).resolvedTargets()).anySatisfy(target -> assertThat(target)
                .endsWith(" -> " + ws.resolve("harmless.txt")));
        assertThat(events.get(events.size() - 1).targets()).anySatisfy(target -> assertThat(target)
                .endsWith(" -> " + ws.resolve("harmless.txt")));

        Files.delete(link);
        Files.createSymbolicLink(link, ws.resolve("secret.txt"));
        CheckedCommand second = context.guardCommand("cat link", "/ws");

        assertThat(asked).hasSize(2);
        assertThat(asked.get(1).resolvedTargets()).anySatisfy(target -> assertThat(target)
                .endsWith(" -> " + ws.resolve("secret.txt")));
        assertThat(second.pathArguments().get(0).realPath()).isNotEqualTo(first.pathArguments().get(0).realPath());
    }

    @Test
    void aLinkChangedWhileTheHumanDecidesIsRefusedAfterApproval() throws IOException {
        Path link = Files.createSymbolicLink(ws.resolve("link"), ws.resolve("harmless.txt"));
        ApprovalBackend swapsTheLink = request -> {
            Files.delete(link);
            Files.createSymbolicLink(link, ws.resolve("secret.txt"));
            return ApprovalDecision.APPROVED;
        };
        SecurityContext context = context(swapsTheLink).build();

        assertThatThrownBy(() -> context.guardCommand("cat link", "/ws"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("changed while it was being approved");
        assertThat(events.get(events.size() - 1).type()).isEqualTo(AuditEventType.DENIED);
        assertThat(events).noneMatch(e -> e.type() == AuditEventType.ALLOWED);
    }

    @Test
    void aBackendThrowingAnErrorEndsInOneRefusalOutcome() {
        SecurityContext context = context(request -> {
            throw new AssertionError("backend bug");
        }).build();

        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "/ws/a.txt", null, digest("x")))
                .isInstanceOf(ApprovalDeniedException.class);
        assertThat(events).extracting(AuditEvent::type)
                .containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_REFUSED);
    }

    @Test
    void aRecheckThatFindsTheTargetMovedIsAuditedAsTheDecisionsOutcome() throws IOException {
        SecurityContext context = SecurityContext.builder().name("w")
                .path(PathEntry.of(ws.toString(), "ws", READ))
                .auditLog(AuditLog.builder().sink(events::add).build()).build();
        Path link = Files.createSymbolicLink(ws.resolve("link"), ws.resolve("harmless.txt"));
        ResolvedPath target = context.guard(Operation.FILE_READ, "/ws/link");
        Files.delete(link);
        Files.createSymbolicLink(link, ws.resolve("secret.txt"));

        assertThatThrownBy(() -> context.recheck(target)).isInstanceOf(PathAccessDeniedException.class);
        assertThat(events).extracting(AuditEvent::type)
                .containsExactly(AuditEventType.ALLOWED, AuditEventType.DENIED);
        assertThat(events.get(1).errorCode()).contains("path_denied");
    }

    @Test
    void guardWithoutAPermissionIsAnAuditedInputError() {
        SecurityContext context = context(approvingAndCounting()).build();

        assertThatThrownBy(() -> context.guard("/ws/a.txt"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("No permission was named");
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AuditEventType.FAILED);
            assertThat(e.errorCode()).contains("invalid_input");
        });
    }

    @Test
    void aSinkThrowingAnErrorNeverTurnsAnAllowedReadIntoACrash() {
        SecurityContext context = SecurityContext.builder().name("w")
                .path(PathEntry.of(ws.toString(), "ws", READ))
                .auditLog(AuditLog.builder().sink(event -> {
                    throw new OutOfMemoryError("sink");
                }).build()).build();

        assertThat(context.guard(Operation.FILE_READ, "/ws/harmless.txt").virtualPath())
                .isEqualTo("/ws/harmless.txt");
    }

    @Test
    void anAuditLogThatFailsClosedDeniesWhatItCannotRecord() {
        SecurityContext context = SecurityContext.builder().name("w")
                .path(PathEntry.of(ws.toString(), "ws", READ))
                .auditLog(AuditLog.builder().failClosed(true).sink(event -> {
                    throw new IOException("disk full");
                }).build()).build();

        assertThatThrownBy(() -> context.guard(Operation.FILE_READ, "/ws/harmless.txt"))
                .isInstanceOf(MeroToolsException.class)
                .hasMessage(AuditLog.UNAVAILABLE_MESSAGE);
    }

    @Test
    void aBugInACheckStillEndsInAnOutcomeEvent() {
        SecurityContext context = context(request -> {
            throw new IllegalStateException("unused");
        }).argumentGuard((program, arguments) -> {
            throw new IllegalStateException("guard bug");
        }).build();

        assertThatThrownBy(() -> context.guardCommand("cat harmless.txt", "/ws"))
                .isInstanceOf(IllegalStateException.class);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AuditEventType.FAILED);
            assertThat(e.errorCode()).contains("internal_error");
        });
    }
}
