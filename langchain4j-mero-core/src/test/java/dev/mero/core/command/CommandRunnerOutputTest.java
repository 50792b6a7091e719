package dev.mero.core.command;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class CommandRunnerOutputTest {

    @TempDir
    Path dir;

    @Test
    void caps_an_endless_writer_and_stops_it_at_the_timeout() {
        CommandRunner runner = CommandRunner.builder().outputLimitBytes(1000).build();

        CommandResult result = runner.run(List.of("/usr/bin/yes"), dir, Duration.ofSeconds(1));

        assertThat(result.timedOut()).isTrue();
        assertThat(result.succeeded()).isFalse();
        assertThat(result.stdoutTruncated()).isTrue();
        assertThat(result.stdoutBytes()).isGreaterThan(1000);
        assertThat(result.stdout()).isEqualTo("y\n".repeat(500) + "\n[... output truncated: "
                + (result.stdoutBytes() - 1000) + " more bytes not shown ...]");
        assertThat(result.killedProcesses()).isZero();
        assertThat(result.toModelText()).startsWith("Error: command timed out after 1 s and was killed. "
                + "Output before the timeout:\ny\ny\n");
    }

    @Test
    void an_endless_background_writer_does_not_outlive_a_command_that_exited() throws Exception {
        // a name of this run's own: other test JVMs on the machine (PIT's, a parallel build's) run this test too
        String writer = "mero-bg-writer-" + java.util.UUID.randomUUID();
        Path script = Processes.script(dir, "bg.sh", "/usr/bin/yes " + writer + " &\n/bin/sleep 0.2\necho started\n");

        // the writer never ends by itself: that the run returns at all shows it did not wait for it
        CommandResult result = CommandRunner.builder().outputLimitBytes(1000).build()
                .run(List.of(script.toString()), dir, Duration.ofSeconds(20));

        assertThat(result.succeeded()).isTrue();
        assertThat(result.stdoutTruncated()).isTrue();
        assertThat(result.stdout()).hasSizeLessThanOrEqualTo(1000 + BoundedOutput.truncationMarker(
                result.stdoutBytes()).length());
        // killed by the runner, or by SIGPIPE once the JDK closed the pipe of the exited command
        assertThat(Processes.runningWithArgv("/usr/bin/yes", writer)).isEmpty();
    }

    @Test
    void drains_both_streams_past_the_cap_so_the_command_never_blocks() throws Exception {
        Path script = Processes.script(dir, "loud.sh", "/usr/bin/seq 1 100000\n/usr/bin/seq 1 100000 >&2\n");
        long expectedBytes = IntStream.rangeClosed(1, 100000).mapToLong(i -> Integer.toString(i).length() + 1).sum();

        CommandResult result = CommandRunner.builder().build().run(List.of(script.toString()), dir);

        assertThat(result.succeeded()).isTrue();
        assertThat(result.stdoutBytes()).isEqualTo(expectedBytes);
        assertThat(result.stderrBytes()).isEqualTo(expectedBytes);
        assertThat(result.stdoutTruncated()).isTrue();
        assertThat(result.stderrTruncated()).isTrue();
        String shown = IntStream.rangeClosed(1, 100000).mapToObj(i -> i + "\n").collect(Collectors.joining())
                .substring(0, 64 * 1024);
        String marker = "\n[... output truncated: " + (expectedBytes - 64 * 1024) + " more bytes not shown ...]";
        assertThat(result.stdout()).isEqualTo(shown + marker);
        assertThat(result.stderr()).isEqualTo(shown + marker);
    }

    @Test
    void replaces_invalid_utf8_bytes() {
        CommandResult result = CommandRunner.builder().build()
                .run(List.of("/usr/bin/printf", "\\377ok\\303"), dir);

        assertThat(result.stdout()).isEqualTo("\uFFFDok\uFFFD");
        assertThat(result.stdoutTruncated()).isFalse();
    }

    @Test
    void never_splits_a_multi_byte_character_at_the_cap() {
        // "abcd" + U+00E9 (2 bytes): a 5-byte cap would cut the é in half
        CommandResult two = CommandRunner.builder().outputLimitBytes(5).build()
                .run(List.of("/usr/bin/printf", "abcd\\303\\251"), dir);
        assertThat(two.stdout()).isEqualTo("abcd\n[... output truncated: 2 more bytes not shown ...]");

        // "ab" + U+1F600 (4 bytes) + "c": a 6-byte cap keeps the whole emoji, a 5-byte cap none of it
        List<String> emoji = List.of("/usr/bin/printf", "ab\\360\\237\\230\\200c");
        assertThat(CommandRunner.builder().outputLimitBytes(6).build().run(emoji, dir).stdout())
                .isEqualTo("ab\uD83D\uDE00\n[... output truncated: 1 more byte not shown ...]");
        assertThat(CommandRunner.builder().outputLimitBytes(5).build().run(emoji, dir).stdout())
                .isEqualTo("ab\n[... output truncated: 5 more bytes not shown ...]");
    }

    @Test
    void caps_standard_error_on_its_own() throws Exception {
        Path script = Processes.script(dir, "err.sh", "echo short\n/usr/bin/printf '%0100d' 0 >&2\nexit 2\n");

        CommandResult result = CommandRunner.builder().outputLimitBytes(10).build()
                .run(List.of(script.toString()), dir);

        assertThat(result.stdout()).isEqualTo("short\n");
        assertThat(result.stdoutTruncated()).isFalse();
        assertThat(result.stderrTruncated()).isTrue();
        assertThat(result.toModelText()).isEqualTo("Error: command exited with code 2. Output:\nshort\n[stderr]\n"
                + "0000000000\n[... output truncated: 90 more bytes not shown ...]");
    }
}
