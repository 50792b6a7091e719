package dev.mero.benchmarks;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.OperationLimits;
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
 * What protected paths cost: {@code find_files} over a tree of 10,000 files (every entry is matched against the
 * default set) and a sandboxed {@code runCommand("true")} on a mount of that tree (the search for protected files
 * to mask before the run), each with the default set against the same context without protected paths, the raw
 * operation here.
 *
 * <p>Run: {@code java -jar langchain4j-mero-benchmarks/target/benchmarks.jar ProtectedPaths}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ProtectedPathsBenchmark extends TemporaryWorkspace {

    private static final int DIRECTORIES = 100;
    private static final int FILES_PER_DIRECTORY = 100;

    private MeroOperations protectedOperations;
    private MeroOperations unprotectedOperations;
    private SecurityContext protectedContext;
    private SecurityContext unprotectedContext;
    private ToolArguments find;

    /**
     * Generates the tree, with a few protected files in it, and the two contexts.
     *
     * @throws IOException if it cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path ws = Files.createDirectories(base().resolve("ws"));
        for (int d = 0; d < DIRECTORIES; d++) {
            Path dir = Files.createDirectories(ws.resolve("module" + d + "/src"));
            for (int f = 0; f < FILES_PER_DIRECTORY; f++) {
                Files.writeString(dir.resolve("File" + f + ".java"), "class File" + f + " {}\n");
            }
            if (d % 10 == 0) {
                Files.writeString(dir.resolve(".env"), "TOKEN=x\n");
            }
        }
        protectedContext = context(ws, true);
        unprotectedContext = context(ws, false);
        OperationLimits limits = OperationLimits.builder().maxScanEntries(50_000).build();
        protectedOperations = MeroOperations.builder(protectedContext).limits(limits).build();
        unprotectedOperations = MeroOperations.builder(unprotectedContext).limits(limits).build();
        find = ToolArguments.of(protectedOperations.catalogue().find("find_files").orElseThrow(),
                Map.of("path", "/ws", "pattern", "**/File7.java"));
    }

    private static SecurityContext context(Path ws, boolean defaults) {
        return SecurityContext.builder().name("bench").defaultProtectedPaths(defaults)
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.EXECUTE))
                .allowCommand("true").build();
    }

    /**
     * {@code find_files} with the default protected paths.
     *
     * @return the text for the model
     */
    @Benchmark
    public String findFilesProtected() {
        return protectedOperations.call("find_files", find);
    }

    /**
     * {@code find_files} without protected paths.
     *
     * @return the text for the model
     */
    @Benchmark
    public String findFilesUnprotected() {
        return unprotectedOperations.call("find_files", find);
    }

    /**
     * {@code true} in the sandbox, masking the protected files of the mount.
     *
     * @return the exit code
     */
    @Benchmark
    public int sandboxedTrueProtected() {
        return protectedContext.runCommand("true", "/ws").exitCode();
    }

    /**
     * {@code true} in the sandbox without protected paths.
     *
     * @return the exit code
     */
    @Benchmark
    public int sandboxedTrueUnprotected() {
        return unprotectedContext.runCommand("true", "/ws").exitCode();
    }
}
