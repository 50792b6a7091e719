package dev.mero.benchmarks;

import java.util.Locale;

/**
 * The ratio of a sandboxed {@code runCommand("true")} to a bare {@link ProcessBuilder} of the same {@code bwrap}
 * command line, measured as {@link InterleavedRounds interleaved rounds} in one run: JMH's separate iterations of
 * the two benchmarks ({@link SandboxBenchmark}) see different moments of a shared machine and give error bars
 * wider than the 1.10x target. Also times the command's checks alone ({@code guardCommand}, no process), the part
 * of the library's cost that is not process plumbing.
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
            InterleavedRounds timings = InterleavedRounds.run(rounds, warmUp, () -> {
                if (!benchmark.runCommandSandboxed().succeeded()) {
                    throw new IllegalStateException("runCommand(\"true\") failed");
                }
            }, () -> {
                if (benchmark.plainBubblewrap() != 0) {
                    throw new IllegalStateException("bwrap failed");
                }
            });
            System.out.print(timings.report("runCommand(\"true\"), sandboxed", "bare ProcessBuilder of the bwrap line"));
            int times = Math.max(rounds, 1000);
            for (int i = 0; i < times; i++) {
                benchmark.guardOnly();
            }
            long start = System.nanoTime();
            for (int i = 0; i < times; i++) {
                benchmark.guardOnly();
            }
            System.out.printf(Locale.ROOT, "the command's checks alone (guardCommand): %.3f ms%n",
                    (System.nanoTime() - start) / 1e6 / times);
        } finally {
            benchmark.tearDown();
        }
    }
}
