package dev.mero.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inbox example, decided over HTTP as a browser would post the page's form (no browser needed). */
class InboxAgentTest {

    private static final Pattern ROW = Pattern.compile("data-id=\"([^\"]+)\"");
    private static final Pattern TOKEN = Pattern.compile("name=\"token\" value=\"([^\"]+)\"");

    @TempDir
    Path root;

    @Test
    void theEditWaitsInTheInboxUntilItIsApprovedThere() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Transcript transcript = new Transcript(new PrintStream(out, true, UTF_8));
        CompletableFuture<URI> page = new CompletableFuture<>();
        transcript.header(Example.INBOX, ModelSelection.scripted().description());
        CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> {
            try {
                return InboxAgent.run(root, ModelSelection.scripted(), transcript, page::complete);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        URI uri = page.get(30, TimeUnit.SECONDS);
        assertThat(uri.getHost()).isEqualTo("127.0.0.1");
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();

        String html = "";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ROW.matcher(html).find() && System.nanoTime() < deadline) {
            html = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString()).body();
            if (!ROW.matcher(html).find()) {
                Thread.sleep(20);
            }
        }
        Matcher row = ROW.matcher(html);
        Matcher token = TOKEN.matcher(html);
        assertThat(row.find() && token.find()).as("a waiting request in%n%s", html).isTrue();
        assertThat(html).contains("WRITE: /ws/todo.txt").contains("+- order pizza for the retro");
        String form = "token=" + URLEncoder.encode(token.group(1), UTF_8) + "&approve="
                + URLEncoder.encode(row.group(1), UTF_8);
        HttpResponse<String> decided = http.send(HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(decided.body()).contains("Approved &#39;WRITE: /ws/todo.txt&#39; for &#39;workspace-agent&#39;.");
        assertThat(answer.get(30, TimeUnit.SECONDS)).isEqualTo(InboxAgent.FINAL_ANSWER);
        ExampleRun run = ExampleRun.of(out, answer.get());
        assertThat(run.transcript).contains("Open " + uri + " in a browser");
        assertThat(run.callBlock("Tool call  edit_file")).contains("  audit    APPROVAL_REQUESTED 'WRITE: /ws/todo.txt'\n")
                .contains("  audit    APPROVAL_GRANTED 'WRITE: /ws/todo.txt'\n");
        assertThat(root.resolve("workspace/todo.txt"))
                .hasContent("- book the room for the retro\n- order pizza for the retro");
    }
}
