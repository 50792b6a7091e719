package dev.mero.core.command;

import dev.mero.core.InvalidInputException;
import dev.mero.core.OperationFailedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

class CommandRunnerTest {

    private static final String SECRET = "MERO_TEST_SECRET";

    private final CommandRunner runner = CommandRunner.builder().build();

    @TempDir
    Path dir;

    @Test
    void runs_a_program_and_captures_its_output() {
        CommandResult result = runner.run(List.of("/bin/echo", "hello", "world"), dir);

        assertThat(result.exitCode()).isZero();
        assertThat(result.succeeded()).isTrue();
        assertThat(result.timedOut()).isFalse();
        assertThat(result.stdout()).isEqualTo("hello world\n");
        assertThat(result.stderr()).isEmpty();
        assertThat(result.stdoutTruncated()).isFalse();
        assertThat(result.stdoutBytes()).isEqualTo(12);
        assertThat(result.killedProcesses()).isZero();
        assertThat(result.argv()).containsExactly("/bin/echo", "hello", "world");
        assertThat(result.timeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(result.duration()).isPositive().isLessThanOrEqualTo(result.timeout());
        assertThat(result.toModelText()).isEqualTo("hello world");
    }

    @Test
    void passes_arguments_verbatim_because_no_shell_is_involved() {
        CommandResult result = runner.run(List.of("/usr/bin/printf", "%s|",
                "$HOME", "a;b", "`id`", "$(touch pwned)", "*", "x > out", "'q'"), dir);

        assertThat(result.stdout()).isEqualTo("$HOME|a;b|`id`|$(touch pwned)|*|x > out|'q'|");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void reports_a_non_zero_exit_as_an_ordinary_failure_with_its_output() throws Exception {
        Path script = Processes.script(dir, "fail.sh", "echo out\necho err >&2\nexit 3\n");

        CommandResult result = runner.run(List.of(script.toString()), dir);

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.succeeded()).isFalse();
        assertThat(result.stdout()).isEqualTo("out\n");
        assertThat(result.stderr()).isEqualTo("err\n");
        assertThat(result.toModelText()).isEqualTo("Error: command exited with code 3. Output:\nout\n[stderr]\nerr");
        assertThatThrownBy(result::orThrow)
                .isInstanceOfSatisfying(OperationFailedException.class, e -> {
                    assertThat(e.isDenial()).isFalse();
                    assertThat(e.errorCode()).isEqualTo("operation_failed");
                    assertThat(e.getMessage()).isEqualTo("command exited with code 3. Output:\nout\n[stderr]\nerr");
                    assertThat(e.toModelText()).isEqualTo(result.toModelText());
                });
    }

    @Test
    void renders_a_silent_failure_and_a_silent_success() {
        assertThat(runner.run(List.of("/bin/false"), dir).toModelText())
                .isEqualTo("Error: command exited with code 1 and printed nothing.");
        CommandResult success = runner.run(List.of("/bin/true"), dir);
        assertThat(success.toModelText()).isEqualTo("(no output)");
        assertThat(success.orThrow()).isSameAs(success);
    }

    @Test
    void reads_end_of_file_on_standard_input() {
        CommandResult result = runner.run(List.of("/bin/cat"), dir, Duration.ofSeconds(10));

        assertThat(result.timedOut()).isFalse();
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).isEmpty();
    }

    @Test
    void runs_in_the_given_working_directory() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("sub dir"));

        CommandResult result = runner.run(List.of("/bin/pwd"), sub);

        assertThat(result.stdout()).isEqualTo(sub.toRealPath() + "\n");
    }

    @Test
    void passes_only_allowlisted_variables_so_the_jvm_secret_stays_hidden() {
        CommandResult result = runner.run(List.of("/usr/bin/env"), dir);

        Set<String> names = variableNames(result.stdout());
        Set<String> expected = new HashSet<>(CommandRunner.DEFAULT_ENVIRONMENT);
        expected.retainAll(System.getenv().keySet());
        expected.add("PWD"); // bubblewrap's --chdir sets it to the sandbox's working directory
        expected.add("HOME"); // the sandbox's private /tmp: the JVM's home is a host path it does not show
        assertThat(names).isEqualTo(expected);
        assertThat(result.stdout()).contains("PWD=" + dir + "\n").contains("HOME=/tmp\n");
        for (String jvmVariable : System.getenv().keySet()) {
            if (!CommandRunner.DEFAULT_ENVIRONMENT.contains(jvmVariable) && !jvmVariable.equals("PWD")) {
                assertThat(names).doesNotContain(jvmVariable);
            }
        }
    }

    @Test
    void without_the_sandbox_passes_only_allowlisted_variables_and_the_run_marker() {
        CommandResult result = runner.runUnsandboxed(List.of("/usr/bin/env"), dir, Duration.ofSeconds(30), Map.of());

        Set<String> names = variableNames(result.stdout());
        Set<String> expected = new HashSet<>(CommandRunner.DEFAULT_ENVIRONMENT);
        expected.retainAll(System.getenv().keySet());
        expected.add("MERO_RUN_ID");
        assertThat(names).isEqualTo(expected);
        assertThat(result.stdout()).containsPattern("(?m)^MERO_RUN_ID=[0-9a-f-]{36}$");
    }

    @Test
    void a_real_secret_in_the_jvm_environment_never_reaches_the_child() {
        assumeThat(System.getenv(SECRET)).as("surefire sets " + SECRET).isNotNull();

        CommandResult result = runner.run(List.of("/usr/bin/env"), dir);

        assertThat(result.stdout()).doesNotContain(SECRET).doesNotContain(System.getenv(SECRET));
    }

    @Test
    void passes_an_allowed_variable_only_when_the_jvm_has_it() {
        assumeThat(System.getenv(SECRET)).as("surefire sets " + SECRET).isNotNull();
        CommandRunner allowing = CommandRunner.builder().allowEnvironment(SECRET, "MERO_SURELY_ABSENT_VAR").build();

        CommandResult result = allowing.run(List.of("/usr/bin/env"), dir);

        assertThat(result.stdout()).contains(SECRET + "=" + System.getenv(SECRET) + "\n");
        assertThat(variableNames(result.stdout())).doesNotContain("MERO_SURELY_ABSENT_VAR");
        assertThat(allowing.allowedEnvironment())
                .containsExactly("PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ", SECRET, "MERO_SURELY_ABSENT_VAR");
    }

    @Test
    void fixed_values_override_inherited_ones() {
        CommandRunner fixed = CommandRunner.builder()
                .environment("PATH", "/fixed/bin")
                .environment("MERO_MODE", "a b=c")
                .build();

        CommandResult result = fixed.run(List.of("/usr/bin/env"), dir);

        assertThat(result.stdout()).contains("PATH=/fixed/bin\n").contains("MERO_MODE=a b=c\n");
        assertThat(result.stdout().lines().filter(line -> line.startsWith("PATH="))).hasSize(1);
    }

    @Test
    void refuses_a_file_that_the_jdk_would_hand_to_a_shell() throws Exception {
        Path noShebang = dir.resolve("no-shebang");
        Files.writeString(noShebang, "touch pwned\n");
        Files.setPosixFilePermissions(noShebang, PosixFilePermissions.fromString("rwx------"));

        assertThatThrownBy(() -> runner.run(List.of(noShebang.toString()), dir))
                .isInstanceOf(OperationFailedException.class)
                .hasMessage("Program '" + noShebang + "' is neither a compiled executable nor a script starting "
                        + "with '#!'; nothing was run, because commands are never handed to a shell. "
                        + "Add a '#!' line naming the interpreter.");
        assertThat(dir.resolve("pwned")).doesNotExist();
    }

    @Test
    void reports_a_missing_or_non_executable_program_as_an_ordinary_failure() throws Exception {
        Path missing = dir.resolve("missing");
        Path plain = Files.writeString(dir.resolve("plain.sh"), "#!/bin/sh\necho hi\n");

        assertThatThrownBy(() -> runner.run(List.of(missing.toString()), dir))
                .isInstanceOfSatisfying(OperationFailedException.class, e -> assertThat(e.isDenial()).isFalse())
                .hasMessage("Program '" + missing + "' does not exist or is not a regular file; nothing was run.");
        assertThatThrownBy(() -> runner.run(List.of(plain.toString()), dir))
                .isInstanceOf(OperationFailedException.class)
                .hasMessage("Program '" + plain + "' is not executable; nothing was run.");
        assertThatThrownBy(() -> runner.run(List.of(dir.toString()), dir))
                .isInstanceOf(OperationFailedException.class)
                .hasMessage("Program '" + dir + "' does not exist or is not a regular file; nothing was run.");
    }

    @Test
    void reports_a_program_the_kernel_cannot_start_as_a_failed_run_inside_the_sandbox() throws Exception {
        Path badInterpreter = Processes.script(dir, "bad.sh", "");
        Files.writeString(badInterpreter, "#!/nonexistent/interpreter\n");

        CommandResult result = runner.run(List.of(badInterpreter.toString()), dir);

        assertThat(result.succeeded()).isFalse();
        assertThat(result.stderr()).contains(badInterpreter.toString()).contains("No such file or directory");
    }

    @Test
    void without_the_sandbox_reports_a_program_the_kernel_cannot_start() throws Exception {
        Path badInterpreter = Processes.script(dir, "bad.sh", "");
        Files.writeString(badInterpreter, "#!/nonexistent/interpreter\n");

        assertThatThrownBy(() -> runner.runUnsandboxed(List.of(badInterpreter.toString()), dir, Duration.ofSeconds(5), Map.of()))
                .isInstanceOf(OperationFailedException.class)
                .hasMessage("Command '" + badInterpreter + "' could not be started: "
                        + "error=2, No such file or directory.");
    }

    @Test
    void validates_the_argument_vector() {
        assertThatThrownBy(() -> runner.run(List.of(), dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("argv must hold at least the program, got []");
        assertThatThrownBy(() -> runner.run(null, dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("argv must hold at least the program, got null");
        assertThatThrownBy(() -> runner.run(Arrays.asList("/bin/echo", null), dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("argv[1] is null in [/bin/echo, null]");
        assertThatThrownBy(() -> runner.run(List.of("/bin/echo", "a\0b"), dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("argv[1] 'a\\x00b' contains a NUL character");
        assertThatThrownBy(() -> runner.run(List.of("echo", "hi"), dir))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Program 'echo' must be an absolute path, resolved by the command policy");
    }

    @Test
    void validates_the_working_directory() throws Exception {
        Path file = Files.writeString(dir.resolve("file"), "x");

        for (Path bad : List.of(dir.resolve("missing"), file, Path.of("relative"))) {
            assertThatThrownBy(() -> runner.run(List.of("/bin/true"), bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Working directory '" + bad + "' must be an existing absolute directory");
        }
        assertThatThrownBy(() -> runner.run(List.of("/bin/true"), null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Working directory None must be an existing absolute directory");
    }

    @Test
    void a_program_in_a_parent_of_the_working_directory_does_not_hide_the_working_directory() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path script = Processes.script(dir, "write.sh", "echo written > out.txt && cat out.txt\n");

        CommandResult result = runner.run(List.of(script.toString()), sub);

        assertThat(result.stdout()).as(result.toModelText()).isEqualTo("written\n");
        assertThat(sub.resolve("out.txt")).hasContent("written\n");
    }

    @Test
    void refuses_a_working_directory_that_would_hide_part_of_the_sandboxs_system() {
        for (String directory : List.of("/", "/usr", "/tmp", "/etc", "/proc", "/dev")) {
            assertThatThrownBy(() -> runner.run(List.of("/bin/true"), Path.of(directory)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + directory + "' cannot be mounted into the command sandbox");
        }
        assertThat(runner.run(List.of("/bin/true"), dir).succeeded()).isTrue();
    }

    @Test
    void refuses_a_timeout_above_the_maximum_instead_of_shortening_it() {
        CommandRunner capped = CommandRunner.builder().maxTimeout(Duration.ofSeconds(60)).build();

        assertThatThrownBy(() -> capped.run(List.of("/bin/true"), dir, Duration.ofSeconds(61)))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.isDenial()).isFalse())
                .hasMessage("Timeout 61 s is above the maximum of 60 s: ask for at most 60 s.");
        assertThatThrownBy(() -> capped.run(List.of("/bin/true"), dir, Duration.ZERO))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Timeout 0 s is too short: ask for a timeout between 0.001 s and 60 s.");
        assertThatThrownBy(() -> capped.run(List.of("/bin/true"), dir, Duration.ofMillis(-1500)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Timeout -1.5 s is too short: ask for a timeout between 0.001 s and 60 s.");
        assertThatThrownBy(() -> capped.run(List.of("/bin/true"), dir, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout must not be null; use run(argv, directory) for the default");
        assertThat(capped.run(List.of("/bin/true"), dir, Duration.ofSeconds(60)).succeeded()).isTrue();
    }

    @Test
    void builds_with_documented_defaults() {
        assertThat(runner.defaultTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(runner.maxTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(runner.outputLimitBytes()).isEqualTo(64 * 1024);
        assertThat(runner.allowedEnvironment()).containsExactly("PATH", "HOME", "LANG", "LC_ALL", "TERM", "TZ");
        assertThat(runner.fixedEnvironment()).isEmpty();
        assertThat(runner.killGracePeriod()).isEqualTo(Duration.ofMillis(200));
        assertThat(runner).hasToString("CommandRunner{defaultTimeout=30 s, maxTimeout=300 s, "
                + "outputLimitBytes=65536, allowedEnvironment=[PATH, HOME, LANG, LC_ALL, TERM, TZ], "
                + "fixedEnvironment=[]}");
    }

    @Test
    void rejects_invalid_builder_settings_naming_the_value() {
        assertThatThrownBy(() -> CommandRunner.builder().defaultTimeout(Duration.ofMinutes(10)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("defaultTimeout 600 s must not exceed maxTimeout 300 s");
        assertThatThrownBy(() -> CommandRunner.builder().maxTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxTimeout 0 s must be at least 0.001 s");
        assertThatThrownBy(() -> CommandRunner.builder().outputLimitBytes(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("outputLimitBytes 0 must be between 1 and 16777216");
        assertThatThrownBy(() -> CommandRunner.builder().allowEnvironment("A=B"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Environment variable name 'A=B' must match [A-Za-z_][A-Za-z0-9_]* "
                        + "(at most 256 characters)");
        assertThatThrownBy(() -> CommandRunner.builder().allowEnvironment("MERO_RUN_ID"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Environment variable name 'MERO_RUN_ID' is reserved: the runner tags each run's "
                        + "processes with it");
        assertThatThrownBy(() -> CommandRunner.builder().environment("MERO_RUN_ID", "forged"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is reserved");
        assertThatThrownBy(() -> CommandRunner.builder().environment("X", "a\0b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Value 'a\\x00b' of variable 'X' must be non-null and free of NUL characters");
        assertThatThrownBy(() -> CommandRunner.builder().killGracePeriod(Duration.ofSeconds(11)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("killGracePeriod 11 s must be between zero and 10 s");
    }

    @Test
    void serves_concurrent_runs_independently_and_leaks_no_thread() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<CommandResult>> futures = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String word = "run-" + i;
                futures.add(pool.submit(() -> runner.run(List.of("/bin/echo", word), dir)));
            }
            for (int i = 0; i < futures.size(); i++) {
                assertThat(futures.get(i).get(30, TimeUnit.SECONDS).stdout()).isEqualTo("run-" + i + "\n");
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(Processes.runnerThreads()).isEmpty();
    }

    private static Set<String> variableNames(String envOutput) {
        return envOutput.lines()
                .filter(line -> line.contains("="))
                .map(line -> line.substring(0, line.indexOf('=')))
                .collect(Collectors.toSet());
    }
}
