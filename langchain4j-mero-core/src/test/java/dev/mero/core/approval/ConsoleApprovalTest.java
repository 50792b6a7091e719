package dev.mero.core.approval;

import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.Permission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.PipedReader;
import java.io.PipedWriter;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

@Timeout(30)
class ConsoleApprovalTest {

    private final StringWriter output = new StringWriter();
    private final ApprovalRequest request = Requests.write("/ws/a.txt");

    private ConsoleApproval scripted(Reader input, Duration timeout) {
        return ConsoleApproval.builder().input(input).output(output).timeout(timeout).discardTypeAhead(false).build();
    }

    private ApprovalDecision answer(String typed) throws Exception {
        return scripted(new StringReader(typed), Duration.ofSeconds(5)).decide(request);
    }

    @ParameterizedTest
    @ValueSource(strings = {"y\n", "yes\n", "Y\n", " YES \n", "y\r\n", "y"})
    void yesApproves(String typed) throws Exception {
        assertThat(answer(typed)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(output.toString()).endsWith("Approve? [y/N] (no answer within 5s denies): Approved.\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"n\n", "no\n", "\n", "garbage\n", "yess\n", "y y\n", "ja\n", "\u0000y\n"})
    void anythingElseDenies(String typed) throws Exception {
        assertThat(answer(typed)).isEqualTo(ApprovalDecision.DENIED);
        assertThat(output.toString()).endsWith("Denied.\n");
    }

    @Test
    void anOverlongAnswerDeniesEvenIfItStartsWithYes() throws Exception {
        assertThat(answer("y" + " ".repeat(200) + "\n")).isEqualTo(ApprovalDecision.DENIED);
    }

    @Test
    void answersAreReadLineByLine() throws Exception {
        ConsoleApproval console = scripted(new StringReader("y\nn\nyes\n"), Duration.ofSeconds(5));

        assertThat(console.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(console.decide(request)).isEqualTo(ApprovalDecision.DENIED);
        assertThat(console.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
    }

    @Test
    void endOfInputAbstainsFromThenOn() throws Exception {
        ConsoleApproval console = scripted(new StringReader(""), Duration.ofSeconds(5));

        assertThat(console.decide(request)).isEqualTo(ApprovalDecision.ABSTAIN);
        assertThat(output.toString()).endsWith("Input ended: no decision.\n");
        assertThat(console.decide(request)).isEqualTo(ApprovalDecision.ABSTAIN);
    }

    @Test
    void thePromptShowsTheRequest() throws Exception {
        ApprovalRequest edit = ApprovalRequest.builder().contextName("worker_1").permissions(Permission.WRITE)
                .subject("/ws/a.txt").target(Path.of("/srv/workspace/a.txt")).details("-old\n+new").build();

        scripted(new StringReader("n\n"), Duration.ofMinutes(2)).decide(edit);

        assertThat(output.toString()).isEqualTo("""
                Approval needed for context 'worker_1':
                  action:      'WRITE: /ws/a.txt'
                  permissions: ['WRITE']
                  target:      '/srv/workspace/a.txt'
                  details:
                    | -old
                    | +new
                Approve? [y/N] (no answer within 2m denies): Denied.
                """);
    }

    @Test
    void thePromptShowsTheExactArgumentVector() {
        String prompt = ConsoleApproval.describe(Requests.command("rm", "-rf", "a b"));

        assertThat(prompt).contains("  action:      'EXECUTE: rm -rf a b'\n")
                .contains("  command:     'rm' '-rf' 'a b'\n");
    }

    @Test
    void controlCharactersAreShownEscapedNeverRaw() throws Exception {
        ApprovalRequest hostile = ApprovalRequest.builder().contextName("worker_1").permissions(Permission.WRITE)
                .subject("/ws/a\u001b[2J\u202etxt.exe").argv(List.of("echo", "\u0007bell"))
                .details("line\u001b]0;pwned\u0007\n\u200bhidden").build();

        scripted(new StringReader("n\n"), Duration.ofSeconds(5)).decide(hostile);

        String shown = output.toString();
        assertThat(shown).contains("'WRITE: /ws/a\\x1b[2J\\u202etxt.exe'")
                .contains("'echo' '\\x07bell'")
                .contains("    | line\\x1b]0;pwned\\x07\n")
                .contains("    | \\u200bhidden\n");
        assertThat(shown.chars().filter(c -> c != '\n' && Character.isISOControl(c))).isEmpty();
        assertThat(shown).doesNotContain("\u202e", "\u200b");
    }

    @Test
    void longDetailsAreSummarised() {
        String details = "+line\n".repeat(250);
        ApprovalRequest edit = ApprovalRequest.builder().contextName("c").permissions(Permission.WRITE)
                .subject("/ws/a.txt").details(details).build();

        String prompt = ConsoleApproval.describe(edit);

        assertThat(prompt.lines().filter(line -> line.equals("    | +line"))).hasSize(200);
        assertThat(prompt).endsWith("    ... (50 more lines)\n");
    }

    @Test
    void noAnswerInTimeIsATimeout() throws Exception {
        try (PipedWriter keyboard = new PipedWriter(); PipedReader input = new PipedReader(keyboard)) {
            ConsoleApproval console = scripted(input, Duration.ofMillis(200));

            // nobody ever types: only the timeout can end the wait
            assertThatThrownBy(() -> console.decide(request)).isInstanceOf(ApprovalTimeoutException.class)
                .hasMessage("Approval of 'WRITE: /ws/a.txt' timed out in context 'worker_1': nobody decided within 0.2s, "
                        + "so the action was not run.");
            assertThat(output.toString()).endsWith("\nNo answer within 0.2s: timed out, not approved.\n");
        }
    }

    @Test
    void aPartialAnswerWithoutEnterTimesOut() throws Exception {
        try (PipedWriter keyboard = new PipedWriter(); PipedReader input = new PipedReader(keyboard)) {
            keyboard.write("y");
            keyboard.flush();

            assertThatThrownBy(() -> scripted(input, Duration.ofMillis(200)).decide(request))
                    .isInstanceOf(ApprovalTimeoutException.class);
        }
    }

    @Test
    void anEndlessLineCannotHoldTheQuestionOpen() throws Exception {
        Reader endless = new Reader() {
            @Override
            public int read(char[] buffer, int offset, int length) {
                java.util.Arrays.fill(buffer, offset, offset + length, 'y');
                return length;
            }

            @Override
            public boolean ready() {
                return true;
            }

            @Override
            public void close() {
            }
        };

        assertThatThrownBy(() -> scripted(endless, Duration.ofMillis(200)).decide(request))
                .isInstanceOf(ApprovalTimeoutException.class);
        assertThatThrownBy(() -> ConsoleApproval.builder().input(endless).output(output)
                .timeout(Duration.ofMillis(200)).build().decide(request)).isInstanceOf(ApprovalTimeoutException.class);
        BlockingCall interrupted = BlockingCall.start(() -> scripted(endless, Duration.ofMinutes(5)).decide(request));
        interrupted.interrupt();
        assertThat(interrupted.failure()).isInstanceOf(InterruptedException.class);
    }

    @Test
    void typeAheadIsDiscarded() throws Exception {
        try (PipedWriter keyboard = new PipedWriter(); PipedReader input = new PipedReader(keyboard)) {
            keyboard.write("y\n"); // typed before the question was asked
            keyboard.flush();
            ConsoleApproval console = ConsoleApproval.builder().input(input).output(output)
                    .timeout(Duration.ofSeconds(10)).build();
            CompletableFuture<ApprovalDecision> decision = CompletableFuture.supplyAsync(() -> decide(console));

            awaitPrompt();
            keyboard.write("n\n");
            keyboard.flush();

            assertThat(decision.get(10, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.DENIED);
        }
    }

    @Test
    void anAnswerTypedAfterThePromptIsUsed() throws Exception {
        try (PipedWriter keyboard = new PipedWriter(); PipedReader input = new PipedReader(keyboard)) {
            ConsoleApproval console = ConsoleApproval.builder().input(input).output(output)
                    .timeout(Duration.ofSeconds(10)).build();
            CompletableFuture<ApprovalDecision> decision = CompletableFuture.supplyAsync(() -> decide(console));

            awaitPrompt();
            keyboard.write("yes\n");
            keyboard.flush();

            assertThat(decision.get(10, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.APPROVED);
        }
    }

    @Test
    void anInterruptEndsTheWaitPromptly() throws Exception {
        try (PipedWriter keyboard = new PipedWriter(); PipedReader input = new PipedReader(keyboard)) {
            ConsoleApproval console = scripted(input, Duration.ofMinutes(5));
            BlockingCall waiting = BlockingCall.start(() -> console.decide(request));
            awaitPrompt();

            waiting.interrupt();

            assertThat(waiting.failure()).isInstanceOf(InterruptedException.class);
        }
    }

    @Test
    void anInputWithoutAnOutputIsRejected() {
        assertThatThrownBy(() -> ConsoleApproval.builder().input(new StringReader("y\n")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ConsoleApproval with its own input needs an output too; call output(...) on the "
                        + "builder so the human sees the question");
        assertThatThrownBy(() -> ConsoleApproval.builder().timeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ConsoleApproval timeout must be positive, got PT0S");
    }

    @Test
    void withoutATerminalTheBackendAbstains() throws Exception {
        assumeThat(System.console()).isNull();

        assertThat(ConsoleApproval.create().decide(request)).isEqualTo(ApprovalDecision.ABSTAIN);
    }

    @Test
    void insideAChainAHangingConsoleTimesOutAndTheNextBackendDecides() throws Exception {
        try (PipedWriter keyboard = new PipedWriter(); PipedReader input = new PipedReader(keyboard)) {
            ChainedApproval chain = ChainedApproval.of(Duration.ofMillis(200),
                    scripted(input, Duration.ofMinutes(5)), ApprovalBackends.alwaysDeny());

            assertThat(chain.decide(request)).isEqualTo(ApprovalDecision.DENIED);
        }
    }

    private static ApprovalDecision decide(ConsoleApproval console) {
        try {
            return console.decide(Requests.write("/ws/a.txt"));
        } catch (InterruptedException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void awaitPrompt() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!output.toString().contains("Approve? [y/N]") && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(output.toString()).contains("Approve? [y/N]");
    }
}
