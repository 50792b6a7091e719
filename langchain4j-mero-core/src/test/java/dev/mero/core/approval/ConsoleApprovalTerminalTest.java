package dev.mero.core.approval;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * {@link ConsoleApproval} on a real terminal: a child JVM whose standard input and output are a pseudo-terminal
 * made by util-linux {@code script}, answered the way a person types (a line, then Enter). A terminal reader
 * takes the whole line at once, which a character-at-a-time reader waiting on {@code ready()} never finished.
 */
@Timeout(120)
class ConsoleApprovalTerminalTest {

    private static final Path SCRIPT = Path.of("/usr/bin/script");

    private Process process;
    private Thread reader;
    private final StringBuffer screen = new StringBuffer();

    @AfterEach
    void stop() throws InterruptedException {
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void answersTypedOnATerminalAreReadLineByLine() throws Exception {
        start(3, 60);

        type("y\n", 1);
        type("no\n", 2);
        type("yes\n", 3);

        assertThat(waitFor("DECISION 1: ")).contains("DECISION 1: APPROVED");
        assertThat(screen.toString()).contains("DECISION 2: DENIED").contains("DECISION 3: APPROVED")
                .doesNotContain("No answer within");
    }

    @Test
    void aLineTypedBeforeThePromptIsNotTakenAsTheAnswer() throws Exception {
        start(1, 3);
        // Typed while nobody asked yet: discarded once the prompt comes, so the question times out.
        write("y\n");

        String shown = waitFor("DECISION 1: ");

        assertThat(shown).contains("No answer within 3s: timed out, not approved.").contains("DECISION 1: TIMED_OUT");
    }

    private void start(int questions, int timeoutSeconds) throws IOException {
        assumeThat(Files.isExecutable(SCRIPT)).as("util-linux script makes the pseudo-terminal").isTrue();
        String command = TerminalApprovalProcess.javaCommand(String.valueOf(questions), String.valueOf(timeoutSeconds))
                .stream().map(ConsoleApprovalTerminalTest::singleQuoted).collect(Collectors.joining(" "));
        process = new ProcessBuilder(SCRIPT.toString(), "-q", "-e", "-c", command, "/dev/null")
                .redirectErrorStream(true).start();
        reader = new Thread(() -> copy(process.getInputStream()), "terminal-screen");
        reader.setDaemon(true);
        reader.start();
    }

    /** Waits for the question number {@code question} and types the answer at its prompt. */
    private void type(String answer, int question) throws Exception {
        waitFor("/ws/file-" + question + ".txt", "Approve? [y/N]");
        write(answer);
        waitFor("DECISION " + question + ": ");
    }

    private void write(String text) throws IOException {
        OutputStream keyboard = process.getOutputStream();
        keyboard.write(text.getBytes(StandardCharsets.UTF_8));
        keyboard.flush();
    }

    /** Waits until the screen shows every text, in order; returns the screen. */
    private String waitFor(String... texts) throws InterruptedException {
        while (true) {
            boolean ended = !process.isAlive();
            if (ended) {
                reader.join(TimeUnit.SECONDS.toMillis(30)); // everything the process showed is on the screen
            }
            String shown = screen.toString();
            int from = 0;
            boolean all = true;
            for (String text : texts) {
                int at = shown.indexOf(text, from);
                if (at < 0) {
                    all = false;
                    break;
                }
                from = at + text.length();
            }
            if (all) {
                return shown;
            }
            assertThat(ended).as("the terminal process ended before showing %s; screen: %s",
                    String.join(" ... ", texts), shown).isFalse();
            Thread.sleep(20);
        }
    }

    private void copy(InputStream terminal) {
        byte[] buffer = new byte[4096];
        try {
            for (int read; (read = terminal.read(buffer)) != -1; ) {
                screen.append(new String(buffer, 0, read, StandardCharsets.UTF_8));
            }
        } catch (IOException ended) {
            // the process was stopped
        }
    }

    private static String singleQuoted(String argument) {
        return "'" + argument.replace("'", "'\\''") + "'";
    }
}
