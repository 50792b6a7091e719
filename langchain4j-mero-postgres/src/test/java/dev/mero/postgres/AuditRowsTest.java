package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.MeroToolsException;
import dev.mero.core.guard.Operation;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalBackends;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.limit.RateLimit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Every decision a context takes is one row of {@code mero_audit}, readable by context, outcome and time. */
class AuditRowsTest {

    private static HikariDataSource pool;
    private static PostgresPolicyStore store;

    @TempDir
    Path workspace;
    @TempDir
    Path outside;

    @BeforeAll
    static void open() {
        pool = PostgresServer.pool(PostgresServer.shared().createDatabase(), 4);
        store = PostgresPolicyStore.builder().dataSource(pool).migrate(true).instance("audited").build();
    }

    @AfterAll
    static void close() {
        store.close();
        pool.close();
    }

    @Test
    void auditRowsMatchDecisionsOneForOne() throws Exception {
        Files.writeString(workspace.resolve("notes.txt"), "secret file content 4711");
        Files.createSymbolicLink(workspace.resolve("away"), outside);
        List<AuditEvent> decisions = Collections.synchronizedList(new ArrayList<>());
        AuditLog audit = AuditLog.builder().sink(decisions::add).sink(store.auditSink()).build();
        SecurityContext context = SecurityContext.builder().name("audited_worker")
                .path(PathEntry.builder().path(workspace).slug("ws").allow(Permission.READ, Permission.WRITE)
                        .requireApproval(Permission.WRITE).build())
                .approval(ApprovalBackends.alwaysDeny())
                .rateLimit(RateLimit.perHour(7)).rateLimitStore(store.rateLimits())
                .auditLog(audit)
                .build();
        Instant start = Instant.now().truncatedTo(ChronoUnit.MICROS);

        List<String> attempts = List.of("/ws/notes.txt", "/etc/passwd", "/ws/notes.txt", "/ws/../../x", "/ws/away/x");
        for (String path : attempts) {
            attempt(() -> context.guard(Operation.FILE_READ, path));
        }
        attempt(() -> context.guard(Operation.FILE_WRITE, "/ws/notes.txt", "+secret file content 4711"));
        for (int i = 0; i < 3; i++) {
            attempt(() -> context.guard(Operation.FILE_READ, "/ws/notes.txt")); // the last ones are rate limited
        }

        List<AuditEvent> rows = store.audit(AuditQuery.builder().contextName("audited_worker").build());
        assertThat(rows).hasSize(decisions.size());
        assertThat(rows.stream().map(AuditRowsTest::comparable).toList())
                .containsExactlyInAnyOrderElementsOf(decisions.stream().map(AuditRowsTest::comparable).toList());
        assertThat(rows).extracting(AuditEvent::outcome).contains("allowed", "denied", "pending");
        assertThat(rows).extracting(event -> event.errorCode().orElse(""))
                .contains("path_denied", "approval_denied", "rate_limited");

        List<AuditEvent> refusals = store.audit(AuditQuery.builder().contextName("audited_worker")
                .outcome("denied").from(start).build());
        assertThat(refusals).isNotEmpty().allSatisfy(event -> assertThat(event.outcome()).isEqualTo("denied"));
        assertThat(refusals).hasSize((int) decisions.stream().filter(e -> e.outcome().equals("denied")).count());
        assertThat(store.audit(AuditQuery.builder().contextName("audited_worker").to(start).build())).isEmpty();

        // the host path a link led to is kept for operators in the row's detail, never in the model's reason
        assertThat(rows).filteredOn(event -> event.subject().orElse("").equals("/ws/away/x"))
                .singleElement().satisfies(event -> {
                    assertThat(event.detail()).hasValueSatisfying(detail -> assertThat(detail).contains(outside.toString()));
                    assertThat(event.reason()).hasValueSatisfying(reason -> assertThat(reason)
                            .doesNotContain(outside.toString()).doesNotContain(workspace.toString()));
                });

        // neither the file's content nor the diff a human would be shown reaches the table
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
             ResultSet all = statement.executeQuery("SELECT mero_audit::text FROM mero_audit")) {
            while (all.next()) {
                assertThat(all.getString(1)).doesNotContain("secret file content");
            }
        }
    }

    private static void attempt(Runnable action) {
        try {
            action.run();
        } catch (MeroToolsException expected) {
            // refusals are decisions too; they are what the audit rows must show
        }
    }

    /** An event without its timestamp's nanoseconds, which the database keeps to the microsecond. */
    private static String comparable(AuditEvent event) {
        return event.timestamp().truncatedTo(ChronoUnit.MICROS) + " " + event;
    }
}
