package dev.mero.core.ops;

import dev.mero.core.catalogue.ToolCatalogue;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The linear-time {@link GlobMatcher} against the JDK's {@code glob:} {@link PathMatcher} (a backtracking regular
 * expression) on ordinary patterns, each matching the same 1,000 relative paths of a source tree. In this package
 * because the matcher is package-private; the benchmarks jar puts both on one class path.
 *
 * <ul>
 *   <li>{@code jdkPathMatcher}: the JDK's matcher on paths parsed beforehand: its matching alone;</li>
 *   <li>{@code jdkWithPathOf}: the same with {@code Path.of} per path, as {@code GlobPattern} called it before;</li>
 *   <li>{@code globMatcher}: {@link GlobMatcher} on the path strings;</li>
 *   <li>{@code globPattern}: {@link GlobPattern}, what find_files and search_text call (by name for a glob
 *       without {@code '/'}).</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class GlobMatcherBenchmark {

    /** The glob. */
    @Param({"*.md", "**/*.java", "src/**/*Test.java", "**/test_*.py", "*.{java,kt}", "file[0-9].txt"})
    public String glob;

    private List<String> names;
    private List<Path> paths;
    private PathMatcher jdk;
    private GlobMatcher ours;
    private GlobPattern pattern;

    /** Builds the paths and compiles the glob both ways. */
    @Setup(Level.Trial)
    public void setUp() {
        String[] directories = {"src/main/java/dev/mero/core/ops", "src/test/java/dev/mero/core", "docs", "scripts",
            "src/main/kotlin/app", "tests/unit"};
        String[] files = {"FileScanner.java", "FileScannerTest.java", "README.md", "test_walk.py", "build.gradle.kts",
            "Main.kt", "file7.txt", "notes.txt", "index.html", "setup.py"};
        names = new ArrayList<>();
        for (int i = 0; names.size() < 1000; i++) {
            String directory = directories[i % directories.length];
            String file = files[(i / directories.length) % files.length];
            names.add(directory + "/" + (i % 7 == 0 ? "sub" + i + "/" : "") + file);
        }
        paths = names.stream().map(Path::of).toList();
        jdk = FileSystems.getDefault().getPathMatcher("glob:" + glob);
        ours = GlobMatcher.compile(glob);
        pattern = GlobPattern.compile(ToolCatalogue.standard().find("find_files").orElseThrow(), "pattern", glob);
    }

    /**
     * The JDK's matcher on parsed paths.
     *
     * @return the number of matches
     */
    @Benchmark
    public int jdkPathMatcher() {
        int count = 0;
        for (Path path : paths) {
            count += jdk.matches(path) ? 1 : 0;
        }
        return count;
    }

    /**
     * The JDK's matcher with a {@code Path.of} per path.
     *
     * @return the number of matches
     */
    @Benchmark
    public int jdkWithPathOf() {
        int count = 0;
        for (String name : names) {
            count += jdk.matches(Path.of(name)) ? 1 : 0;
        }
        return count;
    }

    /**
     * {@link GlobMatcher} on the strings.
     *
     * @return the number of matches
     */
    @Benchmark
    public int globMatcher() {
        int count = 0;
        for (String name : names) {
            count += ours.matches(name) ? 1 : 0;
        }
        return count;
    }

    /**
     * {@link GlobPattern}, as the tools call it.
     *
     * @return the number of matches
     */
    @Benchmark
    public int globPattern() {
        int count = 0;
        for (String name : names) {
            count += pattern.matches(name) ? 1 : 0;
        }
        return count;
    }
}
