package dev.mero.benchmarks;

import dev.mero.core.ops.ConfinedCallsInUse;

/**
 * {@code search_text} against {@code grep -rn} and {@code find_files} against {@code find -name} over
 * {@link SearchBenchmark}'s tree of 20,000 files, each measured as {@link InterleavedRounds interleaved rounds} in
 * one run, so that a shared machine's load hits both sides alike. The first line names the JDK that ran it and the
 * listing layer the core selected: {@code openat2} is the Java 25 foreign-function layer, which lists with
 * {@code getdents64} and takes the entries' types from {@code d_type}; {@code none} is the JDK's listing (Java 17),
 * where a walk reads the type of only the entries a directory's link count leaves in doubt.
 *
 * <p>Run: {@code java -cp langchain4j-mero-benchmarks/target/benchmarks.jar dev.mero.benchmarks.SearchRatio
 * [rounds] [warm-up rounds] [find]} (defaults 40 and 15; {@code find}: the {@code find_files} ratio only), with
 * each JDK to compare.
 */
public final class SearchRatio {

    private SearchRatio() {
    }

    /**
     * Measures and prints.
     *
     * @param args optionally the number of measured rounds and of warm-up rounds, then {@code find} for the
     *             {@code find_files} ratio only
     * @throws Exception if grep or find cannot run
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        SearchBenchmark benchmark = new SearchBenchmark();
        benchmark.setUp();
        try {
            System.out.println("Java " + Runtime.version().feature() + " (" + System.getProperty("java.vm.version")
                    + "), listing layer: " + listingLayer());
            if (!(args.length > 2 && args[2].equals("find"))) {
                System.out.print(InterleavedRounds.run(rounds, warmUp, benchmark::guardedSearchText,
                        benchmark::rawGrep).report("search_text", "grep -rn"));
                System.out.print(InterleavedRounds.run(rounds, warmUp, benchmark::guardedSearchTextRegex,
                        benchmark::rawGrepRegex).report("search_text ne+dle", "grep -rnE ne+dle"));
            }
            System.out.print(InterleavedRounds.run(rounds, warmUp, benchmark::guardedFindFiles, benchmark::rawFind)
                    .report("find_files", "find -name"));
        } finally {
            benchmark.removeWorkspace();
        }
    }

    /** The core's selected listing layer, described. */
    private static String listingLayer() {
        String used = ConfinedCallsInUse.name();
        switch (used) {
            case "openat2":
                return "openat2 + getdents64 (foreign-function API, types from d_type)";
            case "openat2-jni":
                return "openat2 + getdents64 (the core's JNI library, types from d_type)";
            default:
                return used + " (the JDK's listing, link counts spare the stat of leaves)";
        }
    }
}
