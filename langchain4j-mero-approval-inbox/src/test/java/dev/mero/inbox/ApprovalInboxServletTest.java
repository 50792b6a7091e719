package dev.mero.inbox;

import dev.mero.core.MeroToolsException;
import dev.mero.core.Permission;
import dev.mero.core.approval.ApprovalGate;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.PendingApprovals;
import dev.mero.core.approval.StandingApproval;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.security.Principal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The inbox over real HTTP on loopback, without a browser: listing, deciding, and every refused post. */
class ApprovalInboxServletTest {

    private static final List<AuditEvent> EVENTS = new CopyOnWriteArrayList<>();
    private static final AuditLog AUDIT = AuditLog.builder().sink(EVENTS::add).build();
    private static final PendingApprovals STORE = PendingApprovals.builder().timeout(Duration.ofMinutes(2)).build();
    private static final StandingApproval STANDING = StandingApproval.builder().delegate(STORE).auditLog(AUDIT).build();
    private static final ApprovalGate GATE = ApprovalGate.builder().backend(STANDING).auditLog(AUDIT).build();
    private static ApprovalInboxServer server;

    private InboxClient browser;

    @BeforeAll
    static void start() {
        server = ApprovalInboxServer.builder().servlet(ApprovalInboxServlet.builder().store(STORE)
                .standingApproval(STANDING).auditLog(AUDIT).contexts(List.of("writer", "reader"))
                .timeout(Duration.ofMinutes(2)).build()).start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void freshBrowser() {
        browser = new InboxClient(server.uri());
        EVENTS.clear();
    }

    /** An action that waits at the gate on its own thread; completes with "approved" or the refusal. */
    private static CompletableFuture<String> waiting(ApprovalRequest request) {
        CompletableFuture<String> outcome = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                GATE.approve(request);
                outcome.complete("approved");
            } catch (MeroToolsException e) {
                outcome.complete(e.getMessage());
            }
        });
        thread.setDaemon(true);
        thread.start();
        return outcome;
    }

    private static ApprovalRequest write(String context, String path, String diff) {
        return ApprovalRequest.builder().contextName(context).permissions(Permission.WRITE).subject(path).details(diff)
                .build();
    }

    private static void awaitPending(ApprovalRequest request) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (STORE.pending(request.id()).isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("request never became pending: " + request);
            }
            Thread.sleep(5);
        }
    }

    private List<AuditEvent> inboxEvents() {
        return EVENTS.stream().filter(event -> event.detail().orElse("").contains("approval inbox")).toList();
    }

    @Test
    void listsTheServedContextsNewestFirstWithTheDiffEscaped() throws Exception {
        ApprovalRequest older = write("writer", "/ws/docs/<b>old</b>.md", "+<script>alert('x')</script>\n-gone");
        CompletableFuture<String> first = waiting(older);
        awaitPending(older);
        ApprovalRequest newer = ApprovalRequest.builder().contextName("reader").permissions(Permission.EXECUTE)
                .argv(List.of("rm", "-rf", "\"/ws/'x'\"")).build();
        CompletableFuture<String> second = waiting(newer);
        awaitPending(newer);
        ApprovalRequest foreign = write("tenant_b", "/ws/theirs.txt", "secret plan");
        CompletableFuture<String> third = waiting(foreign);
        awaitPending(foreign);

        HttpResponse<String> page = browser.get();

        assertThat(page.statusCode()).isEqualTo(200);
        String html = page.body();
        assertThat(html).doesNotContain("<script>alert").doesNotContain("<b>old</b>")
                .contains("+&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
                .contains("/ws/docs/&lt;b&gt;old&lt;/b&gt;.md")
                .contains("command line: rm -rf &quot;/ws/&#39;x&#39;&quot;")
                .doesNotContain("secret plan").doesNotContain(foreign.id());
        assertThat(html.indexOf(newer.id())).as("newest first").isLessThan(html.indexOf(older.id()));
        assertThat(html).contains("times out in 1m ").contains("Approvals waiting: <span id=\"count\">2</span>");
        assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                .contains("script-src 'nonce-").doesNotContain("unsafe-inline");
        assertThat(page.headers().allValues("Set-Cookie")).singleElement().asString()
                .contains("HttpOnly").contains("SameSite=Strict").contains("Path=/mero/approvals");

        for (ApprovalRequest request : List.of(older, newer, foreign)) {
            STORE.complete(request.id(), dev.mero.core.approval.ApprovalDecision.DENIED);
        }
        assertThat(List.of(first, second, third)).allSatisfy(f -> assertThat(f.get(20, TimeUnit.SECONDS))
                .contains("was not approved"));
    }

    @Test
    void anApprovalContinuesTheWaitingCallAndRecordsTheApprover() throws Exception {
        ApprovalRequest request = write("writer", "/ws/a.txt", "+hello");
        CompletableFuture<String> outcome = waiting(request);
        awaitPending(request);

        HttpResponse<String> result = browser.post(List.of("token", browser.token(), "approve", request.id()));

        assertThat(result.statusCode()).isEqualTo(200);
        assertThat(result.body()).contains("Approved &#39;WRITE: /ws/a.txt&#39; for &#39;writer&#39;.");
        assertThat(outcome.get(20, TimeUnit.SECONDS)).isEqualTo("approved");
        assertThat(inboxEvents()).singleElement().satisfies(event -> {
            assertThat(event.type()).isEqualTo(AuditEventType.APPROVER_GRANTED);
            assertThat(event.requestId()).contains(request.id());
            assertThat(event.detail()).contains("decided in the approval inbox by '"
                    + ApprovalInboxServlet.ANONYMOUS_LOOPBACK + "'");
        });

        HttpResponse<String> replay = browser.post(List.of("token", browser.token(), "approve", request.id()));
        assertThat(replay.body()).contains("Not changed: request &#39;" + request.id()
                + "&#39; is not waiting (unknown, already decided or timed out).");
        assertThat(inboxEvents()).hasSize(1);
    }

    @Test
    void severalAreDeniedAtOnce() throws Exception {
        ApprovalRequest a = write("writer", "/ws/a.txt", null);
        ApprovalRequest b = write("reader", "/ws/b.txt", null);
        CompletableFuture<String> first = waiting(a);
        CompletableFuture<String> second = waiting(b);
        awaitPending(a);
        awaitPending(b);

        HttpResponse<String> result = browser.post(List.of("token", browser.token(), "decision", "deny",
                "id", a.id(), "id", b.id(), "id", "no-such-id"));

        assertThat(result.body()).contains("Denied &#39;WRITE: /ws/a.txt&#39;").contains("Denied &#39;WRITE: /ws/b.txt&#39;")
                .contains("Not changed: request &#39;no-such-id&#39; is not waiting");
        assertThat(first.get(20, TimeUnit.SECONDS)).contains("was not approved");
        assertThat(second.get(20, TimeUnit.SECONDS)).contains("was not approved");
        assertThat(inboxEvents()).extracting(AuditEvent::type)
                .containsExactly(AuditEventType.APPROVER_REFUSED, AuditEventType.APPROVER_REFUSED);
    }

    @Test
    void forgedPostsChangeNothingAndSayWhy() throws Exception {
        ApprovalRequest request = write("writer", "/ws/a.txt", null);
        CompletableFuture<String> outcome = waiting(request);
        awaitPending(request);
        String token = browser.token();

        HttpResponse<String> noToken = browser.post(List.of("approve", request.id()));
        HttpResponse<String> wrongToken = browser.post(List.of("token", token + "x", "approve", request.id()));
        HttpResponse<String> otherSite = browser.post(List.of("token", token, "approve", request.id()),
                "Origin: http://evil.example");
        HttpResponse<String> noSession = new InboxClient(server.uri()).post(List.of("token", token, "approve",
                request.id()));

        assertThat(List.of(noToken, wrongToken, otherSite, noSession)).allSatisfy(response ->
                assertThat(response.statusCode()).isEqualTo(403));
        assertThat(noToken.body()).contains("Refused: the form&#39;s security token is missing or is not this session&#39;s");
        assertThat(wrongToken.body()).contains("security token is missing or is not this session");
        assertThat(otherSite.body()).contains("Refused: the form was posted from another origin");
        assertThat(noSession.body()).contains("Refused: this browser has no inbox session");
        assertThat(STORE.pending(request.id())).as("still waiting").isPresent();
        assertThat(outcome).isNotDone();
        assertThat(inboxEvents()).isEmpty();

        STORE.complete(request.id(), dev.mero.core.approval.ApprovalDecision.DENIED);
        outcome.get(20, TimeUnit.SECONDS);
    }

    @Test
    void anotherContextsRequestIsNeitherListedNorDecided() throws Exception {
        ApprovalRequest foreign = write("tenant_b", "/ws/theirs.txt", null);
        CompletableFuture<String> outcome = waiting(foreign);
        awaitPending(foreign);

        HttpResponse<String> result = browser.post(List.of("token", browser.token(), "approve", foreign.id()));

        assertThat(result.body()).contains("belongs to a context this inbox does not serve");
        assertThat(STORE.pending(foreign.id())).isPresent();
        STORE.complete(foreign.id(), dev.mero.core.approval.ApprovalDecision.DENIED);
        assertThat(outcome.get(20, TimeUnit.SECONDS)).contains("was not approved");
    }

    @Test
    void aStandingRuleApprovesThisRequestAndTheCallersNextWritesBelowTheDirectory() throws Exception {
        ApprovalRequest first = write("writer", "/ws/docs/a.md", "+a");
        CompletableFuture<String> outcome = waiting(first);
        awaitPending(first);

        HttpResponse<String> tooWide = browser.post(List.of("token", browser.token(), "rule", first.id(),
                "pattern-" + first.id(), "/ws/src/**", "minutes-" + first.id(), "30"));
        assertThat(tooWide.body()).contains("does not cover");
        assertThat(STORE.pending(first.id())).isPresent();

        HttpResponse<String> result = browser.post(List.of("token", browser.token(), "rule", first.id(),
                "pattern-" + first.id(), "/ws/docs/**", "minutes-" + first.id(), "30"));

        assertThat(result.body()).contains("Standing rule: &#39;WRITE: /ws/docs/**&#39; for &#39;writer&#39; until")
                .contains("id=\"rules\"");
        assertThat(outcome.get(20, TimeUnit.SECONDS)).isEqualTo("approved");
        assertThat(waiting(write("writer", "/ws/docs/sub/b.md", "+b")).get(20, TimeUnit.SECONDS))
                .as("covered: approved without waiting").isEqualTo("approved");
        ApprovalRequest elsewhere = write("writer", "/ws/src/c.java", "+c");
        CompletableFuture<String> notCovered = waiting(elsewhere);
        awaitPending(elsewhere);
        STORE.complete(elsewhere.id(), dev.mero.core.approval.ApprovalDecision.DENIED);
        assertThat(notCovered.get(20, TimeUnit.SECONDS)).contains("was not approved");
        STANDING.rules().forEach(rule -> STANDING.revoke(rule.id(), "test"));
    }

    @Test
    void aNonLoopbackAddressIsRefusedWithoutAuthentication() {
        ApprovalInboxServlet anonymous = ApprovalInboxServlet.builder().store(STORE).build();

        assertThatThrownBy(() -> ApprovalInboxServer.builder().servlet(anonymous).host("0.0.0.0").start())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not a loopback address");
        assertThat(anonymous.authenticates()).isFalse();
        assertThat(ApprovalInboxServlet.builder().store(STORE).authenticator(r -> "alice").build().authenticates())
                .isTrue();
    }

    @Test
    void anAnonymousRequestFromAnotherHostIsRefused() throws Exception {
        StringWriter body = new StringWriter();
        int[] status = new int[1];

        ApprovalInboxServlet.builder().store(STORE).build()
                .service(Fakes.request("10.0.0.7", "10.0.0.1", Map.of()), Fakes.response(body, status));

        assertThat(status[0]).isEqualTo(403);
        assertThat(body.toString()).contains("served over loopback only");
    }

    @Test
    void anAnonymousRequestForAnotherHostNameIsRefusedAgainstDnsRebinding() throws Exception {
        StringWriter body = new StringWriter();
        int[] status = new int[1];

        ApprovalInboxServlet.builder().store(STORE).build().service(Fakes.request("127.0.0.1", "127.0.0.1",
                Map.of("getHeader:Host", "attacker.example:8080")), Fakes.response(body, status));

        assertThat(status[0]).isEqualTo(403);
        assertThat(body.toString()).contains("answers only to a loopback host name");
        assertThat(List.of("127.0.0.1:8080", "localhost", "LOCALHOST:1", "[::1]:80", "[::1]", "127.0.0.2"))
                .allSatisfy(host -> assertThat(ApprovalInboxServlet.loopbackHost(host)).as(host).isTrue());
        assertThat(java.util.Arrays.asList("attacker.example", "localhost.attacker.example:80", "10.0.0.1:80",
                "::1", "[::1", "", null)).allSatisfy(host -> assertThat(ApprovalInboxServlet.loopbackHost(host))
                .as(host).isFalse());
    }

    @Test
    void theApproverHeaderCountsOnlyWhenEnabled() throws Exception {
        HttpServletRequest request = Fakes.request("10.0.0.7", "10.0.0.1", Map.of("getHeader:X-Forwarded-User", "carol"));
        StringWriter refused = new StringWriter();
        int[] status = new int[1];
        ApprovalInboxServlet.builder().store(STORE).build().service(request, Fakes.response(refused, status));
        assertThat(status[0]).isEqualTo(403);
        assertThat(refused.toString()).contains("loopback only");

        StringWriter served = new StringWriter();
        ApprovalInboxServlet.builder().store(STORE).approverHeader("X-Forwarded-User").build()
                .service(request, Fakes.response(served, status));
        assertThat(status[0]).isEqualTo(200);
        assertThat(served.toString()).contains("Signed in as <b id=\"approver\">carol</b>");
    }

    @Test
    void aRequiredRoleNeedsAPrincipalInIt() throws Exception {
        StringWriter body = new StringWriter();
        int[] status = new int[1];
        ApprovalInboxServlet.builder().store(STORE).requiredRole("MERO_APPROVER").build()
                .service(Fakes.request("127.0.0.1", "127.0.0.1", Map.of()), Fakes.response(body, status));
        assertThat(status[0]).isEqualTo(403);
        assertThat(body.toString()).contains("Denied: the approval inbox needs an authenticated user in role MERO_APPROVER.");

        Principal dave = () -> "dave";
        StringWriter otherRole = new StringWriter();
        ApprovalInboxServlet.builder().store(STORE).requiredRole("MERO_APPROVER").build()
                .service(Fakes.request("127.0.0.1", "127.0.0.1", Map.of("getUserPrincipal", dave)),
                        Fakes.response(otherRole, status));
        assertThat(status[0]).isEqualTo(403);

        StringWriter served = new StringWriter();
        ApprovalInboxServlet.builder().store(STORE).requiredRole("MERO_APPROVER").build()
                .service(Fakes.request("10.0.0.7", "10.0.0.1", Map.of("getUserPrincipal", dave,
                        "isUserInRole:MERO_APPROVER", true)), Fakes.response(served, status));
        assertThat(status[0]).isEqualTo(200);
        assertThat(served.toString()).contains("Signed in as <b id=\"approver\">dave</b>");
    }

    @Test
    void theHostsSpringSecurityCsrfTokenRidesAlongInTheForm() throws Exception {
        org.springframework.security.web.csrf.CsrfToken host = new org.springframework.security.web.csrf.CsrfToken() {
            @Override
            public String getParameterName() {
                return "_csrf";
            }

            @Override
            public String getToken() {
                return "t<1>\"";
            }
        };
        StringWriter body = new StringWriter();
        int[] status = new int[1];

        ApprovalInboxServlet.builder().store(STORE).build()
                .service(Fakes.request("127.0.0.1", "127.0.0.1", Map.of("getAttribute:_csrf", host)),
                        Fakes.response(body, status));

        assertThat(status[0]).isEqualTo(200);
        assertThat(body.toString()).contains("<input type=\"hidden\" name=\"_csrf\" value=\"t&lt;1&gt;&quot;\">");
    }

    @Test
    void loopbackIsRecognisedByLiteralOnly() {
        assertThat(List.of("127.0.0.1", "127.8.9.10", "::1", "[::1]", "0:0:0:0:0:0:0:1")).allSatisfy(address ->
                assertThat(ApprovalInboxServlet.isLoopback(address)).as(address).isTrue());
        assertThat(java.util.Arrays.asList("10.0.0.1", "0.0.0.0", "::", "localhost", "cafe", "", null))
                .allSatisfy(address -> assertThat(ApprovalInboxServlet.isLoopback(address)).as(address).isFalse());
    }
}
