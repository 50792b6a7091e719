package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.ops.UntrustedContent;
import dev.mero.tools.FileTools;
import dev.mero.tools.MeroToolExecutionErrorHandler;
import dev.mero.tools.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * FileTools in the real LangChain4j loop over the PostgreSQL stores: a write approved from another
 * instance runs, and with the database stopped the model reads that the policy store is unavailable.
 */
class ToolLoopTest {

    interface Agent {
        String chat(String message);
    }

    private PostgresServer server;
    private HikariDataSource poolA;
    private HikariDataSource poolB;
    private PostgresPolicyStore storeA;
    private PostgresPolicyStore storeB;

    @TempDir
    Path workspace;

    @BeforeEach
    void start() throws Exception {
        server = PostgresServer.startNew();
        String url = server.createDatabase();
        poolA = PostgresServer.pool(url, 4);
        poolB = PostgresServer.pool(url, 4);
        storeA = PostgresPolicyStore.builder().dataSource(poolA).migrate(true).timeout(Duration.ofSeconds(2)).build();
        storeB = PostgresPolicyStore.builder().dataSource(poolB).timeout(Duration.ofSeconds(2)).build();
        Files.writeString(workspace.resolve("notes.txt"), "notes\n");
    }

    @AfterEach
    void stop() {
        storeA.close();
        storeB.close();
        poolA.close();
        poolB.close();
        server.close();
    }

    private SecurityContext context() {
        return SecurityContext.builder().name("loop")
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ, Permission.WRITE))
                .rateLimit(RateLimit.perMinute(100)).rateLimitStore(storeA.rateLimits())
                .requireApproval(Permission.WRITE).approval(storeA.approvals(Duration.ofMinutes(2)))
                .build();
    }

    private static ToolExecutionResultMessage run(SecurityContext context, String tool, Map<String, Object> args) {
        ScriptedChatModel model = new ScriptedChatModel().callTool(tool, args).reply("done");
        AiServices.builder(Agent.class).chatModel(model).tools(new FileTools(context))
                .toolExecutionErrorHandler(new MeroToolExecutionErrorHandler()).build().chat("go");
        return ScriptedChatModel.lastToolResults(model.requests().get(1)).get(0);
    }

    @Test
    void aWriteApprovedOnAnotherInstanceRuns() throws Exception {
        SecurityContext context = context();
        ApprovalStore otherInstance = storeB.approvals(Duration.ofMinutes(1));
        ExecutorService agent = Executors.newSingleThreadExecutor();
        try {
            Future<ToolExecutionResultMessage> result = agent.submit(() -> run(context, "write_file",
                    Map.of("path", "/ws/out.txt", "content", "hi")));
            ApprovalRequest request = SharedStoresTest.awaitValue(() -> otherInstance.pending().stream()
                    .findFirst().orElse(null));
            assertThat(request.details()).hasValueSatisfying(details -> assertThat(details).endsWith("\nhi"));
            assertThat(otherInstance.complete(request.id(), ApprovalDecision.APPROVED)).isTrue();

            assertThat(result.get(60, TimeUnit.SECONDS).isError()).isFalse();
            assertThat(Files.readString(workspace.resolve("out.txt"))).isEqualTo("hi");
        } finally {
            agent.shutdownNow();
        }
    }

    @Test
    void withTheDatabaseStoppedTheModelReadsThatThePolicyStoreIsUnavailable() {
        SecurityContext context = context();
        assertThat(UntrustedContent.unwrap(run(context, "read_file", Map.of("path", "/ws/notes.txt")).text()))
                .contains("notes\n");

        server.stop();

        ToolExecutionResultMessage refused = run(context, "read_file", Map.of("path", "/ws/notes.txt"));
        assertThat(refused.isError()).isTrue();
        assertThat(refused.text()).isEqualTo("Error: The policy store is unavailable (rate limit 'loop'), so the "
                + "action was not run. Retry in a while; if it keeps failing, tell the user.");
        ToolExecutionResultMessage write = run(context, "write_file", Map.of("path", "/ws/out.txt", "content", "x"));
        assertThat(write.text()).startsWith("Error: The policy store is unavailable");
        assertThat(workspace.resolve("out.txt")).doesNotExist();
    }
}
