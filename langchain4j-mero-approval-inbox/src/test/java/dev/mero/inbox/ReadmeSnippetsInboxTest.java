package dev.mero.inbox;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.PendingApprovals;
import dev.mero.core.approval.StandingApproval;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Java snippets of {@code docs/approval-inbox.md}, compiled and run here; the examples module's
 * {@code ReadmeSnippetsTest} holds each region ({@code // README:begin name} ... {@code // README:end}) equal to
 * its block in the page.
 */
class ReadmeSnippetsInboxTest {

    @TempDir
    Path workspace;

    @Test
    void theStandaloneInboxServesThePageOnLoopback() throws Exception {
        // README:begin inbox-standalone
        PendingApprovals pending = PendingApprovals.builder().timeout(Duration.ofMinutes(5)).build();
        StandingApproval standing = StandingApproval.wrap(pending);   // optional: rules that expire
        SecurityContext context = SecurityContext.builder()
                .name("writer")
                .path(PathEntry.of(workspace, "ws", Permission.READ, Permission.WRITE))
                .requireApproval(Permission.WRITE)
                .approval(standing)                                     // rules first, then the inbox
                .build();
        ApprovalInboxServlet inbox = ApprovalInboxServlet.builder()
                .store(pending)
                .standingApproval(standing)
                .auditLog(context.auditLog())                           // decisions and their approvers
                .contexts(List.of("writer"))
                .timeout(Duration.ofMinutes(5))                         // shown as each request's time-out
                .build();
        try (ApprovalInboxServer server = ApprovalInboxServer.builder().servlet(inbox).start()) {
            System.out.println("Approve or deny at " + server.uri()); // http://127.0.0.1:<port>/mero/approvals
            runTheAgent(server.uri()); // each write waits until someone decides it on the page
        }
        // README:end
        assertThat(pageSeen).startsWith("http://127.0.0.1:").endsWith(ApprovalInboxServlet.DEFAULT_PATH);
    }

    private String pageSeen;

    /** Stands in for the agent: looks at the page while the server runs. */
    private void runTheAgent(URI uri) throws Exception {
        HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.body()).contains("Nothing is waiting for a decision.");
        pageSeen = uri.toString();
    }

    @Test
    void aStandingRuleApprovesTheCallersWritesBelowADirectory() throws Exception {
        StandingApproval standing = StandingApproval.wrap(PendingApprovals.create());
        // README:begin inbox-standing-rule
        standing.grant("writer", Set.of(Permission.WRITE), "/ws/docs/**", Duration.ofMinutes(30), "alice");
        // README:end
        ApprovalRequest covered = ApprovalRequest.builder().contextName("writer").permissions(Permission.WRITE)
                .subject("/ws/docs/guide.md").build();
        assertThat(standing.covering(covered)).isPresent();
    }
}
