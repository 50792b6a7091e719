package dev.mero.core.command;

import dev.mero.core.OperationFailedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Real process trees in the opt-out mode (no sandbox), where the runner itself must find and kill them:
 * background children, a double-forked {@code setsid} daemon, a child that dropped the run's marker. The
 * sandboxed runs are proven in {@link SandboxProcessTest}. Fixture scripts write the pids they start into {@code pids} in the working directory; every
 * test checks through {@code /proc} that none of them runs afterwards.
 */
class CommandRunnerProcessTreeTest {

    /** Sleep lengths unique to this run, so that another build on the machine cannot be mistaken for ours. */
    private static final int SLEEP_BASE = 100_000 + new java.util.Random().nextInt(800_000);

    private static String sleepSeconds(int n) {
        return String.valueOf(SLEEP_BASE + n);
    }


    private final CommandRunner runner = CommandRunner.builder().build();
    private final List<Long> started = new ArrayList<>();

    @TempDir
    Path dir;

    @AfterEach
    void killWhatATestLeftBehind() {
        started.forEach(Processes::killQuietly);
    }

    @Test
    void a_timeout_kills_the_whole_tree_daemons_included() throws Exception {
        Path script = Processes.script(dir, "tree.sh", ""
                + "/bin/sleep " + sleepSeconds(1) + " &\n"
                + "echo $! > pids\n"
                + "( /usr/bin/setsid /bin/sleep " + sleepSeconds(2) + " & echo $! >> pids )\n"
                + "echo started\n"
                + "exec /bin/sleep " + sleepSeconds(3) + "\n");

        CommandResult result = runner.runUnsandboxed(List.of(script.toString()), dir, Duration.ofMillis(1500), Map.of());

        List<Long> children = pids(2);
        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isIn(137, 143);
        // the upper end is not timed: the children sleep for days, so their absence afterwards proves the kill
        assertThat(result.duration()).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
        assertThat(result.killedProcesses()).isEqualTo(2);
        assertThat(result.toModelText()).isEqualTo("Error: command timed out after 1.5 s and was killed "
                + "(with its 2 child processes). Output before the timeout:\nstarted");
        assertNoneRuns(children);
        assertThat(Processes.runningWithArgv("/bin/sleep", sleepSeconds(1))).isEmpty();
        assertThat(Processes.runningWithArgv("/bin/sleep", sleepSeconds(2))).isEmpty();
        assertThat(Processes.runningWithArgv("/bin/sleep", sleepSeconds(3))).isEmpty();
    }

    @Test
    void a_timeout_kills_a_child_that_dropped_the_marker_while_it_is_still_in_the_tree() throws Exception {
        Path script = Processes.script(dir, "scrubbed.sh", ""
                + "/usr/bin/env -i /bin/sleep " + sleepSeconds(4) + " &\n"
                + "echo $! > pids\n"
                + "exec /bin/sleep " + sleepSeconds(5) + "\n");

        CommandResult result = runner.runUnsandboxed(List.of(script.toString()), dir, Duration.ofSeconds(1), Map.of());

        List<Long> children = pids(1);
        assertThat(result.timedOut()).isTrue();
        assertThat(result.killedProcesses()).isEqualTo(1);
        assertThat(result.toModelText()).isEqualTo("Error: command timed out after 1 s and was killed "
                + "(with its 1 child process); it printed nothing.");
        assertNoneRuns(children);
    }

    @Test
    void background_processes_still_running_after_a_normal_exit_are_killed() throws Exception {
        Path script = Processes.script(dir, "background.sh", ""
                + "/bin/sleep " + sleepSeconds(6) + " &\n"
                + "echo $! > pids\n"
                + "( /usr/bin/setsid /bin/sleep " + sleepSeconds(7) + " & echo $! >> pids )\n"
                + "echo done\n");

        CommandResult result = runner.runUnsandboxed(List.of(script.toString()), dir, Duration.ofSeconds(20), Map.of());

        List<Long> children = pids(2);
        assertThat(result.succeeded()).isTrue();
        assertThat(result.timedOut()).isFalse();
        assertThat(result.killedProcesses()).isEqualTo(2);
        assertThat(result.toModelText()).isEqualTo("done\n[note: 2 background processes were still running "
                + "when the command exited and were killed]");
        assertNoneRuns(children);
    }

    @Test
    void a_run_returns_even_when_an_escaped_process_holds_its_output_pipe() throws Exception {
        // Documented limitation: a process that clears its environment AND leaves the tree escapes the kill.
        // It still holds the command's stdout; the run must not wait for it. The pause makes sure the output
        // is being drained when the command exits (a blocked read() would hang here until the escapee ends).
        Path script = Processes.script(dir, "escape.sh", ""
                + "( /usr/bin/env -i /usr/bin/setsid /bin/sleep " + sleepSeconds(8) + " & echo $! > pids )\n"
                + "/bin/sleep 0.5\n"
                + "echo done\n");

        CommandResult result = runner.runUnsandboxed(List.of(script.toString()), dir, Duration.ofSeconds(20), Map.of());

        List<Long> escaped = pids(1);
        assertThat(result.succeeded()).isTrue();
        assertThat(result.stdout()).isEqualTo("done\n");
        assertThat(result.killedProcesses()).isZero();
        // the escapee sleeps for days and holds the pipe until it ends: the run returned without waiting for it
        assertThat(Processes.running(escaped.get(0))).as("the escapee, killed by this test").isTrue();
        assertThat(Processes.runnerThreads()).isEmpty();
    }

    @Test
    void an_interrupt_kills_the_tree_and_keeps_the_interrupt_flag() throws Exception {
        Path script = Processes.script(dir, "wait.sh", ""
                + "/bin/sleep " + sleepSeconds(9) + " &\n"
                + "echo $! > pids\n"
                + "exec /bin/sleep " + sleepSeconds(10) + "\n");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread caller = new Thread(() -> {
            try {
                runner.runUnsandboxed(List.of(script.toString()), dir, Duration.ofSeconds(60), Map.of());
            } catch (RuntimeException e) {
                thrown.set(e);
            }
            flagKept.set(Thread.currentThread().isInterrupted());
        }, "test-caller");
        caller.start();
        awaitFile(dir.resolve("pids"));

        caller.interrupt();
        caller.join(15_000);

        assertThat(caller.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(OperationFailedException.class)
                .hasMessage("Command '" + script + "' was interrupted before it finished and was killed "
                        + "(with its 1 child process).");
        assertThat(flagKept).isTrue();
        assertNoneRuns(pids(1));
        assertThat(Processes.runningWithArgv("/bin/sleep", sleepSeconds(10))).isEmpty();
    }

    @Test
    void an_already_interrupted_caller_starts_nothing() {
        Path marker = dir.resolve("ran");
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> runner.run(List.of("/usr/bin/touch", marker.toString()), dir))
                    .isInstanceOf(OperationFailedException.class)
                    .hasMessage("Command '/usr/bin/touch' was not started: the calling thread was interrupted.");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(marker).doesNotExist();
    }

    @Test
    void no_runner_thread_outlives_its_run() {
        runner.runUnsandboxed(List.of("/usr/bin/yes"), dir, Duration.ofMillis(300), Map.of());
        runner.runUnsandboxed(List.of("/bin/echo", "x"), dir, Duration.ofSeconds(30), Map.of());
        runner.run(List.of("/usr/bin/yes"), dir, Duration.ofMillis(300));
        runner.run(List.of("/bin/echo", "x"), dir);

        assertThat(Processes.runnerThreads()).isEmpty();
    }

    private List<Long> pids(int expected) throws IOException {
        List<Long> pids = Processes.pids(dir.resolve("pids"));
        started.addAll(pids);
        assertThat(pids).hasSize(expected);
        return pids;
    }

    private static void assertNoneRuns(List<Long> pids) throws InterruptedException {
        for (long pid : pids) {
            // the runner waited for them to die; the bound only absorbs a slow /proc on a loaded machine
            assertThat(Processes.awaitGone(pid, 2_000)).as("process %d still runs", pid).isTrue();
        }
    }

    private static void awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (!Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(100); // let the script finish writing the line
    }
}
