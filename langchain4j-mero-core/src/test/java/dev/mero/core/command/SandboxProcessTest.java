package dev.mero.core.command;

import dev.mero.core.OperationFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real processes in the sandbox: whatever a command leaves running (background children, a {@code setsid}
 * daemon, and the process that escaped the old {@code /proc} scan by clearing its environment and leaving the
 * tree) ends with the sandbox's PID namespace. Each fixture script waits, through the sandbox's own
 * {@code /proc}, until every child has become its {@code sleep}, so the children provably ran; the test then
 * looks for them on the host by their unique argument vectors.
 */
class SandboxProcessTest {

    /** Sleep lengths unique to this run, so that another build on the machine cannot be mistaken for ours. */
    private static final int SLEEP_BASE = 100_000 + new Random().nextInt(800_000);

    /** Starts three kinds of children and waits until each runs its sleep; {@code $1} offsets the lengths. */
    private static final String CHILDREN = ""
            + "running() { while ! /bin/grep -qs \"$2\" /proc/$1/cmdline; do :; done; }\n"
            + "/bin/sleep %1$d &\n"
            + "running $! %1$d\n"
            + "( /usr/bin/setsid /bin/sleep %2$d & echo $! > daemon.pid )\n"
            + "running $(cat daemon.pid) %2$d\n"
            + "( /usr/bin/env -i /usr/bin/setsid /bin/sleep %3$d & echo $! > escapee.pid )\n"
            + "running $(cat escapee.pid) %3$d\n"
            + "echo started\n";

    private final CommandRunner runner = CommandRunner.builder().build();

    @TempDir
    Path dir;

    @Test
    void every_process_a_command_leaves_behind_ends_with_the_command() throws Exception {
        int base = SLEEP_BASE;
        Path script = Processes.script(dir, "background.sh", String.format(CHILDREN, base + 1, base + 2, base + 3));

        CommandResult result = runner.run(List.of(script.toString()), dir, Duration.ofSeconds(60));

        assertThat(result.succeeded()).as(result.toModelText()).isTrue();
        assertThat(result.stdout()).isEqualTo("started\n");
        assertThat(result.killedProcesses()).isZero();
        assertThat(result.toModelText()).isEqualTo("started");
        assertNoneRuns(base + 1, base + 2, base + 3);
    }

    @Test
    void a_timeout_ends_the_command_and_everything_it_started() throws Exception {
        int base = SLEEP_BASE + 10;
        Path script = Processes.script(dir, "tree.sh", String.format(CHILDREN, base + 1, base + 2, base + 3)
                + "exec /bin/sleep " + (base + 4) + "\n");

        // generous: the children must be running before the timeout, also on a loaded machine
        CommandResult result = runner.run(List.of(script.toString()), dir, Duration.ofSeconds(8));

        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isIn(137, 143);
        assertThat(result.duration()).isGreaterThanOrEqualTo(Duration.ofSeconds(8));
        assertThat(result.toModelText()).isEqualTo("Error: command timed out after 8 s and was killed. Output "
                + "before the timeout:\nstarted");
        assertNoneRuns(base + 1, base + 2, base + 3, base + 4);
    }

    @Test
    void an_interrupt_ends_the_sandbox_and_keeps_the_interrupt_flag() throws Exception {
        int base = SLEEP_BASE + 20;
        Path script = Processes.script(dir, "wait.sh", String.format(CHILDREN, base + 1, base + 2, base + 3)
                + "echo > ready\n"
                + "exec /bin/sleep " + (base + 4) + "\n");
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean flagKept = new AtomicBoolean();
        Thread caller = new Thread(() -> {
            try {
                runner.run(List.of(script.toString()), dir, Duration.ofSeconds(120));
            } catch (RuntimeException e) {
                thrown.set(e);
            }
            flagKept.set(Thread.currentThread().isInterrupted());
        }, "test-caller");
        caller.start();
        awaitFile(dir.resolve("ready"));

        caller.interrupt();
        caller.join(30_000);

        assertThat(caller.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(OperationFailedException.class)
                .hasMessage("Command '" + script + "' was interrupted before it finished and was killed.");
        assertThat(flagKept).isTrue();
        assertNoneRuns(base + 1, base + 2, base + 3, base + 4);
    }

    @Test
    void ps_shows_only_the_sandbox_and_no_host_environment() {
        CommandResult result = runner.run(List.of("/usr/bin/ps", "eww", "-e", "-o", "pid=,args="), dir);

        assertThat(result.succeeded()).as(result.toModelText()).isTrue();
        List<String> lines = result.stdout().lines().map(String::strip).toList();
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).startsWith("1 /usr/bin/ps eww");
        assertThat(result.stdout()).doesNotContain("MERO_TEST_SECRET").doesNotContain("hunter2")
                .doesNotContain("MAVEN").doesNotContain("JAVA_HOME");
    }

    private static void assertNoneRuns(int... sleeps) throws InterruptedException {
        for (int sleep : sleeps) {
            long deadline = System.nanoTime() + 5_000_000_000L;
            // the run returned after the namespace ended; the bound only absorbs a slow /proc on a loaded machine
            while (!Processes.runningWithArgv("/bin/sleep", String.valueOf(sleep)).isEmpty()
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(Processes.runningWithArgv("/bin/sleep", String.valueOf(sleep)))
                    .as("sleep %d still runs", sleep).isEmpty();
        }
    }

    private static void awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(file).exists();
    }
}
