package dev.mero.core.command;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each limit of the sandbox hit by a real program, an allowed interpreter ({@code python3}) run inside the
 * sandbox with the policy's checks switched off: the run ends in an {@code Error:} naming the limit, within its
 * deadline, and leaves no process and no cgroup behind. The bombs are bounded in themselves (a fork bomb forks
 * at most 200 sleeping children, a memory bomb allocates at most 512 MiB), so that a failure of the limits
 * cannot harm the machine running the tests; the limits set here are far below those bounds.
 */
class SandboxLimitsEnforcementTest {

    private static final String PYTHON = "/usr/bin/python3";
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    /** Forks up to 200 children that sleep; exits 3 if a fork failed. */
    private static final String FORK_BOMB = """
            import os, sys, time
            failed = 0
            for i in range(200):
                try:
                    if os.fork() == 0:
                        time.sleep(120)
                        os._exit(0)
                except OSError:
                    failed += 1
            print("failed forks:", failed)
            sys.exit(3 if failed else 0)
            """;

    /** Allocates and touches up to 512 MiB in 8 MiB blocks. */
    private static final String MEMORY_BOMB = """
            blocks = []
            for i in range(64):
                blocks.append(b"x" * (8 << 20))
            print("allocated", len(blocks) * 8, "MiB")
            """;

    @TempDir
    Path dir;

    private final CommandRunner runner = CommandRunner.builder().build();
    private String token;

    @BeforeEach
    void setUp() {
        assumeTrue(Files.isExecutable(Path.of(PYTHON)), "python3 is needed to hit the limits");
        token = "mero-limit-test-" + UUID.randomUUID();
    }

    @Test
    void a_memory_bomb_is_killed_at_the_memory_limit() {
        assumeCgroups();
        CommandResult result = python(limits().memoryBytes(64L << 20), MEMORY_BOMB);

        assertThat(result.limitExceeded()).contains("memory limit (64 MiB)");
        assertThat(result.toModelText()).startsWith("Error: the command exceeded its memory limit (64 MiB).");
        assertThat(result.stdout()).doesNotContain("allocated");
        assertCleanedUp();
    }

    @Test
    void a_fork_bomb_stops_at_the_process_limit() {
        assumeCgroups();
        CommandResult result = python(limits().processes(16), FORK_BOMB);

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.toModelText()).startsWith("Error: the command exceeded its process limit (16 processes)."
                + " It exited with code 3.");
        assertCleanedUp();
    }

    @Test
    void a_cpu_spin_is_killed_at_the_cpu_time_limit_before_its_timeout() {
        CommandResult result = python(limits().cpuSeconds(1), "while True:\n    pass\n");

        assertThat(result.timedOut()).isFalse();
        assertThat(result.toModelText()).startsWith("Error: the command exceeded its CPU time limit (1 s).");
        assertCleanedUp();
    }

    @Test
    void a_file_larger_than_the_file_size_limit_is_not_written() {
        CommandResult result = python(limits().fileSizeBytes(1L << 20),
                "open('big', 'wb').write(b'x' * (4 << 20))\n");

        assertThat(result.toModelText()).startsWith("Error: the command exceeded its file size limit (1 MiB).");
        assertThat(dir.resolve("big")).satisfies(big -> assertThat(Files.size(big)).isLessThanOrEqualTo(1L << 20));
        assertCleanedUp();
    }

    @Test
    void tmp_fills_up_at_its_size() {
        CommandResult result = python(limits().tmpSizeBytes(1L << 20),
                "open('/tmp/fill', 'wb').write(b'x' * (4 << 20))\n");

        assertThat(result.toModelText()).startsWith("Error: the command exceeded its /tmp size limit (1 MiB).");
        assertCleanedUp();
    }

    @Test
    void a_run_within_its_limits_succeeds_and_mentions_none() {
        CommandResult result = python(limits().memoryBytes(256L << 20).processes(32), "print('fine')\n");

        assertThat(result.toModelText()).isEqualTo("fine");
        assertThat(result.limitExceeded()).isEmpty();
        assertCleanedUp();
    }

    @Test
    void a_run_that_never_starts_leaves_no_cgroup() {
        Thread.currentThread().interrupt();
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> python(limits(), "print('never')\n"))
                    .isInstanceOf(dev.mero.core.OperationFailedException.class)
                    .hasMessageContaining("was not started");
        } finally {
            Thread.interrupted();
        }
        assertCleanedUp();
    }

    @Test
    void eight_bombs_at_once_are_all_contained_and_the_jvm_stays_responsive() {
        assumeCgroups();
        SandboxLimits forks = limits().processes(16).build();
        SandboxLimits memory = limits().memoryBytes(64L << 20).build();
        assertTimeoutPreemptively(Duration.ofMinutes(4), () -> {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<CommandResult>> runs = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    boolean fork = i % 2 == 0;
                    runs.add(pool.submit(() -> python(fork ? forks : memory, fork ? FORK_BOMB : MEMORY_BOMB)));
                }
                // the host JVM answers while the bombs run
                assertThat(CompletableFuture.supplyAsync(() -> "alive").get(60, TimeUnit.SECONDS)).isEqualTo("alive");
                for (int i = 0; i < 8; i++) {
                    CommandResult result = runs.get(i).get();
                    assertThat(result.toModelText()).startsWith(i % 2 == 0
                            ? "Error: the command exceeded its process limit (16 processes)."
                            : "Error: the command exceeded its memory limit (64 MiB).");
                }
            } finally {
                pool.shutdownNow();
            }
        });
        assertCleanedUp();
    }

    private SandboxLimits.Builder limits() {
        return SandboxLimits.builder();
    }

    private CommandResult python(SandboxLimits.Builder limits, String code) {
        return python(limits.build(), code);
    }

    private CommandResult python(SandboxLimits limits, String code) {
        CommandSandbox sandbox = CommandSandbox.builder().limits(limits).build();
        return runner.runInSandbox(sandbox, SandboxView.directory(dir), dir.toString(),
                List.of(PYTHON, "-c", code, token), TIMEOUT);
    }

    private static void assumeCgroups() {
        assumeTrue(CgroupSupport.layout().isPresent(), "writable cgroup v1 memory and pids hierarchies");
    }

    /** No process of this test runs, no run cgroup is left, and this thread is back in the JVM's cgroups. */
    private void assertCleanedUp() {
        assertThat(ProcessHandle.allProcesses()
                .filter(process -> process.info().arguments().map(List::of).orElse(List.of()).contains(token)))
                .isEmpty();
        // only this JVM's run cgroups: other JVMs on the machine (PIT's minions beside this test under -T 2, another
        // build) make theirs in the same parents; the starter waits for the next run in fresh cgroups of its own,
        // which no run has used
        CgroupSupport.layout().ifPresent(layout -> assertThat(RunCgroup.madeAndStillThere())
                .isSubsetOf(RunStarter.of(layout).standbyDirectories()));
        try {
            assertThat(Files.readString(Path.of("/proc/thread-self/cgroup"))).doesNotContain("mero-");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
