package dev.mero.benchmarks;

import java.util.Arrays;
import java.util.Locale;

/**
 * Times two operations as interleaved rounds in one JVM: each round runs both once, alternating which goes first,
 * so that a change of load on a shared machine hits both alike (JMH measures one benchmark after the other, and on
 * a busy machine their iterations see different moments). Reports the median of each side, the ratio of the
 * medians and the median (with quartiles) of the per-round ratios.
 */
final class InterleavedRounds {

    /** One timed operation. */
    @FunctionalInterface
    interface Operation {
        /**
         * Runs it once.
         *
         * @throws Exception if it fails
         */
        void run() throws Exception;
    }

    private final double[] measured;
    private final double[] baseline;
    private final double[] ratios;

    private InterleavedRounds(double[] measured, double[] baseline, double[] ratios) {
        this.measured = measured;
        this.baseline = baseline;
        this.ratios = ratios;
    }

    /**
     * As {@link #run(int, int, Operation, Operation)}, each side of a round running its operation {@code batch}
     * times: one run of a fast operation is too short to time alone.
     *
     * @param rounds   measured rounds
     * @param warmUp   rounds run first and not timed
     * @param batch    runs of each operation per side and round
     * @param measured the operation under test
     * @param baseline the raw operation
     * @return the timings
     * @throws Exception if either fails
     */
    static InterleavedRounds run(int rounds, int warmUp, int batch, Operation measured, Operation baseline)
            throws Exception {
        return run(rounds, warmUp, repeated(measured, batch), repeated(baseline, batch));
    }

    private static Operation repeated(Operation operation, int times) {
        return () -> {
            for (int i = 0; i < times; i++) {
                operation.run();
            }
        };
    }

    /**
     * Warms both up, then times them in interleaved rounds.
     *
     * @param rounds   measured rounds
     * @param warmUp   rounds run first and not timed
     * @param measured the operation under test
     * @param baseline the raw operation
     * @return the timings
     * @throws Exception if either fails
     */
    static InterleavedRounds run(int rounds, int warmUp, Operation measured, Operation baseline) throws Exception {
        for (int i = 0; i < warmUp; i++) {
            measured.run();
            baseline.run();
        }
        double[] a = new double[rounds];
        double[] b = new double[rounds];
        double[] ratios = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            if (i % 2 == 0) {
                a[i] = millis(measured);
                b[i] = millis(baseline);
            } else {
                b[i] = millis(baseline);
                a[i] = millis(measured);
            }
            ratios[i] = a[i] / b[i];
        }
        Arrays.sort(a);
        Arrays.sort(b);
        Arrays.sort(ratios);
        return new InterleavedRounds(a, b, ratios);
    }

    /**
     * The report, one line per figure.
     *
     * @param measuredName what the operation under test is
     * @param baselineName what the raw operation is
     * @return the text
     */
    String report(String measuredName, String baselineName) {
        return String.format(Locale.ROOT, "rounds: %d%n%s: median %.3f ms (quartiles %.3f-%.3f)%n"
                        + "%s: median %.3f ms (quartiles %.3f-%.3f)%nratio of the medians: %.3fx%n"
                        + "per-round ratio: median %.3fx (quartiles %.3f-%.3f)%n",
                ratios.length, measuredName, quartile(measured, 2), quartile(measured, 1), quartile(measured, 3),
                baselineName, quartile(baseline, 2), quartile(baseline, 1), quartile(baseline, 3),
                quartile(measured, 2) / quartile(baseline, 2), quartile(ratios, 2), quartile(ratios, 1),
                quartile(ratios, 3));
    }

    private static double millis(Operation operation) throws Exception {
        long start = System.nanoTime();
        operation.run();
        return (System.nanoTime() - start) / 1e6;
    }

    private static double quartile(double[] sorted, int which) {
        return sorted[Math.min(sorted.length - 1, sorted.length * which / 4)];
    }
}
