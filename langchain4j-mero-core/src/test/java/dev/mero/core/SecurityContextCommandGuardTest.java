package dev.mero.core;

import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.command.CheckedCommand;
import dev.mero.core.command.CommandResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** guardCommand and runCommand: the command policy inside the governance order, then a real run. */
class SecurityContextCommandGuardTest {

    @TempDir
    Path tmp;

    Path ws;
    Path outside;
    List<AuditEvent> events;

    @BeforeEach
    void setUp() throws IOException {
        Path root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(ws.resolve("notes.txt"), "notes");
        Files.createDirectories(ws.resolve("sub"));
        events = new CopyOnWriteArrayList<>();
    }

    private SecurityContext.Builder base() {
        return SecurityContext.builder().name("name")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE, EXECUTE))
                .allowCommand("ls")
                .allowCommand("printenv")
                .auditLog(AuditLog.builder().sink(events::add).build());
    }

    @Test
    void anAllowedCommandIsCheckedWithItsWorkingDirectoryAndAudited() {
        CheckedCommand command = base().build().guardCommand("ls -a", null);

        assertThat(command.argv()).containsExactly("ls", "-a");
        assertThat(command.workingDirectory()).hasValueSatisfying(d -> assertThat(d.virtualPath()).isEqualTo("/ws"));
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AuditEventType.ALLOWED);
            assertThat(e.action()).contains("EXECUTE: ls -a");
        });
    }

    @Test
    void anAllowedCommandIsAuditedWithItsRealWorkingDirectoryAndNoContentDigest() {
        base().build().guardCommand("ls -a", "sub");

        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AuditEventType.ALLOWED);
            assertThat(e.targets()).containsExactly("working directory /ws/sub -> " + ws.resolve("sub"));
            // a command carries no content: only file writes and edits are bound to a digest
            assertThat(e.contentDigest()).isEmpty();
        });
    }

    @Test
    void aRefusedRunIsAuditedUnderTheCommandLineAsTheAgentWroteIt() {
        SecurityContext context = base().build();

        assertThatThrownBy(() -> context.runCommand("cat notes.txt", null)).isInstanceOf(CommandDeniedException.class);

        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AuditEventType.DENIED);
            assertThat(e.subject()).contains("cat notes.txt");
            assertThat(e.action()).contains("EXECUTE: cat notes.txt");
            assertThat(e.contentDigest()).isEmpty();
        });
    }

    @Test
    void theSeedMessagesReachTheCaller() {
        SecurityContext context = base().denyCommand("ls -R").build();

        assertThatThrownBy(() -> context.guardCommand("ls -laR", null))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'ls -laR' is blocked by denied-command rule 'ls -R' in context 'name'.");
        assertThatThrownBy(() -> context.guardCommand("cat notes.txt", null))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'cat notes.txt' does not match any allowed-command rule in context 'name' "
                        + "(allowlist mode: default-deny).");
        assertThat(events).extracting(AuditEvent::type).containsOnly(AuditEventType.DENIED);
    }

    @Test
    void aMissingScopeRefusesBeforeTheCommandIsEvenParsed() {
        SecurityContext context = base().scopes("files:*:*").build();

        assertThatThrownBy(() -> context.guardCommand("ls; rm -rf /", null))
                .isInstanceOf(ScopeDeniedException.class)
                .hasMessageContaining("lacks scope 'commands:command:execute'");
    }

    @Test
    void approvalSeesTheSeedActionAndTheArgumentVector() {
        List<ApprovalRequest> seen = new CopyOnWriteArrayList<>();
        SecurityContext context = base().requireApproval(EXECUTE).approval(request -> {
            seen.add(request);
            return ApprovalDecision.APPROVED;
        }).build();

        context.guardCommand("ls   -a", "sub");

        assertThat(seen).singleElement().satisfies(request -> {
            assertThat(request.action()).isEqualTo("EXECUTE: ls -a");
            assertThat(request.argv()).containsExactly("ls", "-a");
            assertThat(request.target()).contains(ws.resolve("sub"));
        });
    }

    @Test
    void aRefusedCommandUsesTheSeedMessageAndADeniedOneIsNeverAsked() {
        AtomicInteger asked = new AtomicInteger();
        SecurityContext context = base().requireApproval(EXECUTE).approval(request -> {
            asked.incrementAndGet();
            return ApprovalDecision.DENIED;
        }).build();

        assertThatThrownBy(() -> context.guardCommand("ls", null))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'EXECUTE: ls' was not approved for context 'name'.");
        assertThatThrownBy(() -> context.guardCommand("rm -rf /", null)).isInstanceOf(CommandDeniedException.class);
        assertThatThrownBy(() -> context.guardCommand("ls /etc", null)).isInstanceOf(CommandDeniedException.class);
        assertThat(asked).hasValue(1);
    }

    @Test
    void aWorkingDirectorySwappedWhileAHumanDecidesIsCaught() throws IOException {
        Path sub = ws.resolve("sub");
        SecurityContext context = base().requireApproval(EXECUTE).approval(request -> {
            Files.delete(sub);
            Files.createSymbolicLink(sub, outside);
            return ApprovalDecision.APPROVED;
        }).build();

        assertThatThrownBy(() -> context.runCommand("ls", "sub"))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessageContaining("is not covered by any PathEntry");
    }

    @Test
    void runCommandRunsInTheWorkingDirectoryWithTheContextsSearchPath() {
        SecurityContext context = base().build();

        CommandResult listing = context.runCommand("ls", null);
        assertThat(listing.succeeded()).isTrue();
        assertThat(listing.stdout()).contains("notes.txt").contains("sub");

        CommandResult path = context.runCommand("printenv PATH", "sub", Duration.ofSeconds(10));
        assertThat(path.stdout().trim()).isEqualTo(context.commandPolicy().searchPath());
        CommandResult git = context.runCommand("printenv GIT_CONFIG_GLOBAL", null);
        assertThat(git.stdout().trim()).isEqualTo("/dev/null");
    }

    @Test
    void aNonZeroExitIsAnOrdinaryFailure() {
        CommandResult result = base().build().runCommand("ls missing-file", null);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.toModelText()).startsWith("Error: command exited with code 2");
        assertThatThrownBy(result::orThrow)
                .isInstanceOfSatisfying(MeroToolsException.class, e -> assertThat(e.isDenial()).isFalse());
    }

    @Test
    void withoutAnExecuteEntryNothingRuns() {
        SecurityContext context = SecurityContext.builder().name("ro")
                .path(PathEntry.of(ws.toString(), "ws", READ)).allowCommand("ls").build();

        assertThatThrownBy(() -> context.runCommand("ls", null)).isInstanceOf(MeroToolsException.class);
        assertThatThrownBy(() -> context.runCommand("ls", "/ws"))
                .isInstanceOf(PermissionDeniedException.class)
                .hasMessageContaining("lacks permission(s) ['EXECUTE']");
    }
}
