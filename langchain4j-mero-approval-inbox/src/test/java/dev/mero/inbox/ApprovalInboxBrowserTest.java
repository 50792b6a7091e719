package dev.mero.inbox;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.service.AiServices;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.PendingApprovals;
import dev.mero.core.approval.StandingApproval;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.tools.MeroToolProvider;
import dev.mero.tools.testing.ScriptedChatModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The inbox driven in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}, which
 * {@code .ci/setup} installs): an agent's write through the real LangChain4j tool loop waits, the page shows it
 * with its diff (hostile text as text), a click approves it and the call completes, the audit names who
 * approved; a click denies another; a forged token is refused. One browser for the class. Without the browser
 * the class is skipped locally, and fails in CI ({@code CI=true}).
 */
class ApprovalInboxBrowserTest {

    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    static Path dir;

    private static final List<AuditEvent> EVENTS = new CopyOnWriteArrayList<>();
    private static final PendingApprovals STORE = PendingApprovals.builder().timeout(Duration.ofMinutes(2)).build();
    private static Path workspace;
    private static SecurityContext context;
    private static ApprovalInboxServer server;
    private static WebDriver browser;

    interface Assistant {
        String chat(String message);
    }

    @BeforeAll
    static void start() throws Exception {
        boolean present = new File(CHROMIUM).canExecute() && new File(CHROMEDRIVER).canExecute();
        if (!present) {
            String why = "headless Chromium is missing (" + CHROMIUM + ", " + CHROMEDRIVER + "); run .ci/setup";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError("The approval inbox's browser test cannot run in CI: " + why);
            }
            Assumptions.abort("Skipping the approval inbox's browser test: " + why);
        }
        workspace = Files.createDirectories(dir.resolve("ws/docs"));
        Files.writeString(workspace.resolve("readme.md"), "# Docs\nold line\n");
        AuditLog audit = AuditLog.builder().sink(EVENTS::add).build();
        StandingApproval standing = StandingApproval.builder().delegate(STORE).auditLog(audit).build();
        context = SecurityContext.builder().name("writer")
                .path(PathEntry.of(workspace.getParent().toString(), "ws", Permission.READ, Permission.WRITE))
                .requireApproval(Permission.WRITE).approval(standing).auditLog(audit).build();
        // the application's sign-in stands behind the authenticator: every request here is alice's
        server = ApprovalInboxServer.builder().servlet(ApprovalInboxServlet.builder().store(STORE)
                .standingApproval(standing).auditLog(audit).contexts(List.of("writer")).authenticator(request -> "alice")
                .timeout(Duration.ofMinutes(2)).build()).start();

        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER);
        System.setProperty("SE_OFFLINE", "true");
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM).addArguments("--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--user-data-dir=" + Files.createDirectories(dir.resolve("chromium-profile")));
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(WAIT);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void clearAudit() {
        EVENTS.clear();
    }

    /** The agent writes a file through the real tool loop, on its own thread; completes with the tool's result. */
    private static CompletableFuture<String> agentWrites(String path, String content) {
        return agentCalls("write_file", Map.of("path", path, "content", content));
    }

    /** The agent calls a tool through the real tool loop, on its own thread; completes with the tool's result. */
    private static CompletableFuture<String> agentCalls(String tool, Map<String, ?> arguments) {
        ToolExecutionRequest call = ToolExecutionRequest.builder().id("call-" + arguments.get("path")).name(tool)
                .arguments(ScriptedChatModel.json(arguments)).build();
        ScriptedChatModel model = new ScriptedChatModel().callTools(call).reply("done");
        Assistant assistant = AiServices.builder(Assistant.class).chatModel(model)
                .toolProvider(new MeroToolProvider(context)).build();
        return CompletableFuture.supplyAsync(() -> {
            assistant.chat("please " + tool);
            List<ToolExecutionResultMessage> results = ScriptedChatModel.lastToolResults(model.requests().get(1));
            return results.get(0).text();
        });
    }

    private static ApprovalRequest awaitPending(String subject) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            for (ApprovalRequest request : STORE.pending()) {
                if (request.subject().orElse("").equals(subject)) {
                    return request;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no request for " + subject + " became pending");
    }

    private static WebElement row(ApprovalRequest request) {
        browser.get(server.uri() + "?noreload");
        return new WebDriverWait(browser, WAIT).until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("tr.request[data-id='" + request.id() + "']")));
    }

    private static String status() {
        return new WebDriverWait(browser, WAIT).until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("p.msg"))).getText();
    }

    @Test
    void aClickApprovesTheWaitingCallWhichCompletesAndTheAuditNamesTheApprover() throws Exception {
        CompletableFuture<String> result = agentCalls("edit_file", Map.of("path", "/ws/docs/readme.md",
                "old_text", "old line", "new_text", "new line <script>window.pwned=1</script>"));
        ApprovalRequest request = awaitPending("/ws/docs/readme.md");

        WebElement row = row(request);
        assertThat(row.findElement(By.cssSelector(".context")).getText()).isEqualTo("writer");
        assertThat(row.findElement(By.cssSelector(".action")).getText()).isEqualTo("WRITE: /ws/docs/readme.md");
        String diff = row.findElement(By.cssSelector("pre.details")).getText();
        assertThat(diff).contains("+new line <script>window.pwned=1</script>").contains("-old line");
        assertThat(((JavascriptExecutor) browser).executeScript("return window.pwned === undefined")).isEqualTo(true);
        assertThat(browser.findElement(By.id("approver")).getText()).isEqualTo("alice");

        row.findElement(By.cssSelector("button.approve")).click();

        assertThat(status()).isEqualTo("Approved 'WRITE: /ws/docs/readme.md' for 'writer'.");
        assertThat(result.get(WAIT.toSeconds(), TimeUnit.SECONDS)).doesNotStartWith("Denied").doesNotStartWith("Error");
        assertThat(workspace.resolve("readme.md")).hasContent("# Docs\nnew line <script>window.pwned=1</script>");
        assertThat(EVENTS).anySatisfy(event -> {
            assertThat(event.type()).isEqualTo(AuditEventType.APPROVER_GRANTED);
            assertThat(event.requestId()).contains(request.id());
            assertThat(event.detail()).contains("decided in the approval inbox by 'alice'");
        });
        assertThat(EVENTS).filteredOn(event -> event.type() == AuditEventType.APPROVAL_GRANTED)
                .extracting(event -> event.requestId().orElseThrow()).containsOnly(request.id());
        assertThat(browser.findElements(By.cssSelector("tr.request"))).isEmpty();
    }

    @Test
    void aClickDeniesAndTheFileStaysAsItWas() throws Exception {
        Files.writeString(workspace.resolve("keep.md"), "keep\n");
        CompletableFuture<String> result = agentWrites("/ws/docs/keep.md", "overwritten\n");
        ApprovalRequest request = awaitPending("/ws/docs/keep.md");

        row(request).findElement(By.cssSelector("button.deny")).click();

        assertThat(status()).isEqualTo("Denied 'WRITE: /ws/docs/keep.md' for 'writer'.");
        assertThat(result.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                .isEqualTo("Denied: Action 'WRITE: /ws/docs/keep.md' was not approved for context 'writer'.");
        assertThat(workspace.resolve("keep.md")).hasContent("keep");
        assertThat(EVENTS).anySatisfy(event -> {
            assertThat(event.type()).isEqualTo(AuditEventType.APPROVER_REFUSED);
            assertThat(event.detail()).contains("decided in the approval inbox by 'alice'");
        });
    }

    @Test
    void aForgedTokenIsRefusedAndTheCallKeepsWaiting() throws Exception {
        CompletableFuture<String> result = agentWrites("/ws/docs/forged.md", "x\n");
        ApprovalRequest request = awaitPending("/ws/docs/forged.md");
        WebElement row = row(request);

        ((JavascriptExecutor) browser).executeScript("document.querySelector('input[name=token]').value='forged'");
        row.findElement(By.cssSelector("button.approve")).click();

        assertThat(status()).startsWith("Refused: the form's security token is missing or is not this session's; "
                + "nothing was changed.");
        assertThat(STORE.pending(request.id())).isPresent();
        assertThat(result).isNotDone();
        assertThat(Files.exists(workspace.resolve("forged.md"))).isFalse();

        STORE.complete(request.id(), ApprovalDecision.DENIED);
        assertThat(result.get(WAIT.toSeconds(), TimeUnit.SECONDS)).startsWith("Denied: ");
    }
}
