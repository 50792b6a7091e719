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
 * {@code search_text} over a generated tree of 20,000 files against {@code grep -rn} over the same tree, and
 * {@code find_files} against {@code find -name}, each a whole run with a warm cache, in one JMH run. 100 files
 * hold the needle and 100 files match the glob, under every tool's result limit. {@code needle} is a literal, which
 * {@code search_text} tests on the raw bytes first; {@code ne+dle} is not, so every line of every file goes through
 * the regular-expression engine (RE2/J), as {@code grep -rnE} runs its own.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SearchBenchmark extends TemporaryWorkspace {

    private static final int DIRECTORIES = 200;
    private static final int FILES_PER_DIRECTORY = 100;

    private Path ws;
    private MeroOperations operations;
    private ToolArguments search;
    private ToolArguments searchRegex;
    private ToolArguments find;

    /**
     * Generates the tree.
     *
     * @throws IOException if it cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        ws = Files.createDirectories(base().resolve("ws"));
        for (int d = 0; d < DIRECTORIES; d++) {
            Path dir = Files.createDirectories(ws.resolve("dir" + d));
            for (int f = 0; f < FILES_PER_DIRECTORY; f++) {
                boolean special = f == 0;
                String text = "line one of file " + f + "\nline two\n" + (special ? "the needle is here\n" : "")
                        + "line four\n";
                Files.writeString(dir.resolve("file" + f + (special ? ".md" : ".txt")), text);
            }
        }
        operations = MeroOperations.builder(SecurityContext.builder().name("bench")
                        .path(PathEntry.of(ws.toString(), "ws", Permission.READ)).build())
                .limits(OperationLimits.builder().maxScanEntries(50_000).build()).build();
        search = ToolArguments.of(operations.catalogue().find("search_text").orElseThrow(),
                Map.of("path", "/ws", "pattern", "needle"));
        searchRegex = ToolArguments.of(operations.catalogue().find("search_text").orElseThrow(),
                Map.of("path", "/ws", "pattern", "ne+dle"));
        find = ToolArguments.of(operations.catalogue().find("find_files").orElseThrow(),
                Map.of("path", "/ws", "pattern", "**/*.md"));
    }

    /**
     * {@code grep -rn needle} over the tree, all output read.
     *
     * @return the output's length
     * @throws Exception if grep cannot run
     */
    @Benchmark
    public int rawGrep() throws Exception {
        return run("grep", "-rn", "needle", ws.toString());
    }

    /**
     * {@code search_text} over the tree.
     *
     * @return the text for the model
     */
    @Benchmark
    public String guardedSearchText() {
        return operations.call("search_text", search);
    }

    /**
     * {@code grep -rnE 'ne+dle'} over the tree, all output read.
     *
     * @return the output's length
     * @throws Exception if grep cannot run
     */
    @Benchmark
    public int rawGrepRegex() throws Exception {
        return run("grep", "-rnE", "ne+dle", ws.toString());
    }

    /**
     * {@code search_text} of {@code ne+dle} over the tree: no literal prefilter, every line matched by RE2/J.
     *
     * @return the text for the model
     */
    @Benchmark
    public String guardedSearchTextRegex() {
        return operations.call("search_text", searchRegex);
    }

    /**
     * {@code find -name '*.md'} over the tree.
     *
     * @return the output's length
     * @throws Exception if find cannot run
     */
    @Benchmark
    public int rawFind() throws Exception {
        return run("find", ws.toString(), "-name", "*.md");
    }

    /**
     * {@code find_files} over the tree.
     *
     * @return the text for the model
     */
    @Benchmark
    public String guardedFindFiles() {
        return operations.call("find_files", find);
    }

    private static int run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        int length = process.getInputStream().readAllBytes().length;
        process.waitFor();
        return length;
    }
}
