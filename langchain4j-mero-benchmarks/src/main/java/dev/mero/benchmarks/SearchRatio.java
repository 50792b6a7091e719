package dev.mero.benchmarks;

/**
 * {@code search_text} against {@code grep -rn} and {@code find_files} against {@code find -name} over
 * {@link SearchBenchmark}'s tree of 20,000 files, each measured as {@link InterleavedRounds interleaved rounds} in
 * one run, so that a shared machine's load hits both sides alike.
 *
 * <p>Run: {@code java -cp langchain4j-mero-benchmarks/target/benchmarks.jar dev.mero.benchmarks.SearchRatio
 * [rounds] [warm-up rounds]} (defaults 40 and 15).
 */
public final class SearchRatio {

    private SearchRatio() {
    }

    /**
     * Measures and prints.
     *
     * @param args optionally the number of measured rounds and of warm-up rounds
     * @throws Exception if grep or find cannot run
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        SearchBenchmark benchmark = new SearchBenchmark();
        benchmark.setUp();
        try {
            System.out.print(InterleavedRounds.run(rounds, warmUp, benchmark::guardedSearchText, benchmark::rawGrep)
                    .report("search_text", "grep -rn"));
            System.out.print(InterleavedRounds.run(rounds, warmUp, benchmark::guardedSearchTextRegex,
                    benchmark::rawGrepRegex).report("search_text ne+dle", "grep -rnE ne+dle"));
            System.out.print(InterleavedRounds.run(rounds, warmUp, benchmark::guardedFindFiles, benchmark::rawFind)
                    .report("find_files", "find -name"));
        } finally {
            benchmark.removeWorkspace();
        }
    }
}
