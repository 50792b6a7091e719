package dev.mero.benchmarks;

import dev.mero.core.MeroToolsException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * What one path decision costs, for the shapes a tool call takes: an existing file, a new file several
 * directories deep, a path through a symlink, and a refused escape (which builds an exception message).
 *
 * <p>Run: {@code mvn -B -ntp -q -pl langchain4j-mero-benchmarks -am package -DskipTests &&
 * java -jar langchain4j-mero-benchmarks/target/benchmarks.jar PathCheck}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PathCheckBenchmark {

    private Path base;
    private SecurityContext context;

    /**
     * Builds a workspace with a file, a nested directory, a symlink and a read-only mount.
     *
     * @throws IOException if the workspace cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        base = Files.createTempDirectory("mero-bench").toRealPath();
        Path ws = Files.createDirectories(base.resolve("ws/src/main/java"));
        Path docs = Files.createDirectories(base.resolve("docs"));
        Files.writeString(ws.resolve("App.java"), "class App {}");
        Files.createSymbolicLink(base.resolve("ws/link"), ws);
        context = SecurityContext.builder().name("bench")
                .path(PathEntry.of(base.resolve("ws").toString(), "ws", Permission.READ, Permission.WRITE))
                .path(PathEntry.of(docs.toString(), "docs", Permission.READ))
                .build();
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
     * An existing file addressed by slug.
     *
     * @return the checked target, so that the JIT cannot drop the call
     */
    @Benchmark
    public ResolvedPath existingFile() {
        return context.checkPathAccess("/ws/src/main/java/App.java", Permission.READ);
    }

    /**
     * A file that does not exist yet, three missing directories deep.
     *
     * @return the checked target
     */
    @Benchmark
    public ResolvedPath newFileDeep() {
        return context.checkPathAccess("src/main/java/a/b/c/New.java", Permission.WRITE);
    }

    /**
     * A path through a symlink inside the mount.
     *
     * @return the checked target
     */
    @Benchmark
    public ResolvedPath throughSymlink() {
        return context.checkPathAccess("link/src/main/java/App.java", Permission.READ);
    }

    /**
     * A refused escape: the cost of a denial, message included.
     *
     * @return the refusal's message
     */
    @Benchmark
    public String deniedEscape() {
        try {
            return context.checkPathAccess("../../../etc/passwd", Permission.READ).virtualPath();
        } catch (MeroToolsException e) {
            return e.getMessage();
        }
    }
}
