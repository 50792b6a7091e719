package dev.mero.core.command;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The starter of sandboxed runs: processes are born in their run's cgroups, which no JVM thread stays in, a run's
 * cgroups are removed even while a process of the run is still in them (it is killed), and the sweep at start
 * removes only empty, old cgroups named as the runtime names them.
 */
class RunStarterTest {

    private static final SandboxLimits LIMITS = SandboxLimits.builder().processes(8).memoryBytes(64L << 20).build();

    @TempDir
    Path dir;

    @Test
    void the_sweep_removes_only_old_empty_cgroups_named_as_runs_are() throws IOException {
        Instant old = Instant.now().minus(Duration.ofMinutes(5));
        Path leaked = directory("mero-" + UUID.randomUUID(), old);
        Path young = directory("mero-" + UUID.randomUUID(), Instant.now());
        Path busy = directory("mero-" + UUID.randomUUID(), old);
        Files.writeString(busy.resolve("tasks"), "1234\n"); // a directory that holds something cannot go
        setTime(busy, old);
        Path foreign = directory("mero-limit-test-" + UUID.randomUUID(), old);
        Path other = directory("system.slice", old);

        assertThat(RunStarter.sweep(dir, RunStarter.SWEEP_MIN_AGE)).isEqualTo(1);

        assertThat(leaked).doesNotExist();
        assertThat(young).isDirectory();
        assertThat(busy).isDirectory();
        assertThat(foreign).isDirectory();
        assertThat(other).isDirectory();
        assertThat(RunStarter.sweep(dir.resolve("absent"), RunStarter.SWEEP_MIN_AGE)).isZero();
    }

    @Test
    void a_process_is_born_in_its_runs_cgroups_and_no_jvm_thread_stays_there() throws Exception {
        CgroupSupport.Layout layout = layout();
        RunStarter.Started started = RunStarter.of(layout).start(sleep(), LIMITS);
        RunCgroup cgroup = started.cgroup();
        try {
            assertThat(cgroup.holds(started.process().pid())).isTrue();
            assertThat(Files.readString(cgroup.directories().get(1).resolve("pids.max")).strip()).isEqualTo("8");
            assertThat(Files.readString(cgroup.directories().get(0).resolve("memory.limit_in_bytes")).strip())
                    .isEqualTo(Long.toString(64L << 20));
            assertThat(RunStarter.of(layout).standbyDirectories()).doesNotContainAnyElementsOf(cgroup.directories());
        } finally {
            cgroup.close(); // the process is still in it: killed, then the cgroups go
        }
        assertThat(started.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        for (Path directory : cgroup.directories()) {
            assertThat(directory).doesNotExist();
        }
        assertThat(Files.readString(Path.of("/proc/thread-self/cgroup"))).doesNotContain("mero-");
    }

    @Test
    void a_process_that_cannot_start_leaves_no_run_cgroup() throws Exception {
        CgroupSupport.Layout layout = layout();
        RunStarter starter = RunStarter.of(layout);
        Set<Path> before = runCgroups(layout);

        assertThatThrownBy(() -> starter.start(new ProcessBuilder(dir.resolve("missing").toString()), LIMITS))
                .isInstanceOf(IOException.class);

        Set<Path> after = runCgroups(layout);
        after.removeAll(starter.standbyDirectories());
        assertThat(after).isSubsetOf(before);
    }

    @Test
    void the_starter_waits_for_the_next_run_in_cgroups_of_its_own() throws Exception {
        CgroupSupport.Layout layout = layout();
        RunStarter starter = RunStarter.of(layout);
        RunStarter.Started started = starter.start(new ProcessBuilder("/usr/bin/true"), LIMITS);
        started.cgroup().close();
        List<Path> standby = starter.standbyDirectories();
        assertThat(standby).hasSize(2).doesNotContainAnyElementsOf(started.cgroup().directories());
        for (Path directory : standby) {
            // a thread of this JVM waits there: another JVM's sweep cannot remove them
            assertThat(Files.readAllLines(directory.resolve("tasks"))).isNotEmpty();
        }
    }

    private ProcessBuilder sleep() {
        return new ProcessBuilder("/usr/bin/sleep", "60").redirectOutput(ProcessBuilder.Redirect.DISCARD);
    }

    private static CgroupSupport.Layout layout() {
        assumeTrue(CgroupSupport.layout().isPresent(), "writable cgroup v1 memory and pids hierarchies");
        return CgroupSupport.layout().get();
    }

    private static Set<Path> runCgroups(CgroupSupport.Layout layout) throws IOException {
        Set<Path> all = new HashSet<>();
        for (Path parent : List.of(layout.memoryParent(), layout.pidsParent())) {
            try (Stream<Path> children = Files.list(parent)) {
                children.filter(child -> RunStarter.RUN_CGROUP_NAME.matcher(child.getFileName().toString()).matches())
                        .forEach(all::add);
            }
        }
        return all;
    }

    private Path directory(String name, Instant time) throws IOException {
        Path directory = Files.createDirectory(dir.resolve(name));
        setTime(directory, time);
        return directory;
    }

    private static void setTime(Path path, Instant time) throws IOException {
        Files.setLastModifiedTime(path, FileTime.from(time));
    }
}
