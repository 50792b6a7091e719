package dev.mero.core.command;

import dev.mero.core.OperationFailedException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandResultTest {

    private static CommandResult.Builder result() {
        return CommandResult.builder().argv(List.of("/usr/bin/make", "test")).timeout(Duration.ofSeconds(30));
    }

    @Test
    void renders_a_success_as_its_output_with_stderr_labelled() {
        assertThat(result().stdout("built\n", false, 6).stderr("warning: x\n", false, 11).build().toModelText())
                .isEqualTo("built\n[stderr]\nwarning: x");
        assertThat(result().stdout("no newline", false, 10).stderr("w", false, 1).build().toModelText())
                .isEqualTo("no newline\n[stderr]\nw");
        assertThat(result().stderr("only\n", false, 5).build().toModelText()).isEqualTo("[stderr]\nonly");
        assertThat(result().build().toModelText()).isEqualTo("(no output)");
    }

    @Test
    void notes_background_processes_that_were_killed() {
        assertThat(result().stdout("ok\n", false, 3).killedProcesses(1).build().toModelText())
                .isEqualTo("ok\n[note: 1 background process was still running when the command exited and was killed]");
        assertThat(result().exitCode(2).killedProcesses(3).build().toModelText())
                .isEqualTo("Error: command exited with code 2 and printed nothing.\n[note: 3 background processes "
                        + "were still running when the command exited and were killed]");
    }

    @Test
    void renders_a_timeout_with_the_partial_output_and_the_children_killed() {
        CommandResult.Builder timedOut = result().timedOut(true).exitCode(143).timeout(Duration.ofMillis(2500));

        assertThat(timedOut.build().toModelText())
                .isEqualTo("Error: command timed out after 2.5 s and was killed; it printed nothing.");
        assertThat(timedOut.killedProcesses(1).stdout("step 1\n", false, 7).build().toModelText())
                .isEqualTo("Error: command timed out after 2.5 s and was killed (with its 1 child process). "
                        + "Output before the timeout:\nstep 1");
        assertThat(timedOut.killedProcesses(4).build().toModelText())
                .startsWith("Error: command timed out after 2.5 s and was killed (with its 4 child processes).");
    }

    @Test
    void a_timeout_with_exit_code_zero_is_still_a_failure() {
        CommandResult result = result().timedOut(true).build();

        assertThat(result.succeeded()).isFalse();
        assertThatThrownBy(result::orThrow)
                .isInstanceOf(OperationFailedException.class)
                .hasMessage("command timed out after 30 s and was killed; it printed nothing.");
    }

    @Test
    void or_throw_turns_a_failure_into_an_ordinary_error_with_the_same_model_text() {
        CommandResult failed = result().exitCode(1).stderr("No rule to make target 'test'.\n", false, 31).build();

        assertThatThrownBy(failed::orThrow)
                .isInstanceOfSatisfying(OperationFailedException.class, e -> {
                    assertThat(e.isDenial()).isFalse();
                    assertThat(e.toModelText()).isEqualTo(failed.toModelText())
                            .isEqualTo("Error: command exited with code 1. Output:\n[stderr]\n"
                                    + "No rule to make target 'test'.");
                });
        CommandResult ok = result().build();
        assertThat(ok.orThrow()).isSameAs(ok);
    }

    @Test
    void is_a_value_with_a_log_safe_string_form() {
        CommandResult one = result().stdout("secret output", true, 70_000).duration(Duration.ofMillis(12)).build();
        CommandResult same = result().stdout("secret output", true, 70_000).duration(Duration.ofMillis(12)).build();

        assertThat(one).isEqualTo(same).hasSameHashCodeAs(same).isNotEqualTo(result().build());
        assertThat(one.toString()).doesNotContain("secret output")
                .isEqualTo("CommandResult{program='/usr/bin/make', exitCode=0, timedOut=false, duration=12ms, "
                        + "stdoutBytes=70000 (truncated), stderrBytes=0, killedProcesses=0}");
        assertThat(one.argv()).containsExactly("/usr/bin/make", "test");
    }

    @Test
    void with_output_rewrites_both_streams_and_keeps_everything_else() {
        CommandResult host = result().exitCode(2).stdout("/srv/ws/a\n", true, 70_000).stderr("in /srv/ws\n", true, 80_000)
                .duration(Duration.ofMillis(12)).timedOut(true).killedProcesses(3).build();

        CommandResult shown = host.withOutput(text -> text.replace("/srv/ws", "/ws"));

        assertThat(shown.stdout()).isEqualTo("/ws/a\n");
        assertThat(shown.stderr()).isEqualTo("in /ws\n");
        assertThat(shown.stdoutTruncated()).isTrue();
        assertThat(shown.stderrTruncated()).isTrue();
        assertThat(shown.stdoutBytes()).isEqualTo(70_000);
        assertThat(shown.stderrBytes()).isEqualTo(80_000);
        assertThat(shown.exitCode()).isEqualTo(2);
        assertThat(shown.duration()).isEqualTo(Duration.ofMillis(12));
        assertThat(shown.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(shown.timedOut()).isTrue();
        assertThat(shown.killedProcesses()).isEqualTo(3);
        assertThat(shown).isNotEqualTo(host).doesNotHaveSameHashCodeAs(host).isEqualTo(shown)
                .isNotEqualTo(shown.toModelText());
        assertThat(shown.withOutput(text -> text.replace("/ws", "/srv/ws"))).isEqualTo(host);
    }

    @Test
    void rejects_a_result_without_argv() {
        assertThatThrownBy(() -> CommandResult.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("A command result needs the command's argv, got null");
        assertThatThrownBy(() -> result().killedProcesses(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("killedProcesses must not be negative, got -1");
    }

    @Test
    void renders_durations_in_seconds() {
        assertThat(DurationText.of(Duration.ofSeconds(30))).isEqualTo("30 s");
        assertThat(DurationText.of(Duration.ofMillis(1500))).isEqualTo("1.5 s");
        assertThat(DurationText.of(Duration.ofMillis(250))).isEqualTo("0.25 s");
        assertThat(DurationText.of(Duration.ofMillis(1))).isEqualTo("0.001 s");
        assertThat(DurationText.of(Duration.ofMinutes(5))).isEqualTo("300 s");
    }
}
