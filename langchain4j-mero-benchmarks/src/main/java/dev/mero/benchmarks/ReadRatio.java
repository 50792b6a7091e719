package dev.mero.benchmarks;

import dev.mero.core.ops.ConfinedCallsInUse;
import java.util.Locale;

/**
 * The guarded 4 KiB {@code read_file} against {@link java.nio.file.Files#readString}, measured as
 * {@link InterleavedRounds interleaved rounds} in one run ({@link FileOperationBenchmark}'s workspace and calls): a
 * round times a batch of guarded reads and a batch of raw reads, alternating which goes first, so that a shared
 * machine's load hits both alike. Prints the JDK and the read path it took: the multi-release jar's
 * foreign-function layer ({@code openat2}) on Java 22+, or the JDK's path ({@code none}) on Java 17 or with
 * {@code -Dmero.confinedCalls=off}.
 *
 * <p>Run: {@code java -cp langchain4j-mero-benchmarks/target/benchmarks.jar dev.mero.benchmarks.ReadRatio
 * [rounds] [warm-up rounds] [reads per round]} (defaults 200, 100 and 200), with any JDK from 17 on;
 * {@code -Dmero.bench.auditSink=true} gives the context an audit sink, so that every ALLOWED event is built.
 */
public final class ReadRatio {

    private ReadRatio() {
    }

    /**
     * Measures and prints.
     *
     * @param args optionally the number of measured rounds, of warm-up rounds and of reads per round and side
     * @throws Exception if the workspace cannot be built or a read fails
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        FileOperationBenchmark benchmark = new FileOperationBenchmark();
        benchmark.setUp();
        try {
            String expected = benchmark.rawReadString();
            if (!expected.equals(benchmark.guardedReadFile())) {
                throw new IllegalStateException("read_file did not return the file's content");
            }
            InterleavedRounds timings = InterleavedRounds.run(rounds, warmUp, batch,
                    benchmark::guardedReadFile, benchmark::rawReadString);
            System.out.printf(Locale.ROOT, "Java %s (%s), read path: %s%s; %d reads of 4 KiB per side and round%n",
                    Runtime.version(), System.getProperty("java.vm.name"), ConfinedCallsInUse.name(),
                    Boolean.getBoolean(FileOperationBenchmark.AUDIT_SINK_PROPERTY) ? ", with an audit sink" : "",
                    batch);
            System.out.print(timings.report("read_file 4 KiB (" + batch + " reads)",
                    "Files.readString (" + batch + " reads)"));
        } finally {
            benchmark.removeWorkspace();
        }
    }
}
