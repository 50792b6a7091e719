package dev.mero.core;

import dev.mero.core.guard.Operation;
import dev.mero.core.path.ResolvedPath;

import static dev.mero.core.Permission.DELETE;
import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.approval.ApprovalBackend;
import dev.mero.core.approval.ApprovalBackends;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ChainedApproval;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimiter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The governance order around a path operation: scope, rate limit, deny checks, approval, re-check, audit. */
class SecurityContextGuardTest {

    @TempDir
    Path tmp;

    Path ws;
    Path outside;
    List<AuditEvent> events;
    AuditLog audit;

    @BeforeEach
    void setUp() throws IOException {
        Path root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(ws.resolve("a.txt"), "a");
        events = new CopyOnWriteArrayList<>();
        audit = AuditLog.builder().sink(events::add).build();
    }

    private SecurityContext.Builder base() {
        return SecurityContext.builder().name("name")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE, DELETE))
                .auditLog(audit);
    }

    @Test
    void anAllowedOperationReturnsTheTargetAndIsAudited() {
        ResolvedPath target = base().build().guard(Operation.FILE_READ, "a.txt");

        assertThat(target.virtualPath()).isEqualTo("/ws/a.txt");
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AuditEventType.ALLOWED);
            assertThat(e.action()).contains("READ: /ws/a.txt");
            assertThat(e.contextName()).contains("name");
        });
    }

    @Test
    void aDeniedOperationIsAuditedWithItsReason() {
        SecurityContext context = base().build();

        assertThatThrownBy(() -> context.guard(Operation.FILE_READ, "/etc/passwd"))
                .isInstanceOf(PathAccessDeniedException.class);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AuditEventType.DENIED);
            assertThat(e.errorCode()).contains("path_denied");
            assertThat(e.reason()).hasValueSatisfying(r -> r.startsWith("Path '/etc/passwd' is an absolute path"));
        });
    }

    @Test
    void theScopeIsCheckedBeforeAnythingElse() {
        AtomicInteger asked = new AtomicInteger();
        SecurityContext context = base().scopes("files:*:read")
                .requireApproval(WRITE).approval(countingApprove(asked)).build();

        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "/etc/passwd"))
                .isInstanceOf(ScopeDeniedException.class)
                .hasMessage("Context 'name' lacks scope 'files:file:write' (has: ['files:*:read']). Ask for a caller "
                        + "with that scope or use an operation your scopes allow.");
        assertThat(asked).hasValue(0);
        assertThat(context.guard(Operation.FILE_READ, "a.txt").virtualPath()).isEqualTo("/ws/a.txt");
        assertThatThrownBy(() -> context.guard(Operation.DIRECTORY_LIST, "/ws"))
                .isInstanceOf(ScopeDeniedException.class);
    }

    @Test
    void theRateLimitRefusesBeforeTheOperationRuns() {
        AtomicLong nanos = new AtomicLong();
        RateLimiter limiter = RateLimiter.of(RateLimit.perMinute(2), nanos::get);
        SecurityContext context = base().rateLimiter(limiter).build();

        context.guard(Operation.FILE_READ, "a.txt");
        context.guard(Operation.FILE_READ, "a.txt");
        assertThatThrownBy(() -> context.guard(Operation.FILE_READ, "a.txt"))
                .isInstanceOfSatisfying(RateLimitedException.class, e -> {
                    assertThat(e.retryAfterSeconds()).isEqualTo(30);
                    assertThat(e.errorCode()).isEqualTo("rate_limited");
                });
        assertThat(events).last().extracting(AuditEvent::type).isEqualTo(AuditEventType.RATE_LIMITED);

        nanos.addAndGet(Duration.ofSeconds(30).toNanos());
        assertThat(context.guard(Operation.FILE_READ, "a.txt").virtualPath()).isEqualTo("/ws/a.txt");
    }

    @Test
    void withoutABackendApprovalFailsSafe() {
        SecurityContext context = base().requireApproval(WRITE).build();

        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "/ws/a.txt"))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: /ws/a.txt' requires approval for ['WRITE'] but no approval backend "
                        + "is configured (fail-safe deny).");
        assertThat(context.guard(Operation.FILE_READ, "/ws/a.txt").virtualPath()).isEqualTo("/ws/a.txt");
    }

    @Test
    void aRefusalUsesTheSeedMessage() {
        SecurityContext context = base().requireApproval(WRITE).approval(ApprovalBackends.alwaysDeny()).build();

        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "/ws/a.txt"))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: /ws/a.txt' was not approved for context 'name'.");
        assertThat(events).extracting(AuditEvent::type)
                .containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_REFUSED);
    }

    @Test
    void anApprovedActionRunsAndTheBackendSawTheExactTarget() {
        List<ApprovalRequest> seen = new CopyOnWriteArrayList<>();
        SecurityContext context = base().requireApproval(WRITE).approval(request -> {
            seen.add(request);
            return ApprovalDecision.APPROVED;
        }).build();

        ResolvedPath target = context.guard(Operation.FILE_WRITE, "a.txt", "- a\n+ b");

        assertThat(target.realPath()).isEqualTo(ws.resolve("a.txt"));
        assertThat(seen).singleElement().satisfies(request -> {
            assertThat(request.action()).isEqualTo("WRITE: /ws/a.txt");
            assertThat(request.contextName()).isEqualTo("name");
            assertThat(request.permissions()).containsExactly(WRITE);
            assertThat(request.target()).contains(ws.resolve("a.txt"));
            assertThat(request.details()).contains("- a\n+ b");
        });
        assertThat(events).extracting(AuditEvent::type).containsExactly(AuditEventType.APPROVAL_REQUESTED,
                AuditEventType.APPROVAL_GRANTED, AuditEventType.ALLOWED);
        assertThat(events).allSatisfy(e -> assertThat(e.toString()).doesNotContain("+ b"));
    }

    @Test
    void anActionADenyRuleRefusesIsNeverSentForApproval() {
        AtomicInteger asked = new AtomicInteger();
        SecurityContext context = SecurityContext.builder().name("name")
                .path(PathEntry.builder().path(ws).slug("ws").allow(READ, WRITE).deny(DELETE).build())
                .requireApproval(WRITE, DELETE).approval(countingApprove(asked)).build();

        assertThatThrownBy(() -> context.guard(Operation.FILE_DELETE, "a.txt"))
                .isInstanceOf(PathAccessDeniedException.class);
        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "../outside/x"))
                .isInstanceOf(PathAccessDeniedException.class);
        assertThat(asked).hasValue(0);
    }

    @Test
    void anEntryCanRequireApprovalForItsOwnPermissions() throws IOException {
        Path docs = Files.createDirectories(tmp.toRealPath().resolve("docs"));
        AtomicInteger asked = new AtomicInteger();
        SecurityContext context = base()
                .path(PathEntry.builder().path(docs).slug("docs").allow(READ, WRITE).requireApproval(WRITE).build())
                .approval(countingApprove(asked)).build();

        context.guard(Operation.FILE_WRITE, "/ws/x.txt");
        assertThat(asked).hasValue(0);
        context.guard(Operation.FILE_WRITE, "/docs/x.txt");
        assertThat(asked).hasValue(1);
        context.guard(Operation.FILE_READ, "/docs/x.txt");
        assertThat(asked).hasValue(1);
    }

    @Test
    void aSymlinkSwappedInWhileAHumanDecidesIsCaught() throws IOException {
        Path reports = Files.createDirectories(ws.resolve("reports"));
        SecurityContext context = base().requireApproval(WRITE).approval(request -> {
            Files.delete(reports);
            Files.createSymbolicLink(reports, outside);
            return ApprovalDecision.APPROVED;
        }).build();

        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "reports/out.txt"))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessageContaining("is not covered by any PathEntry in context 'name'");
        assertThat(outside.resolve("out.txt")).doesNotExist();
    }

    @Test
    void aChainInWhichNoBackendDecidesTimesOut() throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        ApprovalBackend hanging = request -> {
            release.await();
            return ApprovalDecision.APPROVED;
        };
        SecurityContext context = base().requireApproval(WRITE)
                .approval(ChainedApproval.of(Duration.ofMillis(100), ApprovalBackends.alwaysAbstain(), hanging))
                .build();
        try {
            assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "/ws/a.txt"))
                    .isInstanceOf(ApprovalTimeoutException.class)
                    .hasMessage("No backend in chain could resolve approval for 'WRITE: /ws/a.txt'.");
            assertThat(events).extracting(AuditEvent::type).contains(AuditEventType.APPROVAL_TIMED_OUT);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aPermissionBasedGuardAsksForApprovalOfExactlyWhatIsRequired() {
        List<ApprovalRequest> seen = new CopyOnWriteArrayList<>();
        SecurityContext context = base().requireApproval(WRITE).scopes("files:file:*").approval(request -> {
            seen.add(request);
            return ApprovalDecision.APPROVED;
        }).build();

        assertThat(context.guard("a.txt", READ, WRITE).checkedPermissions()).containsExactly(READ, WRITE);
        assertThat(seen).singleElement().satisfies(r -> assertThat(r.action()).isEqualTo("WRITE: /ws/a.txt"));
        assertThat(context.guard("a.txt", READ).virtualPath()).isEqualTo("/ws/a.txt");
        assertThat(seen).hasSize(1);
        assertThatThrownBy(() -> context.guard("/ws", EXECUTE))
                .isInstanceOf(ScopeDeniedException.class)
                .hasMessageContaining("lacks scope 'commands:command:execute'");
    }

    @Test
    void aMissingPathIsAnOrdinaryErrorAndIsAudited() {
        SecurityContext context = base().build();

        assertThatThrownBy(() -> context.guard(Operation.FILE_READ, null))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("The path is empty.");
        assertThatThrownBy(() -> context.guard((String) null, READ)).isInstanceOf(InvalidInputException.class);
        assertThat(events).hasSize(2).allSatisfy(e -> assertThat(e.errorCode()).contains("invalid_input"));
    }

    @Test
    void commandExecutionIsNotAPathOperation() {
        assertThatThrownBy(() -> base().build().guard(Operation.COMMAND_EXECUTE, "/ws"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static ApprovalBackend countingApprove(AtomicInteger asked) {
        return request -> {
            asked.incrementAndGet();
            return ApprovalDecision.APPROVED;
        };
    }
}
