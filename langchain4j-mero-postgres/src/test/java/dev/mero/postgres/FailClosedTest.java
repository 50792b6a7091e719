package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.guard.Operation;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.error.ToolError;
import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RetryBudget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The database stops in the middle of the test (as a crash would: every connection breaks): every guarded
 * action is refused with a clear "policy store is unavailable" error that says to retry, nothing runs,
 * and a waiting approval is refused instead of hanging. When the database is back, so is service.
 */
class FailClosedTest {

    private PostgresServer server;
    private HikariDataSource pool;
    private PostgresPolicyStore store;
    private final List<AuditEvent> decisions = Collections.synchronizedList(new ArrayList<>());

    @TempDir
    Path workspace;

    @BeforeEach
    void start() {
        server = PostgresServer.startNew();
        pool = PostgresServer.pool(server.createDatabase(), 4);
        store = PostgresPolicyStore.builder().dataSource(pool).migrate(true).timeout(Duration.ofSeconds(2))
                .pollInterval(Duration.ofMinutes(1)).build();
    }

    @AfterEach
    void stop() {
        store.close();
        pool.close();
        server.close();
    }

    private SecurityContext context() {
        return SecurityContext.builder().name("fail_closed")
                .path(PathEntry.builder().path(workspace).slug("ws").allow(Permission.READ, Permission.WRITE)
                        .requireApproval(Permission.WRITE).build())
                .rateLimit(RateLimit.perMinute(1000)).rateLimitStore(store.rateLimits())
                .approval(store.approvals(Duration.ofMinutes(5)))
                .auditLog(AuditLog.builder().sink(decisions::add).sink(store.auditSink()).build())
                .build();
    }

    @Test
    void aStoppedDatabaseRefusesEveryActionAndSaysTheStoreIsUnavailable() throws Exception {
        Files.writeString(workspace.resolve("a.txt"), "a");
        SecurityContext context = context();
        context.guard(Operation.FILE_READ, "/ws/a.txt");

        server.stop();

        assertThatThrownBy(() -> context.guard(Operation.FILE_READ, "/ws/a.txt"))
                .isInstanceOfSatisfying(PolicyStoreUnavailableException.class, e -> {
                    assertThat(e.toModelText()).startsWith("Error: The policy store is unavailable (rate limit "
                            + "'fail_closed'), so the action was not run.");
                    ToolError error = ToolError.from(e);
                    assertThat(error.errorCode()).isEqualTo("policy_store_unavailable");
                    assertThat(error.status()).isEqualTo(503);
                    assertThat(error.retry()).isTrue();
                    assertThat(error.retryAfterSeconds()).isEqualTo(30);
                    assertThat(error.toJson()).doesNotContain("PSQLException", "127.0.0.1");
                });
        assertThat(decisions.get(decisions.size() - 1).type()).isEqualTo(AuditEventType.FAILED);
        assertThat(decisions.get(decisions.size() - 1).errorCode()).contains("policy_store_unavailable");

        AtomicInteger ran = new AtomicInteger();
        assertThatThrownBy(() -> store.replays().runOnce("fail_closed", "call_1", Duration.ofSeconds(5),
                () -> "ran " + ran.incrementAndGet())).isInstanceOf(PolicyStoreUnavailableException.class);
        RetryBudget budget = RetryBudget.builder().store(store.retryBudgets(), "fail_closed").build();
        assertThatThrownBy(() -> budget.run(CallKey.of("read_file", "{}"), () -> "ran " + ran.incrementAndGet()))
                .isInstanceOf(PolicyStoreUnavailableException.class);
        assertThat(ran).as("nothing ran without the store").hasValue(0);

        server.start();
        // the pool reconnects on its own schedule; until it has, calls keep failing closed
        SharedStoresTest.awaitTrue(() -> {
            try {
                context.guard(Operation.FILE_READ, "/ws/a.txt");
                return true;
            } catch (PolicyStoreUnavailableException stillDown) {
                return false;
            }
        });
    }

    @Test
    void anApprovalWaitingWhenTheDatabaseStopsIsRefusedNotLeftHanging() throws Exception {
        Files.writeString(workspace.resolve("plan.md"), "old");
        SecurityContext context = context();
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<?> waiting = thread.submit(() -> context.guard(Operation.FILE_WRITE, "/ws/plan.md"));
            SharedStoresTest.awaitTrue(() -> store.approvals(Duration.ofMinutes(1)).pending().size() == 1);

            server.stop();

            // the waiter polls once a minute; the broken listener connection wakes it at once
            assertThatThrownBy(() -> waiting.get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(PolicyStoreUnavailableException.class)
                    .hasMessageContaining("The policy store is unavailable");
            // one decision, one outcome: the gate's refusal, not a second "failed" record from the guard
            assertThat(decisions).extracting(AuditEvent::type)
                    .containsExactly(AuditEventType.APPROVAL_REQUESTED, AuditEventType.APPROVAL_REFUSED);
            assertThat(decisions.get(1).errorCode()).contains("policy_store_unavailable");
            assertThat(Files.readString(workspace.resolve("plan.md"))).isEqualTo("old");
        } finally {
            thread.shutdownNow();
        }
    }
}
