package dev.mero.core;

import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.command.CommandRunner;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RetryBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Context edges PIT showed untested: fluent builder setters, the audited subject, target approval of commands. */
class SecurityContextMutationTest {

    @TempDir
    Path tmp;

    Path ws;
    List<AuditEvent> events;

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectories(tmp.toRealPath().resolve("ws"));
        Files.writeString(ws.resolve("notes.txt"), "notes");
        events = new CopyOnWriteArrayList<>();
    }

    @Test
    void everyBuilderSetterReturnsTheBuilderForChaining() {
        CommandRunner runner = CommandRunner.builder().build();
        RetryBudget budget = RetryBudget.builder().build();

        SecurityContext context = SecurityContext.builder()
                .commandRunner(runner)
                .scopes(List.of("files:*:*"))
                .rateLimit(RateLimit.perMinute(5))
                .retryBudget(budget)
                .inheritRateLimiters(List.of())
                .name("chained")
                .path(PathEntry.of(ws.toString(), "ws", READ))
                .build();

        assertThat(context.name()).isEqualTo("chained");
        assertThat(context.commandRunner()).isSameAs(runner);
        assertThat(context.retryBudget()).containsSame(budget);
        assertThat(context.rateLimiter()).hasValueSatisfying(l -> assertThat(l.limit()).isEqualTo(RateLimit.perMinute(5)));
        assertThat(context.scopes().isRestricted()).isTrue();
    }

    @Test
    void aDeniedCommandIsAuditedWithTheCommandLineAsItsSubject() {
        SecurityContext context = SecurityContext.builder().name("c")
                .path(PathEntry.of(ws.toString(), "ws", READ, EXECUTE))
                .allowCommand("ls")
                .auditLog(AuditLog.builder().sink(events::add).build())
                .build();

        assertThatThrownBy(() -> context.guardCommand("cat notes.txt", null)).isInstanceOf(CommandDeniedException.class);

        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AuditEventType.DENIED);
            assertThat(e.subject()).contains("cat notes.txt");
        });
    }

    @Test
    void aWorkingDirectoryWhoseEntryRequiresApprovalForExecuteAsksForIt() {
        SecurityContext context = SecurityContext.builder().name("c")
                .path(PathEntry.builder().path(ws.toString()).slug("ws").allow(READ, EXECUTE)
                        .requireApproval(EXECUTE).build())
                .allowCommand("ls")
                .build();

        assertThatThrownBy(() -> context.guardCommand("ls", null))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'EXECUTE: ls' requires approval for ['EXECUTE'] but no approval backend is "
                        + "configured (fail-safe deny).");
    }
}
