package dev.mero.benchmarks;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.ToolArguments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code run_command} of a trivial program against {@link ProcessBuilder} of the bare program, in one run.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CommandBenchmark extends TemporaryWorkspace {

    private MeroOperations operations;
    private ToolArguments command;

    /**
     * A workspace that allows {@code true}.
     *
     * @throws IOException if it cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path ws = Files.createDirectories(base().resolve("ws"));
        operations = MeroOperations.forContext(SecurityContext.builder().name("bench")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.EXECUTE))
                .allowCommand("true").build());
        command = ToolArguments.of(operations.catalogue().find("run_command").orElseThrow(),
                Map.of("command", "true"));
    }

    /**
     * The bare program.
     *
     * @return its exit code
     * @throws Exception if it cannot run
     */
    @Benchmark
    public int rawProcessBuilder() throws Exception {
        Process process = new ProcessBuilder("/bin/true").redirectErrorStream(true).start();
        process.getInputStream().readAllBytes();
        return process.waitFor();
    }

    /**
     * The same program through {@code run_command}: policy, guard, audit, runner.
     *
     * @return the text for the model
     */
    @Benchmark
    public String guardedRunCommand() {
        return operations.call("run_command", command);
    }
}
