package dev.mero.mcp;

import static dev.mero.mcp.ServerProcess.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Approval over MCP: the server asks the client's user through elicitation when the client can be asked,
 * and otherwise the policy's backend decides (none: refused).
 */
class ApprovalIT {

    @TempDir
    Path tempDir;

    /** Well above anything a healthy call takes on a loaded machine; only a hang reaches it. */
    private static final long HANG_SECONDS = 60;

    private TestFiles files;
    private final List<ElicitFormRequest> asked = new CopyOnWriteArrayList<>();

    @BeforeEach
    void files() throws Exception {
        files = TestFiles.create(tempDir);
    }

    @Test
    void anElicitingClientsUserApprovesAWrite() throws Exception {
        try (ServerProcess server = ServerProcess.start(policy(""), spec -> eliciting(spec, true))) {
            CallToolResult result = server.call("write_file", Map.of("path", "/ws/new.txt", "content", "approved"));

            assertThat(result.isError()).as(text(result)).isFalse();
            assertThat(files.ws.resolve("new.txt")).hasContent("approved");
            assertThat(asked).singleElement().satisfies(request -> {
                assertThat(request.message()).contains("WRITE: /ws/new.txt").doesNotContain(files.root.toString());
                assertThat(request.requestedSchema()).containsKey("properties");
            });
            CallToolResult read = server.call("read_file", Map.of("path", "/ws/new.txt"));
            assertThat(read.isError()).isFalse();
            assertThat(asked).as("reads need no approval").hasSize(1);
        }
    }

    @Test
    void anElicitingClientsUserDeclinesAndNothingIsWritten() throws Exception {
        try (ServerProcess server = ServerProcess.start(policy("approval: {backend: approve}\n"),
                spec -> eliciting(spec, false))) {
            CallToolResult result = server.call("write_file", Map.of("path", "/ws/new.txt", "content", "x"));

            assertThat(result.isError()).isTrue();
            assertThat(text(result)).isEqualTo("Denied: Action 'WRITE: /ws/new.txt' was not approved for context "
                    + "'approvals'.");
            assertThat(files.ws.resolve("new.txt")).doesNotExist();
            assertThat(asked).hasSize(1);
        }
    }

    @Test
    void aPendingApprovalHoldsOnlyItsOwnCall() throws Exception {
        CountDownLatch asking = new CountDownLatch(1);
        CountDownLatch answer = new CountDownLatch(1);
        try (ServerProcess server = ServerProcess.start(policy(""), spec -> spec
                .capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> {
                    asking.countDown();
                    try {
                        // the user answers only once another call went through meanwhile
                        return answer.await(HANG_SECONDS, TimeUnit.SECONDS)
                                ? new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("approve", true))
                                : new ElicitResult(ElicitResult.Action.CANCEL, null);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return new ElicitResult(ElicitResult.Action.CANCEL, null);
                    }
                }))) {
            CompletableFuture<CallToolResult> write = CompletableFuture.supplyAsync(
                    () -> server.call("write_file", Map.of("path", "/ws/late.txt", "content", "late")));
            assertThat(asking.await(HANG_SECONDS, TimeUnit.SECONDS)).isTrue();

            CallToolResult read = server.call("read_file", Map.of("path", "/ws/a.txt"));
            answer.countDown();

            assertThat(read.isError()).isFalse();
            assertThat(text(read)).contains("alpha");
            assertThat(files.ws.resolve("late.txt")).as("not written before the approval").doesNotExist();
            CallToolResult written = write.get(HANG_SECONDS, TimeUnit.SECONDS);
            assertThat(written.isError()).as(text(written)).isFalse();
            assertThat(files.ws.resolve("late.txt")).hasContent("late");
        }
    }

    @Test
    void withoutElicitationThePolicysBackendDecides() throws Exception {
        try (ServerProcess server = ServerProcess.start(policy("approval: {backend: approve}\n"))) {
            CallToolResult result = server.call("write_file", Map.of("path", "/ws/new.txt", "content", "by policy"));

            assertThat(result.isError()).as(text(result)).isFalse();
            assertThat(files.ws.resolve("new.txt")).hasContent("by policy");
        }
    }

    @Test
    void withoutElicitationAndWithoutBackendTheWriteIsRefused() throws Exception {
        try (ServerProcess server = ServerProcess.start(policy(""))) {
            CallToolResult result = server.call("write_file", Map.of("path", "/ws/new.txt", "content", "x"));

            assertThat(result.isError()).isTrue();
            assertThat(text(result)).startsWith("Denied: Action 'WRITE: /ws/new.txt'");
            assertThat(files.ws.resolve("new.txt")).doesNotExist();
        }
    }

    @Test
    void aConsoleBackendIsNeverAskedOnStdioAndRefuses() throws Exception {
        try (ServerProcess server = ServerProcess.start(policy("approval: {backend: console, timeout: PT1S}\n"))) {
            CallToolResult result = server.call("write_file", Map.of("path", "/ws/new.txt", "content", "x"));

            assertThat(result.isError()).isTrue();
            assertThat(text(result)).startsWith("Denied: ");
            assertThat(files.ws.resolve("new.txt")).doesNotExist();
            assertThat(server.stderr()).doesNotContain("Approve? [y/N]");
        }
    }

    private io.modelcontextprotocol.client.McpClient.SyncSpec eliciting(
            io.modelcontextprotocol.client.McpClient.SyncSpec spec, boolean approve) {
        return spec.capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
                .elicitation(request -> {
                    asked.add(request);
                    return approve ? new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("approve", true))
                            : new ElicitResult(ElicitResult.Action.DECLINE, null);
                });
    }

    private Path policy(String approval) throws Exception {
        return files.policy("approvals.yaml", """
                name: approvals
                paths:
                  - path: ws
                    slug: ws
                    allow: [READ, WRITE]
                    require_approval: [WRITE]
                """ + approval);
    }
}
