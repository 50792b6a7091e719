package dev.mero.benchmarks;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.command.CheckedCommand;
import dev.mero.core.command.CommandResult;
import dev.mero.core.command.CommandSandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the bubblewrap sandbox costs per command: {@code runCommand("true")} in the sandbox, against a plain
 * {@link ProcessBuilder} running the same {@code bwrap} command line (same options and mounts; only the
 * runner's dozen environment variables are left out): the sandbox's own cost, without the library, against {@code runCommand("true")} after the opt-out (checks, environment, {@code /proc} scan
 * for left-over processes) and a plain {@code ProcessBuilder} of {@code /usr/bin/true} (the raw operation).
 *
 * <p>Run: {@code java -jar langchain4j-mero-benchmarks/target/benchmarks.jar Sandbox}. Three forks of ten
 * iterations narrow the error bars; on a shared machine the ratio to judge is {@link SandboxRatio}'s, from
 * interleaved rounds in one run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(3)
public class SandboxBenchmark {

    private static final String TRUE = "/usr/bin/true";

    private Path base;
    private SecurityContext sandboxed;
    private SecurityContext unsandboxed;
    private List<String> bubblewrapLine;

    /**
     * A workspace, a context that requires the sandbox, one that opted out, and the sandbox's command line
     * for {@code true} in that workspace, written out as the runner writes it.
     *
     * @throws IOException          if the workspace cannot be created
     * @throws InterruptedException if interrupted while trying the sandbox
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException, InterruptedException {
        base = Files.createTempDirectory("mero-bench").toRealPath();
        Path ws = Files.createDirectories(base.resolve("ws"));
        PathEntry entry = PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.EXECUTE);
        sandboxed = SecurityContext.builder().name("bench").path(entry).allowCommand("true").build();
        unsandboxed = SecurityContext.builder().name("bench-unsandboxed").path(entry).allowCommand("true")
                .commandSandbox(CommandSandbox.disabled()).build();
        bubblewrapLine = bubblewrapLine(ws);
        if (!sandboxed.runCommand("true", "/ws").succeeded() || run(bubblewrapLine) != 0) {
            throw new IllegalStateException("the sandbox does not work on this machine");
        }
    }

    /**
     * Removes the workspace.
     *
     * @throws IOException if a file cannot be deleted
     */
    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Directories.deleteRecursively(base);
    }

    /**
     * The library's sandboxed run: guard, policy checks, probe (cached), bwrap, output capture.
     *
     * @return the result
     */
    @Benchmark
    public CommandResult runCommandSandboxed() {
        return sandboxed.runCommand("true", "/ws");
    }

    /**
     * The command's checks alone, without a process: what {@code runCommand} decides before it starts
     * {@code bwrap} (policy, program lookup, working directory, sandbox view, audit).
     *
     * @return the checked command
     */
    @Benchmark
    public CheckedCommand guardOnly() {
        return sandboxed.guardCommand("true", "/ws");
    }

    /**
     * The same bwrap command line started with a bare {@link ProcessBuilder}.
     *
     * @return the exit code
     * @throws IOException          if bwrap cannot start
     * @throws InterruptedException if interrupted
     */
    @Benchmark
    public int plainBubblewrap() throws IOException, InterruptedException {
        return run(bubblewrapLine);
    }

    /**
     * The library's run after the opt-out: guard, checks, plain child process, {@code /proc} scan.
     *
     * @return the result
     */
    @Benchmark
    public CommandResult runCommandUnsandboxed() {
        return unsandboxed.runCommand("true", "/ws");
    }

    /**
     * The raw operation: {@code /usr/bin/true} started with a bare {@link ProcessBuilder}.
     *
     * @return the exit code
     * @throws IOException          if it cannot start
     * @throws InterruptedException if interrupted
     */
    @Benchmark
    public int plainProcess() throws IOException, InterruptedException {
        return run(List.of(TRUE));
    }

    private static int run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        process.getOutputStream().close();
        return process.waitFor();
    }

    /** The runner's command line for {@code true} in {@code /ws} (see CommandSandbox for the layout). */
    private static List<String> bubblewrapLine(Path ws) throws IOException {
        List<String> argv = new ArrayList<>(List.of(CommandSandbox.DEFAULT_BUBBLEWRAP.toString(), "--unshare-all",
                "--die-with-parent", "--new-session", "--as-pid-1", "--hostname", "sandbox", "--clearenv",
                "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--ro-bind", "/usr", "/usr"));
        for (String name : List.of("bin", "sbin", "lib", "lib32", "lib64", "libx32")) {
            Path path = Path.of("/" + name);
            if (Files.isSymbolicLink(path)) {
                argv.addAll(List.of("--symlink", Files.readSymbolicLink(path).toString(), path.toString()));
            } else if (Files.isDirectory(path)) {
                argv.addAll(List.of("--ro-bind", path.toString(), path.toString()));
            }
        }
        for (String name : List.of("ld.so.cache", "passwd", "group", "nsswitch.conf", "localtime", "alternatives")) {
            argv.addAll(List.of("--ro-bind-try", "/etc/" + name, "/etc/" + name));
        }
        argv.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--bind", ws.toString(), "/ws",
                "--remount-ro", "/", "--chdir", "/ws", "--", TRUE));
        return argv;
    }
}
