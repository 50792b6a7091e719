package dev.mero.benchmarks;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
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
 * What a whole core operation costs (argument parsing, guard, open-directory walk, re-checks, audit record)
 * next to the raw JDK call doing the same I/O, so that the overhead is read as a ratio: {@code read_file} of a
 * 4 KiB file against {@code Files.readString}, {@code write_file} (atomic, unchanged detection off by changing
 * content) against {@code Files.writeString}, {@code list_directory} of 100 entries against
 * {@code Files.list}.
 *
 * <p>Run: {@code java -jar langchain4j-mero-benchmarks/target/benchmarks.jar Operations}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class OperationsBenchmark {

    private Path base;
    private Path ws;
    private MeroOperations operations;
    private long counter;

    /**
     * A workspace with a 4 KiB file and a directory of 100 files.
     *
     * @throws IOException if the workspace cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        base = Files.createTempDirectory("mero-ops-bench").toRealPath();
        ws = Files.createDirectories(base.resolve("ws"));
        Files.writeString(ws.resolve("notes.txt"), "line of text, forty characters long....\n".repeat(100));
        Path many = Files.createDirectories(ws.resolve("many"));
        for (int i = 0; i < 100; i++) {
            Files.writeString(many.resolve("f" + i + ".txt"), "x");
        }
        SecurityContext context = SecurityContext.builder().name("bench")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE)).build();
        operations = MeroOperations.forContext(context);
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
     * {@code read_file} of the 4 KiB file.
     *
     * @return the text
     */
    @Benchmark
    public String readFile() {
        return operations.call("read_file", "{\"path\":\"/ws/notes.txt\"}");
    }

    /**
     * The raw read of the same file.
     *
     * @return the text
     * @throws IOException if it cannot be read
     */
    @Benchmark
    public String rawReadFile() throws IOException {
        return Files.readString(ws.resolve("notes.txt"));
    }

    /**
     * {@code write_file} of a small, changing text (atomic temporary file and rename).
     *
     * @return the result
     */
    @Benchmark
    public String writeFile() {
        return operations.call("write_file", "{\"path\":\"/ws/out.txt\",\"content\":\"" + (counter++) + "\"}");
    }

    /**
     * The raw write of the same text.
     *
     * @return the path written
     * @throws IOException if it cannot be written
     */
    @Benchmark
    public Path rawWriteFile() throws IOException {
        return Files.writeString(ws.resolve("raw.txt"), String.valueOf(counter++));
    }

    /**
     * {@code list_directory} of 100 entries.
     *
     * @return the listing
     */
    @Benchmark
    public String listDirectory() {
        return operations.call("list_directory", "{\"path\":\"/ws/many\"}");
    }

    /**
     * The raw listing of the same directory.
     *
     * @return how many entries
     * @throws IOException if it cannot be listed
     */
    @Benchmark
    public long rawListDirectory() throws IOException {
        try (var entries = Files.list(ws.resolve("many"))) {
            return entries.count();
        }
    }
}
