package dev.mero.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a JMH JSON result into {@code BENCHMARKS.md}: each of the ratios (guarded to raw, many entries to
 * one, tool loop to direct call) with both figures it is taken from, whether its target is met, the denial
 * sizes, the machine, and the command that reproduces it. Both figures of a ratio come from the same JMH run.
 *
 * <p>Run by {@code langchain4j-mero-benchmarks/run-benchmarks.sh}:
 * {@code java -cp benchmarks.jar dev.mero.benchmarks.BenchmarkReport jmh.json denials.txt machine.txt "command"
 * BENCHMARKS.md [mutations.xml [sections]]}: {@code sections} is a directory of Markdown sections, one per group
 * of the run (each with the load average before and after it), put in in the order of their file names.
 */
public final class BenchmarkReport {

    private static final String PACKAGE = "dev.mero.benchmarks.";

    /** What limits each missed target, as measured; rewrite it when a fix lands. */
    private static final String LIMITS = """

            ### What limits each ratio (measured)

            This run's machine is an AMD EPYC, the last report's an Intel Xeon (see "Machine"): the \
            raw operations take 1.4-2.3x as long here (`Files.readString` 8.2 us against 3.6 us, `grep \
            -rn` 123 ms against 69 ms, the bare `bwrap` line 7.8 ms against 5.6 ms), so absolute \
            figures (microseconds, decisions or calls per second) do not compare across the two \
            reports, and ratios move too: the faster the raw operation, the larger the share of the \
            fixed costs around it. The history of each ratio, round by round, is in \
            `docs/benchmarks.md`.

            - `read_file` (target 1.5x): one canonicalisation per call; the decision on the path as \
            written below the mount's canonical root, and where that allows the read without an \
            approval one `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS, \
            O_NONBLOCK | O_NOFOLLOW)` from the mount's kept descriptor stands for an `lstat` per name \
            (a regular file opened that way proves the written path is the real one; anything else is \
            decided again on the full path, with the same messages and audit records); the mount \
            root's check before the open (a mount renamed and replaced is refused); a small whole file \
            read with `pread` into a spare buffer and decoded once, its NUL bytes looked for in the \
            text. Six system calls where `Files.readString` makes five (the mount root's is the \
            difference, 255 ns in C). Until this round only Java 22+ made that open, through the \
            foreign-function API: Java 17 has no call that opens without blocking on a FIFO, so each \
            open ran on an opener thread and paid thread wake-ups under load (the last report: 2.67x \
            interleaved, 3.64x in JMH). Now Java 17 makes the same calls through a small JNI library \
            built with the core (`JniConfinedCalls`; what both layers decide is shared in \
            `KeptMountCalls`), and falls back to the opener threads where the library is missing or \
            the kernel refuses `openat2`. `ReadRatio` on Java 17 at load 4-6 before this run: 3.60x \
            with the library off, 1.34x with it. In this run (load 1.4-1.7): JMH on Java 17 **1.29x** \
            (10.6 us against 8.2 us), interleaved Java 17 1.35x, Java 25 1.47x (met on both). What is \
            left: the sixth system call, the decision (about 8% of a read's samples), and the UTF-8 \
            copy into the `String` (`Files.readString` hands its array over with the JDK's internal \
            access).
            - `list_directory` (no target; `ListRatio`, 200 entries against a `DirectoryStream`, a \
            sort and a no-follow type per entry, the same names and marks): each entry's own path is \
            matched against the protected globs once per listing, as walks do (the mounts above each \
            entry were found again per entry before: 1.94x to 1.52x at load 5). In this run (load \
            1.4-1.5): Java 17 1.29x, Java 25 1.21x; in the last report (Intel Xeon) 1.43x and 1.33x.
            - The JMH figures of `read_file`, the tool loop and every other guarded benchmark include \
            no console output: the benchmarks jar carries its own `simplelogger.properties` (audit \
            lines below `warn` are dropped; refusals are still built and recorded, and an ALLOWED \
            event is built only where a sink or the logger takes it). The MCP module's file, shaded in \
            since the HTTP load benchmark, had every ALLOWED line written to stderr: 605.8 us per \
            `read_file` (34.94x) in an earlier report.
            - `search_text` (target 1.5x; this run 1.08x in JMH and 1.09x interleaved on Java 17, a \
            regular expression 1.21x and 1.06x, met; the last report, on an Intel Xeon and before Java \
            17 had the JNI layer, 1.86x and 1.90x): it reads each file once into a buffer kept for the \
            search, tests a literal pattern on the raw bytes before decoding (`LiteralPrefilter`: 99% \
            of the benchmark's files are never decoded), matches a regular expression over line \
            regions of the file decoded once, and searches a directory's files on two threads (the \
            caller and one helper per search, results merged in listing order). The walk takes the \
            type-only `getdents64` listing, and the workers open each listed file with one \
            non-blocking `openat2` relative to a checked descriptor of its directory, type it on the \
            descriptor, read it with `pread` and close it (`ListedFiles`: 4 system calls per file, \
            `grep -rn` 5): on Java 22+ through the foreign-function API since the fourth round \
            (`SearchRatio` 1.63x to 1.02x), on Java 17 through the JNI layer since this round \
            (`SearchRatio` at load 4-6: 1.77x to 1.22x, a regular expression 1.39x to 1.29x). Without \
            the layer (another system, `-Dmero.confinedCalls=off`) the walk reads each entry's type \
            with an `fstatat`, and the walk runs on one thread of its own whose opens a watch bounds. \
            What is left is the walk on the caller (the protected-path match per entry, the sort of \
            each listing) while the workers wait, and the workers' search while the caller waits.
            - Path decisions by host path at 10,000 entries: 1.43x and 1.62x in the two quiet runs of \
            the whole suite, 1.00x when only those two benchmarks ran. Both contexts in one JVM, in \
            interleaved rounds (`PathDecisionRatio`), showed a real cost: 1.55x and 2.2x. The entries \
            were indexed by slug, real directory and configured names in `Map.copyOf` maps, which \
            probe linearly; the similar names of many mounts (`m1`, `m2`, ...) hash to neighbouring \
            slots, so a look-up compared keys along long runs (`Objects.equals` and `MapN.probe` were \
            a quarter of the samples at 10,000 entries, none at one). They are `HashMap`s now, filled \
            once and never changed: 1.02x and 1.05x in the same rounds (load average 11-12). The JMH \
            benchmark also settles the heap after building the entries and warms up for five \
            iterations instead of three.
            - `find_files` (target 2x; this run 0.80x in JMH, interleaved Java 17 1.01x, Java 25 \
            1.45x): `find -name` reads no entry's type that `getdents64` gives or that a directory's \
            link count rules out, and neither does the walk: with the confined layer (Java 22+ through \
            the foreign-function API, Java 17 through JNI since this round) the types come from \
            `d_type` and each directory is entered with one `openat2(O_DIRECTORY | O_NONBLOCK | \
            O_NOFOLLOW)`, which no FIFO can block; without it a directory's `st_nlink` says how many \
            subdirectories it holds (`SubdirectoryCount`, GNU find's leaf optimisation) and the walk \
            runs on one thread of its own whose opens a watch bounds (a pipe an open waits on is \
            released after 100 ms, the caller gives up after 2 s with the same refusal). Java 17 at \
            load 4-6 before this run, the JNI layer off against on: 1.36x to 1.00x. In the last report \
            Java 17 1.24x per round and 1.17x in JMH, Java 25 1.02x; Java 25's 1.45x in this run (the \
            foreign-function walk now slower than the same calls through JNI) is not yet explained.
            - The LangChain4j loop (target 1.3x; this run 1.89x, 19.5 us against 10.3 us; the last \
            report 1.85x): the ratio divides a turn by the operation, so each cut of `read_file` \
            raises it (0.97x when the read cost 69 us), and this round cut Java 17's read, which JMH \
            runs, by about half. The provider builds its tool list once and the `<untrusted-data>` id \
            comes from a DRBG seeded once. What is left is LangChain4j's own turn: two chat requests, \
            the user-message template with its date variables, a random UUID per call, the \
            tool-service context (about 5.5 us per turn on the Intel Xeon, 28% of the loop's samples). \
            The loop needs a long warm-up (its call graph is large): on this machine it was still \
            getting faster after three warm-up seconds (110, 81, 63, 50, 27, 24 us per iteration), so \
            it now warms up for ten.
            - `run_command` in the sandbox (target 1.10x; this run 2.18x in JMH and 1.80x interleaved, \
            load 1.4-1.7, 16.9 against 7.8 ms; the last report 1.73x and 2.05x; where the earlier \
            rounds measured 1.06-1.35x at load 17-22): 1.01x and 1.15x in two quiet JMH runs then, \
            with error bars on the bare `bwrap` line (3.4 and 10 ms) far wider than the 10% asked, so \
            the target is within the noise, not shown. The sandbox's own start-up (namespaces, mounts) \
            is the floor. Moving a thread into a cgroup makes the kernel wait for an RCU grace period \
            when no move happened just before: the thread that joined each run's cgroups before the \
            start paid it on every run (about 8 ms at load 20). Runs now start from a long-lived \
            starter thread that already stands in the next run's empty cgroups and moves on after the \
            start, while the run goes on (the sampled share of the start in a sandboxed `true` fell \
            from 23% to 8%). Left: the `prlimit` and `flock` executables in front of `bwrap` (rlimits \
            and the seccomp descriptor, which Java 17 cannot set for a child), which the bare `bwrap` \
            line of this table does not run. The library's checks (`guardCommand`: policy, program \
            lookup with `realpath`, working directory, sandbox view, audit) cost 0.2-0.4 ms on the \
            loaded machine; the rest of its cost is the output pipes and their two drainer threads, \
            and the executable-header check and mount re-check right before the start, which stay on \
            purpose. JMH's separate iterations give error bars wider than the target on a shared \
            machine, so `SandboxRatio` measures interleaved rounds in one run: ratio of the medians \
            1.06x, 1.35x and 1.20x (per-round medians 1.12x, 1.25x, 1.23x) in three runs of 400 rounds \
            at load 17-22 with three other builds running. Not changed in this round; the gap to the \
            bare `bwrap` line is the `prlimit` and `flock` executables above and the drainer threads, \
            which cost more when the machine is quiet (each wakes an idle CPU).
            - PostgreSQL, a guarded decision with the rate limit against a bare `SELECT 1` on the same \
            pool (target 1.25x): a permit the bucket has is now one prepared `UPDATE` with every \
            table, function and operator qualified, sent as a statement instead of a PL/pgSQL call \
            (`mero_decide` decides only when the row is missing, another limit holds or no permit is \
            left), and its transaction commits asynchronously where fsync is on. Schema version 10 \
            takes work out of that `UPDATE` (`pgbench` with client and server on one CPU, fsync off: \
            25.4 to 18.8-19.5 us, against 8.3 us for `SELECT 1` and 13.9 us for the smallest update of \
            the row): the limit columns are of a positive domain instead of three CHECK constraints, \
            which PostgreSQL read back and prepared for every row any `UPDATE` wrote (3.4 us; the \
            domain is checked only where a limit column is written, and every writer is still refused \
            a non-positive limit); the statement returns no row (the update count says whether the \
            permit was taken; the permits left were computed for nobody, 2 us); and its condition \
            reads the clock once, as `mero_decide`'s restated `UPDATE` does. Replacing the driver's \
            query time-out by a `lock_timeout` set inside the statement was tried and dropped: it \
            cannot bound a wait for a table lock (DDL, `LOCK TABLE`), and on this virtual machine it \
            made the round trip slower with fsync on (0.94-0.96x to 1.43-1.48x; the driver's timer \
            thread wakes the idle CPU just before the reply must). In `StoreDecisionRatio` run back to \
            back with the code before (load 0.6-1.3): fsync off 1.44-1.57x to 1.32-1.38x, fsync on \
            1.13-1.18x to 0.87-0.91x. In the last report (Intel Xeon) fsync on 0.95x and fsync off \
            1.39x; in this run (AMD EPYC, load 1.4-2.4) fsync on 1.22x (met) and fsync off 2.03x \
            (missed), where a bare one-row upsert alone is 1.33x `SELECT 1` (2.83x with fsync on): \
            with fsync off the write itself is above the target on this machine, before any of the \
            library's work. `SELECT 1` through the pool takes 108-118 us here. What is left with fsync \
            off is the write itself: a transaction id, its commit and its WAL record cost about 5.6 us \
            of server time over `SELECT 1` for the smallest update of the row, the statement's own \
            work about 5 us more; with fsync on an asynchronous commit also signals the WAL writer \
            (3,537 signals in 3,738 permits), which PostgreSQL's defaults do. The machine also \
            switches between a slow mode (`SELECT 1` 75-90 us, most of it waking the other CPU) and a \
            fast mode (about 10 us), where the same write is 2.5-5x `SELECT 1`: compare runs side by \
            side only. Schema version 9 also runs every function with `search_path = pg_catalog, \
            pg_temp`: a role that could create an operator in the store's schema could have planted \
            one (`/(numeric, bigint)`) that the rate-limit functions picked over the built-in.
            """;

    private BenchmarkReport() {
    }

    /** One ratio: a benchmark (with parameters) divided by another of the same run; {@code target} 0 for none. */
    private record Ratio(String what, String numerator, Map<String, String> numeratorParams, String denominator,
                         Map<String, String> denominatorParams, double target) {
    }

    private static List<Ratio> ratios() {
        List<Ratio> ratios = new ArrayList<>();
        ratios.add(new Ratio("`read_file` 4 KiB vs `Files.readString`", "FileOperationBenchmark.guardedReadFile",
                Map.of(), "FileOperationBenchmark.rawReadString", Map.of(), 1.5));
        ratios.add(new Ratio("`write_file` 4 KiB vs temporary file + force + rename",
                "FileOperationBenchmark.guardedWriteFile", Map.of(), "FileOperationBenchmark.rawTemporaryFileAndRename",
                Map.of(), 0));
        for (String outcome : List.of("allowed", "denied")) {
            for (String form : List.of("virtual", "host")) {
                for (String entries : List.of("100", "10000")) {
                    ratios.add(new Ratio("path decision, " + outcome + ", by " + form + " path: " + entries
                            + " entries vs 1", "PathDecisionBenchmark." + outcome, Map.of("entries", entries, "form", form),
                            "PathDecisionBenchmark." + outcome, Map.of("entries", "1", "form", form),
                            entries.equals("10000") ? 1.5 : 0));
                }
            }
        }
        ratios.add(new Ratio("`run_command true` (the tool operation, in the sandbox) vs `ProcessBuilder(\"/bin/true\")`",
                "CommandBenchmark.guardedRunCommand", Map.of(), "CommandBenchmark.rawProcessBuilder", Map.of(), 0));
        ratios.add(new Ratio("`run_command true` in the sandbox vs `ProcessBuilder` of the same `bwrap` line",
                "SandboxBenchmark.runCommandSandboxed", Map.of(), "SandboxBenchmark.plainBubblewrap", Map.of(), 1.1));
        ratios.add(new Ratio("`run_command true` in the sandbox vs the unsandboxed program",
                "SandboxBenchmark.runCommandSandboxed", Map.of(), "SandboxBenchmark.plainProcess", Map.of(), 0));
        ratios.add(new Ratio("`run_command true` opted out of the sandbox vs the same program",
                "SandboxBenchmark.runCommandUnsandboxed", Map.of(), "SandboxBenchmark.plainProcess", Map.of(), 0));
        ratios.add(new Ratio("`search_text` vs `grep -rn`, 20,000 files", "SearchBenchmark.guardedSearchText", Map.of(),
                "SearchBenchmark.rawGrep", Map.of(), 1.5));
        ratios.add(new Ratio("`find_files` vs `find -name`, 20,000 files", "SearchBenchmark.guardedFindFiles", Map.of(),
                "SearchBenchmark.rawFind", Map.of(), 0));
        ratios.add(new Ratio("one `read_file` through the LangChain4j tool loop vs the direct call",
                "ToolLoopBenchmark.throughToolLoop", Map.of(), "ToolLoopBenchmark.directCall", Map.of(), 1.3));
        return ratios;
    }

    /**
     * Writes the report.
     *
     * @param args the JMH JSON file, the denial-size output, the machine description, the command, the output, and
     *             optionally PIT's mutations.xml and the directory of the other groups' sections
     * @throws IOException if a file cannot be read or written
     */
    public static void main(String[] args) throws IOException {
        JsonNode results = new ObjectMapper().readTree(Path.of(args[0]).toFile());
        StringBuilder md = new StringBuilder("# Benchmarks\n\n");
        md.append("Generated by `langchain4j-mero-benchmarks/run-benchmarks.sh` from one JMH run (average time per ")
                .append("operation; each ratio divides two benchmarks of that run). Lower is better; a ratio of 1.00 ")
                .append("means the guard costs nothing. Every figure below comes from one run of the script, group by ")
                .append("group; each group's section gives the load average before and after it (the JMH table's is ")
                .append("in \"JMH run\", all of them under \"Machine\"). On a 2-core machine a load above 2 means ")
                .append("other work shares the cores: the figures then swing widely, and only ratios of the same run ")
                .append("and group mean something.\n\n");
        md.append("| what | measured | baseline | ratio | target |\n|---|---|---|---|---|\n");
        for (Ratio ratio : ratios()) {
            Optional<JsonNode> top = find(results, ratio.numerator(), ratio.numeratorParams());
            Optional<JsonNode> bottom = find(results, ratio.denominator(), ratio.denominatorParams());
            md.append("| ").append(ratio.what()).append(" | ");
            if (top.isEmpty() || bottom.isEmpty()) {
                md.append("not run | not run | - | ").append(target(ratio.target(), Double.NaN)).append(" |\n");
                continue;
            }
            double a = score(top.get());
            double b = score(bottom.get());
            md.append(figure(top.get())).append(" | ").append(figure(bottom.get())).append(" | ")
                    .append(String.format(Locale.ROOT, "%.2fx", a / b)).append(" | ")
                    .append(target(ratio.target(), a / b)).append(" |\n");
        }
        md.append(LIMITS);
        md.append("\n## Denial message size\n\n| entries | by | characters |\n|---|---|---|\n");
        for (String line : Files.readAllLines(Path.of(args[1]))) {
            if (line.startsWith("denial-size ")) {
                String[] parts = line.split(" ");
                md.append("| ").append(value(parts[1])).append(" | ").append(value(parts[2])).append(" | ")
                        .append(value(parts[3])).append(" |\n");
            }
        }
        md.append("\nTarget: under 2 KiB (2,048 characters) at 10,000 entries.\n");
        md.append(MutationSection.of(args.length > 5 ? Path.of(args[5]) : null));
        if (args.length > 6) {
            md.append(sections(Path.of(args[6])));
        }
        md.append("\n## Machine\n\n```\n").append(Files.readString(Path.of(args[2])).strip()).append("\n```\n");
        md.append("\n## Reproduce\n\n```\n").append(args[3]).append("\n```\n");
        md.append("\n## All results\n\n| benchmark | parameters | score | error | unit |\n|---|---|---|---|---|\n");
        for (JsonNode result : results) {
            JsonNode metric = result.get("primaryMetric");
            md.append("| ").append(result.get("benchmark").asText().replace(PACKAGE, "")).append(" | ")
                    .append(result.has("params") ? result.get("params").toString() : "").append(" | ")
                    .append(String.format(Locale.ROOT, "%.3f", metric.get("score").asDouble())).append(" | ")
                    .append(String.format(Locale.ROOT, "%.3f", metric.get("scoreError").asDouble())).append(" | ")
                    .append(metric.get("scoreUnit").asText()).append(" |\n");
        }
        Files.writeString(Path.of(args[4]), md.toString());
    }

    private static Optional<JsonNode> find(JsonNode results, String benchmark, Map<String, String> params) {
        for (JsonNode result : results) {
            if (!result.get("benchmark").asText().equals(PACKAGE + benchmark)) {
                continue;
            }
            boolean matches = true;
            for (Map.Entry<String, String> param : params.entrySet()) {
                JsonNode value = result.path("params").path(param.getKey());
                matches &= value.asText().equals(param.getValue());
            }
            if (matches) {
                return Optional.of(result);
            }
        }
        return Optional.empty();
    }

    /** The score in microseconds, whatever unit the benchmark reported in. */
    private static double score(JsonNode result) {
        JsonNode metric = result.get("primaryMetric");
        double score = metric.get("score").asDouble();
        return switch (metric.get("scoreUnit").asText()) {
            case "ms/op" -> score * 1000;
            case "ns/op" -> score / 1000;
            case "s/op" -> score * 1_000_000;
            default -> score;
        };
    }

    /** The sections of the run's other groups, in the order of their file names. */
    private static String sections(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return "";
        }
        StringBuilder md = new StringBuilder();
        try (java.util.stream.Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".md")).sorted().toList()) {
                md.append('\n').append(Files.readString(file).strip()).append('\n');
            }
        }
        return md.toString();
    }

    private static String figure(JsonNode result) {
        double us = score(result);
        return us >= 1000 ? String.format(Locale.ROOT, "%.2f ms", us / 1000) : String.format(Locale.ROOT, "%.1f us", us);
    }

    private static String target(double target, double ratio) {
        if (target == 0) {
            return "-";
        }
        String within = String.format(Locale.ROOT, "within %.2fx", target);
        if (Double.isNaN(ratio)) {
            return within;
        }
        return within + (ratio <= target ? ": met" : ": **missed**");
    }

    private static String value(String keyValue) {
        return keyValue.substring(keyValue.indexOf('=') + 1);
    }
}
