package dev.mero.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.MeroToolsException;
import dev.mero.core.guard.Operation;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RetryBudget;
import java.time.Duration;
import java.util.List;

/**
 * The README's PostgreSQL snippet, compiled here and run by {@link ReadmeSnippetsPostgresTest} against a real
 * server; the examples module's {@code ReadmeSnippetsTest} holds the region equal to the README's block.
 */
final class ReadmeSnippetsPostgres {

    private ReadmeSnippetsPostgres() {
    }

    /** Builds the snippet's context, makes {@code reads} guarded reads, and returns the stored refusals. */
    static List<AuditEvent> sharedStores(HikariConfig hikariConfig, String workspace, int reads) {
        // README:begin postgres
        HikariDataSource pool = new HikariDataSource(hikariConfig);
        PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(pool)
                .migrate(true)                          // apply the schema migrations; default false: check only
                .timeout(Duration.ofSeconds(5)).build();
        SecurityContext context = SecurityContext.builder().name("support_agent")
                .path(PathEntry.of(workspace, "ws", Permission.READ, Permission.WRITE))
                .rateLimit(RateLimit.perMinute(60)).rateLimitStore(store.rateLimits())
                .retryBudget(RetryBudget.builder().store(store.retryBudgets(), "support_agent").build())
                .requireApproval(Permission.WRITE).approval(store.approvals(Duration.ofMinutes(5), "support_agent"))
                .replayStore(store.replays())
                .auditLog(AuditLog.builder().sink(store.auditSink()).build())
                .build();
        // README:end
        try {
            for (int i = 0; i < reads; i++) {
                try {
                    context.guard(Operation.FILE_READ, i % 2 == 0 ? "/ws/notes.txt" : "/etc/passwd");
                } catch (MeroToolsException refused) {
                    // the refusals are what the query below must find
                }
            }
            // README:begin postgres-audit
            List<AuditEvent> refusals = store.audit(AuditQuery.builder()
                    .contextName("support_agent").outcome("denied").build());
            // README:end
            return refusals;
        } finally {
            store.close();
            pool.close();
        }
    }
}
