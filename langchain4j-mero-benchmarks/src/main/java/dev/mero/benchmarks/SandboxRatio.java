package dev.mero.benchmarks;

import java.util.Arrays;
import java.util.Locale;

/**
 * The ratio of a sandboxed {@code runCommand("true")} to a bare {@link ProcessBuilder} of the same {@code bwrap}
 * command line, measured as interleaved rounds in one JVM: each round runs both once, alternating which goes first,
 * so that a load change on a shared machine hits both sides alike. Prints the median of each side, the ratio of the
 * medians and the median (with quartiles) of the per-round ratios; JMH's separate iterations of the two
 * benchmarks ({@link SandboxBenchmark}) see different moments of the machine and give error bars wider than the
 * 1.10x target. Also times the command's checks alone ({@code guardCommand}, no process), the part of the
 * library's cost that is not process plumbing.
 *
 * <p>Run: {@code java -cp langchain4j-mero-benchmarks/target/benchmarks.jar dev.mero.benchmarks.SandboxRatio
 * [rounds] [warm-up rounds]} (defaults 400 and 100).
 */
public final class SandboxRatio {

    private SandboxRatio() {
    }

    /**
     * Measures and prints.
     *
     * @param args optionally the number of measured rounds and of warm-up rounds
     * @throws Exception if the sandbox cannot run
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        SandboxBenchmark benchmark = new SandboxBenchmark();
        benchmark.setUp();
        try {
            for (int i = 0; i < warmUp; i++) {
                benchmark.runCommandSandboxed();
                benchmark.plainBubblewrap();
            }
            double[] library = new double[rounds];
            double[] bare = new double[rounds];
            double[] ratios = new double[rounds];
            for (int i = 0; i < rounds; i++) {
                if (i % 2 == 0) {
                    library[i] = timeLibrary(benchmark);
                    bare[i] = timeBare(benchmark);
                } else {
                    bare[i] = timeBare(benchmark);
                    library[i] = timeLibrary(benchmark);
                }
                ratios[i] = library[i] / bare[i];
            }
            double checks = timeChecks(benchmark, Math.max(rounds, 1000));
            Arrays.sort(library);
            Arrays.sort(bare);
            Arrays.sort(ratios);
            System.out.printf(Locale.ROOT, "rounds: %d (after %d warm-up rounds)%n", rounds, warmUp);
            System.out.printf(Locale.ROOT, "runCommand(\"true\"), sandboxed: median %.3f ms (quartiles %.3f-%.3f)%n",
                    median(library), quartile(library, 1), quartile(library, 3));
            System.out.printf(Locale.ROOT, "bare ProcessBuilder of the bwrap line: median %.3f ms (quartiles "
                    + "%.3f-%.3f)%n", median(bare), quartile(bare, 1), quartile(bare, 3));
            System.out.printf(Locale.ROOT, "ratio of the medians: %.3fx%n", median(library) / median(bare));
            System.out.printf(Locale.ROOT, "per-round ratio: median %.3fx (quartiles %.3f-%.3f)%n", median(ratios),
                    quartile(ratios, 1), quartile(ratios, 3));
            System.out.printf(Locale.ROOT, "the command's checks alone (guardCommand): %.3f ms%n", checks);
        } finally {
            benchmark.tearDown();
        }
    }

    private static double timeLibrary(SandboxBenchmark benchmark) {
        long start = System.nanoTime();
        if (!benchmark.runCommandSandboxed().succeeded()) {
            throw new IllegalStateException("runCommand(\"true\") failed");
        }
        return (System.nanoTime() - start) / 1e6;
    }

    private static double timeBare(SandboxBenchmark benchmark) throws Exception {
        long start = System.nanoTime();
        if (benchmark.plainBubblewrap() != 0) {
            throw new IllegalStateException("bwrap failed");
        }
        return (System.nanoTime() - start) / 1e6;
    }

    private static double timeChecks(SandboxBenchmark benchmark, int times) {
        for (int i = 0; i < times; i++) {
            benchmark.guardOnly();
        }
        long start = System.nanoTime();
        for (int i = 0; i < times; i++) {
            benchmark.guardOnly();
        }
        return (System.nanoTime() - start) / 1e6 / times;
    }

    private static double median(double[] sorted) {
        return sorted[sorted.length / 2];
    }

    private static double quartile(double[] sorted, int which) {
        return sorted[Math.min(sorted.length - 1, sorted.length * which / 4)];
    }
}
