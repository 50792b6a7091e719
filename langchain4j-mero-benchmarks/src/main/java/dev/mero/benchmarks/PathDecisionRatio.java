package dev.mero.benchmarks;

import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A path decision by host path in a context of 10,000 entries against the same decision in a context of one, as
 * {@link InterleavedRounds interleaved rounds} in one JVM: both contexts are built first and the heap settled, then
 * each round times a batch of decisions in each, alternating which goes first. JMH runs the two in separate forks,
 * each right after building its entries, so their figures see different moments of a shared machine; here the
 * ratio shows what the number of entries itself costs (the entries are indexed by slug and by real directory).
 *
 * <p>Run: {@code java -cp langchain4j-mero-benchmarks/target/benchmarks.jar dev.mero.benchmarks.PathDecisionRatio
 * [rounds] [warm-up rounds] [decisions per round]} (defaults 400, 200 and 200).
 */
public final class PathDecisionRatio {

    private static final int MANY = 10_000;

    private PathDecisionRatio() {
    }

    /**
     * Measures and prints.
     *
     * @param args optionally the number of measured rounds, of warm-up rounds and of decisions per round and side
     * @throws Exception if the entries cannot be created
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        Path base = Files.createTempDirectory("mero-decision").toRealPath();
        try {
            SecurityContext many = PathDecisionBenchmark.Mounts.context(Files.createDirectories(base.resolve("many")),
                    MANY);
            SecurityContext one = PathDecisionBenchmark.Mounts.context(Files.createDirectories(base.resolve("one")), 1);
            String inMany = base.resolve("many").resolve(PathDecisionBenchmark.Mounts.slug(MANY - 1))
                    .resolve("file.txt").toString();
            String inOne = base.resolve("one").resolve(PathDecisionBenchmark.Mounts.slug(0)).resolve("file.txt")
                    .toString();
            System.gc();
            System.gc();
            InterleavedRounds timings = InterleavedRounds.run(rounds, warmUp, () -> decide(many, inMany, batch),
                    () -> decide(one, inOne, batch));
            System.out.print(timings.report("host-path decision, " + MANY + " entries (" + batch + " decisions)",
                    "host-path decision, 1 entry (" + batch + " decisions)"));
        } finally {
            Directories.deleteRecursively(base);
        }
    }

    private static void decide(SecurityContext context, String path, int times) {
        for (int i = 0; i < times; i++) {
            if (context.checkPathAccess(path, Permission.READ).realPath() == null) {
                throw new IllegalStateException("no real path");
            }
        }
    }
}
