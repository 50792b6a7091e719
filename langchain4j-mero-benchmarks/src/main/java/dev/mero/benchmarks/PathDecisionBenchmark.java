package dev.mero.benchmarks;

import dev.mero.core.MeroToolsException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One path decision with 1, 100 and 10,000 mounted entries, for a path written by slug ({@code virtual}) and by
 * host path ({@code host}), allowed and denied. The target is the entry mounted last, where a linear scan is
 * slowest. The report divides each figure by the one-entry figure of the same shape.
 *
 * <p>Building 10,000 entries leaves a heap full of set-up garbage and a context not yet in the old generation,
 * and the decision's code is compiled while the first iterations run: the set-up ends with a full collection and
 * five warm-up iterations come before the measured ones, so that the 10,000-entry figure measures the decision,
 * not its aftermath (with three and no collection it swung between 1.0x and 1.6x of the one-entry figure).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PathDecisionBenchmark extends TemporaryWorkspace {

    /** How many entries the context mounts. */
    @Param({"1", "100", "10000"})
    public int entries;

    /** How the path is written: {@code virtual} ({@code /slug/...}) or {@code host} (the real path). */
    @Param({"virtual", "host"})
    public String form;

    private SecurityContext context;
    private String allowed;
    private String denied;

    /**
     * Mounts {@code entries} directories, each with one file.
     *
     * @throws IOException if the directories cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        context = Mounts.context(base(), entries);
        String last = Mounts.slug(entries - 1);
        boolean virtual = form.equals("virtual");
        allowed = virtual ? "/" + last + "/file.txt" : base().resolve(last).resolve("file.txt").toString();
        denied = virtual ? "/not-mounted/file.txt" : base().resolve("not-mounted/file.txt").toString();
        // settle the heap: the entries move to the old generation now, not during a measured iteration
        System.gc();
        System.gc();
    }

    /**
     * An allowed read of a file in the last entry.
     *
     * @return the real path, so that the JIT cannot drop the call
     */
    @Benchmark
    public Path allowed() {
        return context.checkPathAccess(allowed, Permission.READ).realPath();
    }

    /**
     * A denied read of a path no entry covers, message included.
     *
     * @return the refusal's message
     */
    @Benchmark
    public String denied() {
        try {
            return context.checkPathAccess(denied, Permission.READ).virtualPath();
        } catch (MeroToolsException e) {
            return e.getMessage();
        }
    }

    /** Contexts with many mounts, shared by the benchmark and the denial-size report. */
    static final class Mounts {

        private Mounts() {
        }

        static String slug(int index) {
            return "m" + index;
        }

        /** A context mounting {@code count} fresh directories under {@code base}, each holding {@code file.txt}. */
        static SecurityContext context(Path base, int count) throws IOException {
            SecurityContext.Builder builder = SecurityContext.builder().name("bench");
            for (int i = 0; i < count; i++) {
                Path dir = Files.createDirectories(base.resolve(slug(i)));
                Files.writeString(dir.resolve("file.txt"), "x");
                builder.path(PathEntry.of(dir.toString(), slug(i), Permission.READ));
            }
            Files.createDirectories(base.resolve("not-mounted"));
            return builder.build();
        }
    }
}
