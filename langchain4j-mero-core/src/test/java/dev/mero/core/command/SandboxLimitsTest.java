package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidPolicyException;
import dev.mero.core.policy.SecurityPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The limits as values, as policy keys and as a plan for this machine: defaults, validation, the policy loader's
 * strictness, which limits a machine without cgroups or {@code prlimit} cannot enforce (a configured one refuses
 * the run unless best effort is allowed), the {@code prlimit} and {@code flock} launchers in front of
 * {@code bwrap}, and how a result names the limit it hit.
 */
class SandboxLimitsTest {

    private static final CgroupSupport.Layout LAYOUT = new CgroupSupport.Layout(Path.of("/cg/memory/jvm"),
            Path.of("/cg/pids/jvm"));
    private static final Optional<Path> PRLIMIT = Optional.of(Path.of("/usr/bin/prlimit"));

    @TempDir
    Path tmp;

    @Test
    void the_defaults_leave_room_for_builds() {
        SandboxLimits limits = SandboxLimits.defaults();

        assertThat(limits.processes()).isEqualTo(512);
        assertThat(limits.memoryBytes()).isEqualTo(2L << 30);
        assertThat(limits.fileSizeBytes()).isEqualTo(1L << 30);
        assertThat(limits.tmpSizeBytes()).isEqualTo(512L << 20);
        assertThat(limits.cpuSeconds()).isEqualTo(600);
        assertThat(limits.bestEffort()).isFalse();
        assertThat(CommandSandbox.required().limits()).isEqualTo(limits);
        for (SandboxLimits.Kind kind : SandboxLimits.Kind.values()) {
            assertThat(limits.configured(kind)).isFalse();
        }
        assertThat(limits).hasToString("SandboxLimits{processes=512, memory=2 GiB, fileSize=1 GiB, "
                + "tmpSize=512 MiB, cpuSeconds=600}");
    }

    @Test
    void set_limits_are_remembered_as_configured_and_described() {
        SandboxLimits limits = SandboxLimits.builder().processes(1).memoryBytes(3L << 20).fileSizeBytes(1000)
                .tmpSizeBytes(5L << 30).cpuSeconds(7).bestEffort(true).build();

        assertThat(limits.describe(SandboxLimits.Kind.PROCESSES)).isEqualTo("1 process");
        assertThat(SandboxLimits.builder().processes(2).build().describe(SandboxLimits.Kind.PROCESSES))
                .isEqualTo("2 processes");
        assertThat(limits.describe(SandboxLimits.Kind.MEMORY)).isEqualTo("3 MiB");
        assertThat(limits.describe(SandboxLimits.Kind.FILE_SIZE)).isEqualTo("1000 bytes");
        assertThat(limits.describe(SandboxLimits.Kind.TMP_SIZE)).isEqualTo("5 GiB");
        assertThat(limits.describe(SandboxLimits.Kind.CPU_SECONDS)).isEqualTo("7 s");
        for (SandboxLimits.Kind kind : SandboxLimits.Kind.values()) {
            assertThat(limits.configured(kind)).as(kind.name()).isTrue();
        }
        assertThat(limits).hasToString("SandboxLimits{processes=1, memory=3 MiB, fileSize=1000 bytes, "
                + "tmpSize=5 GiB, cpuSeconds=7, bestEffort}");
        assertThat(limits).isEqualTo(SandboxLimits.builder().processes(1).memoryBytes(3L << 20).fileSizeBytes(1000)
                .tmpSizeBytes(5L << 30).cpuSeconds(7).bestEffort(true).build())
                .hasSameHashCodeAs(SandboxLimits.builder().processes(1).memoryBytes(3L << 20).fileSizeBytes(1000)
                        .tmpSizeBytes(5L << 30).cpuSeconds(7).bestEffort(true).build())
                .isNotEqualTo(SandboxLimits.defaults());
        assertThat(limits.hashCode()).isNotEqualTo(SandboxLimits.defaults().hashCode());
        // the same value set explicitly is not the default: it fails closed where it cannot be enforced
        assertThat(SandboxLimits.builder().processes(512).build()).isNotEqualTo(SandboxLimits.defaults());
        assertThat(ByteSize.format(1536L << 10)).isEqualTo("1536 KiB");
        assertThat(ByteSize.format(1L << 40)).isEqualTo("1 TiB");
        assertThat(ByteSize.format(0)).isEqualTo("0 bytes");
    }

    @Test
    void limits_out_of_range_are_refused() {
        assertThatThrownBy(() -> SandboxLimits.builder().processes(0)).hasMessageContaining("processes");
        assertThatThrownBy(() -> SandboxLimits.builder().cpuSeconds(-1)).hasMessageContaining("cpu_seconds");
        assertThatThrownBy(() -> SandboxLimits.builder().fileSizeBytes(0)).hasMessageContaining("file_size");
        assertThatThrownBy(() -> SandboxLimits.builder().memoryBytes((1L << 20) - 1))
                .hasMessageContaining("memory must be at least 1 MiB");
        assertThatThrownBy(() -> SandboxLimits.builder().tmpSizeBytes(1000)).hasMessageContaining("tmp_size");
        assertThat(SandboxLimits.builder().memoryBytes(1L << 20).tmpSizeBytes(1L << 20).fileSizeBytes(1)
                .processes(1).cpuSeconds(1).build().memoryBytes()).isEqualTo(1L << 20);
        assertThatThrownBy(() -> CommandSandbox.builder().limits(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void the_policy_file_sets_the_limits_strictly() throws IOException {
        String paths = "paths:\n  - {path: ws, slug: ws, allow: [READ, EXECUTE]}\n";
        Files.createDirectories(tmp.resolve("ws"));
        Path file = write("limits.yaml", paths + "commands:\n  sandbox:\n    limits:\n      processes: 64\n"
                + "      memory: 512MiB\n      file_size: 1048576\n      tmp_size: 2 GiB\n      cpu_seconds: 30\n"
                + "      best_effort: true\n");

        assertThat(SecurityPolicy.load(file).commandSandbox().limits()).isEqualTo(SandboxLimits.builder()
                .processes(64).memoryBytes(512L << 20).fileSizeBytes(1L << 20).tmpSizeBytes(2L << 30).cpuSeconds(30)
                .bestEffort(true).build());
        assertThat(SecurityPolicy.load(write("kib.yaml", paths + "commands:\n  sandbox:\n    limits: "
                + "{file_size: 64KiB, memory: 1TiB}\n")).commandSandbox().limits().memoryBytes()).isEqualTo(1L << 40);
        for (String broken : List.of("{process: 5}", "{processes: 0}", "{memory: 1GB}", "{memory: 2g}",
                "{memory: -5}", "{memory: 0MiB}", "{memory: 100}", "{tmp_size: [1]}", "{cpu_seconds: '5'}",
                "{best_effort: maybe}", "{file_size: 99999999999TiB}", "5")) {
            Path bad = write("bad.yaml", paths + "commands:\n  sandbox:\n    limits: " + broken + "\n");
            assertThatThrownBy(() -> SecurityPolicy.load(bad)).as(broken)
                    .isInstanceOf(InvalidPolicyException.class)
                    .hasMessageContaining("commands.sandbox.limits");
        }
    }

    @Test
    void a_machine_with_cgroups_and_prlimit_enforces_everything() {
        LimitEnforcement plan = LimitEnforcement.plan(SandboxLimits.builder().processes(8).build(),
                Optional.of(LAYOUT), PRLIMIT, "make");

        for (SandboxLimits.Kind kind : SandboxLimits.Kind.values()) {
            assertThat(plan.enforced(kind)).as(kind.name()).isTrue();
        }
        assertThat(plan.cgroups()).contains(LAYOUT);
        assertThat(plan.wrap(List.of("/usr/bin/bwrap", "--"), Optional.of(List.of(Path.of("/usr/bin/flock"),
                Path.of("/tmp/f.bpf"))))).containsExactly("/usr/bin/prlimit", "--core=0", "--fsize=1073741824",
                "--cpu=600:601", "--", "/usr/bin/flock", "--shared", "--no-fork", "/tmp/f.bpf", "/usr/bin/bwrap", "--");
    }

    @Test
    void without_cgroups_a_configured_process_limit_refuses_unless_best_effort() {
        SandboxLimits configured = SandboxLimits.builder().processes(8).build();

        assertThatThrownBy(() -> LimitEnforcement.plan(configured, Optional.empty(), PRLIMIT, "make"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'make' was not run: the command sandbox cannot enforce its process limit "
                        + "(8 processes) on this machine. No command can run here; use the file tools instead.");
        LimitEnforcement lenient = LimitEnforcement.plan(SandboxLimits.builder().processes(8).bestEffort(true)
                .build(), Optional.empty(), PRLIMIT, "make");
        assertThat(lenient.enforced(SandboxLimits.Kind.PROCESSES)).isFalse();
        assertThat(lenient.enforced(SandboxLimits.Kind.MEMORY)).isFalse();
        // defaults that cannot be enforced are logged, not refused
        LimitEnforcement defaults = LimitEnforcement.plan(SandboxLimits.defaults(), Optional.empty(), PRLIMIT, "ls");
        assertThat(defaults.enforced(SandboxLimits.Kind.PROCESSES)).isFalse();
        assertThat(defaults.enforced(SandboxLimits.Kind.CPU_SECONDS)).isTrue();
        assertThat(defaults.wrap(List.of("bwrap"), Optional.empty())).doesNotContain("--as=2147483648");
    }

    @Test
    void a_sandbox_whose_configured_limits_cannot_be_enforced_is_not_available() {
        CommandSandbox strict = CommandSandbox.builder().limits(SandboxLimits.builder().processes(8).build()).build();
        CommandSandbox lenient = CommandSandbox.builder()
                .limits(SandboxLimits.builder().processes(8).bestEffort(true).build()).build();

        assertThat(strict.limitsEnforceable(Optional.empty(), PRLIMIT)).isFalse();
        assertThat(strict.limitsEnforceable(Optional.of(LAYOUT), PRLIMIT)).isTrue();
        assertThat(lenient.limitsEnforceable(Optional.empty(), Optional.empty())).isTrue();
        assertThat(CommandSandbox.required().limitsEnforceable(Optional.empty(), Optional.empty())).isTrue();
        // this machine (root, cgroup v1) enforces them: the sandbox is available and the guard passes
        if (CgroupSupport.layout().isPresent() && LimitEnforcement.findPrlimit().isPresent()) {
            assertThat(strict.available()).isTrue();
            strict.requireAvailable("ls");
        }
    }

    @Test
    void without_cgroups_a_configured_memory_limit_becomes_an_address_space_limit() {
        LimitEnforcement plan = LimitEnforcement.plan(SandboxLimits.builder().memoryBytes(256L << 20).build(),
                Optional.empty(), PRLIMIT, "ls");

        assertThat(plan.enforced(SandboxLimits.Kind.MEMORY)).isTrue();
        assertThat(plan.wrap(List.of("bwrap"), Optional.empty())).containsExactly("/usr/bin/prlimit", "--core=0",
                "--fsize=1073741824", "--cpu=600:601", "--as=268435456", "--", "bwrap");
    }

    @Test
    void without_prlimit_file_size_and_cpu_cannot_be_enforced() {
        assertThatThrownBy(() -> LimitEnforcement.plan(SandboxLimits.builder().cpuSeconds(5).build(),
                Optional.of(LAYOUT), Optional.empty(), "ls"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("CPU time limit (5 s)");
        assertThatThrownBy(() -> LimitEnforcement.plan(SandboxLimits.builder().fileSizeBytes(5).build(),
                Optional.of(LAYOUT), Optional.empty(), "ls"))
                .hasMessageContaining("file size limit (5 bytes)");
        assertThatThrownBy(() -> LimitEnforcement.plan(SandboxLimits.builder().memoryBytes(5L << 20).build(),
                Optional.empty(), Optional.empty(), "ls"))
                .hasMessageContaining("memory limit (5 MiB)");
        LimitEnforcement plan = LimitEnforcement.plan(SandboxLimits.defaults(), Optional.of(LAYOUT),
                Optional.empty(), "ls");
        assertThat(plan.enforced(SandboxLimits.Kind.FILE_SIZE)).isFalse();
        assertThat(plan.enforced(SandboxLimits.Kind.CPU_SECONDS)).isFalse();
        assertThat(plan.enforced(SandboxLimits.Kind.MEMORY)).isTrue();
        assertThat(plan.enforced(SandboxLimits.Kind.TMP_SIZE)).isTrue();
        assertThat(plan.wrap(List.of("bwrap"), Optional.empty())).containsExactly("bwrap");
    }

    @Test
    void a_result_that_hit_a_limit_says_which() {
        CommandResult.Builder result = CommandResult.builder().argv(List.of("/usr/bin/python3")).exitCode(137)
                .timeout(Duration.ofSeconds(30)).limitExceeded("memory limit (1 GiB)");

        assertThat(result.build().toModelText()).isEqualTo("Error: the command exceeded its memory limit (1 GiB). "
                + "It exited with code 137. It printed nothing.");
        assertThat(result.stdout("partial\n", false, 8).build().toModelText()).isEqualTo("Error: the command "
                + "exceeded its memory limit (1 GiB). It exited with code 137. Output:\npartial");
        assertThat(result.timedOut(true).build().toModelText()).startsWith("Error: the command exceeded its "
                + "memory limit (1 GiB). It was killed at its timeout of 30 s.");
        assertThat(result.build().limitExceeded()).contains("memory limit (1 GiB)");
        assertThat(result.build().withOutput(String::toUpperCase).limitExceeded()).contains("memory limit (1 GiB)");
        assertThat(result.build()).isNotEqualTo(result.limitExceeded(null).build());
        assertThat(result.limitExceeded("x").build().toString()).contains("limitExceeded=x");
        // a success mentions no limit, even if one was touched on the way
        assertThat(CommandResult.builder().argv(List.of("/bin/true")).limitExceeded("process limit (8 processes)")
                .build().toModelText()).isEqualTo("(no output)");
    }

    @Test
    void cgroup_detection_reads_the_v1_hierarchies_of_this_process() throws IOException {
        Path root = tmp.resolve("cg");
        Path memory = Files.createDirectories(root.resolve("memory/app/jvm"));
        Path pids = Files.createDirectories(root.resolve("pids"));
        Files.createFile(memory.resolve("cgroup.procs"));
        Files.createFile(pids.resolve("cgroup.procs"));
        String mounts = "31 23 0:28 / " + root + " rw - tmpfs tmpfs rw\n"
                + "35 31 0:32 / " + root.resolve("memory") + " rw,relatime - cgroup cgroup rw,memory\n"
                + "39 31 0:36 / " + root.resolve("pids") + " rw,relatime - cgroup cgroup rw,pids\n"
                + "41 31 0:38 / " + root.resolve("unified") + " rw - cgroup2 cgroup2 rw\n";
        Path mountInfo = write("mountinfo", mounts);
        Path own = write("cgroup", "8:pids:/\n4:memory:/app/jvm\n1:cpu,cpuacct:/\n0::/\n");

        assertThat(CgroupSupport.detect(mountInfo, own)).contains(new CgroupSupport.Layout(memory, pids));
        // no pids hierarchy, an unknown own path, a mount root that does not hold the own path, unreadable files
        assertThat(CgroupSupport.detect(write("m2", mounts.replace("rw,pids", "rw,freezer")), own)).isEmpty();
        assertThat(CgroupSupport.detect(mountInfo, write("c2", "4:memory:/app/jvm\n"))).isEmpty();
        assertThat(CgroupSupport.detect(write("m3", mounts.replace("0:32 / ", "0:32 /other ")), own)).isEmpty();
        assertThat(CgroupSupport.detect(mountInfo, tmp.resolve("absent"))).isEmpty();
        assertThat(CgroupSupport.detect(write("m4", "garbage\n1 2 3 - x\n" + mounts), own)).isPresent();
        // a mount whose root is a parent of the own path shows it below the mount point
        Path nested = write("m5", mounts.replace("0:32 / " + root.resolve("memory"),
                "0:32 /app " + root.resolve("memory/app")));
        assertThat(CgroupSupport.detect(nested, own)).contains(new CgroupSupport.Layout(memory, pids));
        Files.delete(pids.resolve("cgroup.procs"));
        assertThat(CgroupSupport.detect(mountInfo, own)).isEmpty();
    }

    @Test
    void cgroup_counters_are_read_by_name() throws IOException {
        Path events = write("events", "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n");

        assertThat(RunCgroup.counter(events, "oom_kill")).isEqualTo(3);
        assertThat(RunCgroup.counter(events, "max")).isZero();
        assertThat(RunCgroup.counter(write("bad", "oom_kill many\n"), "oom_kill")).isZero();
        assertThat(RunCgroup.counter(tmp.resolve("absent"), "oom_kill")).isZero();
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(tmp.resolve(name), text);
    }
}
