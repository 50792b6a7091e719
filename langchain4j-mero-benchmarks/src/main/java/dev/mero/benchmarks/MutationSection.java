package dev.mero.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.SAXException;

/**
 * The "Mutation testing (PIT)" section of {@code BENCHMARKS.md}: how the build runs PIT over the core, what it does
 * not mutate and why, and, from PIT's {@code mutations.xml}, the score of the whole core and of each package.
 */
final class MutationSection {

    /** Measured by hand (PIT prints its phases and `time` the CPU it used): not in mutations.xml. */
    static final String TIMING = "Time: in `.ci/run` (`mvn -B -ntp -T 2 -Ppit verify`) from a clean clone on the "
            + "2-core machine on 2026-12-02 (sixth round, an AMD EPYC that ran the same tests about 1.6 times as "
            + "slowly as the machine of the fifth round: its slowest test took 2.26 s against 1.42 s, PIT's coverage "
            + "analysis 44 against 26 s), the mutation module took 20 min 53 s and the whole `.ci/run` 21 min 5 s, "
            + "set-up included (31 CPU-minutes of user time; in the fifth round, on an Intel Xeon, 14 min 52 s and "
            + "15 min 1 s): PIT is the longest path, the other modules' tests ran on Maven's other thread (the core "
            + "5 min 50 s, with its operations' and path tests run again on Java 25 twice and on Java 17 with the "
            + "confined layer off). The judges left out (the pitest-maven "
            + "configuration) were chosen from a log of every test PIT ran: tests that wait real time (FIFO "
            + "releases, bounded opens) and corpora that never killed a mutant first. Before this layout PIT ran "
            + "after the core's tests and before the bindings', and the whole `.ci/run` took 17 min 47 s with fewer "
            + "mutants (5,540).";

    private MutationSection() {
    }

    /** One package's counts by PIT status; {@code detected} is what the score counts (killed or timed out). */
    private static final class Counts {
        private int total;
        private int detected;
        private int killed;
        private int timedOut;
        private int survived;
        private int noCoverage;

        void add(Element mutation) {
            total++;
            if (Boolean.parseBoolean(mutation.getAttribute("detected"))) {
                detected++;
            }
            switch (mutation.getAttribute("status")) {
                case "KILLED" -> killed++;
                case "TIMED_OUT" -> timedOut++;
                case "SURVIVED" -> survived++;
                case "NO_COVERAGE" -> noCoverage++;
                default -> {
                    // memory and run errors: in the total, detected or not as PIT says
                }
            }
        }

        String row(String name) {
            return String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %,d | %s |%n", name, total, killed, timedOut,
                    survived, noCoverage, score());
        }

        String score() {
            return String.format(Locale.ROOT, "%.1f%%", total == 0 ? 0.0 : 100.0 * detected / total);
        }
    }

    /**
     * The section.
     *
     * @param mutations PIT's {@code mutations.xml}, or {@code null}; without the file only the configuration is told
     * @return the Markdown text, starting with a blank line
     * @throws IOException if the file cannot be read or parsed
     */
    static String of(Path mutations) throws IOException {
        StringBuilder md = new StringBuilder("\n## Mutation testing (PIT)\n\n");
        md.append("`mvn -B -ntp -T 2 -Ppit verify`, the command `.ci/run` runs, runs PIT over the whole core in the ")
                .append("module `langchain4j-mero-core-mutation` (the `pit` profile adds it; it compiles the core's ")
                .append("sources and tests and runs beside the other modules) and fails the build under 85%. A plain ")
                .append("`mvn verify` runs the tests alone; `-Dpit.target='dev.mero.core.scope.*'` mutates one package. It mutates every ")
                .append("package of the core: paths, contexts, policy files, approval, audit, scopes, limits, errors, ")
                .append("replay, stores, commands, the argument guards, `CommandPolicy` and the tool operations ")
                .append("(`dev.mero.core.ops`), with PIT's default mutators.\n\n");
        md.append("Not mutated: the process plumbing (`CommandRunner`, `ProcessTreeReaper`, `ProcFs`, `OutputDrainer`, ")
                .append("`UninterruptibleWait`, `RunMarker`), whose mutants hang or leak real child processes (a mutated ")
                .append("wait or kill) and which the real-process tests of the ordinary test run cover, and ")
                .append("`ConsoleApproval`, whose mutants block on a terminal. Tests that do not judge mutants: the ")
                .append("`CommandRunner*` tests (real process trees; they test the plumbing that is not mutated), the ")
                .append("`reliability` tests (whole-system evidence: child JVMs, 32 threads, a full disk; seconds per ")
                .append("mutant, while every class has unit tests), `ArchitectureTest` (reads class files, runs none ")
                .append("of the code), and three test classes that wait out real time-outs (`SandboxProcessTest`, ")
                .append("`ChainedApprovalTest`, `ConsoleApprovalTest`; the classes they cover have unit tests). ")
                .append("Settings: 2 threads; a mutant whose tests run longer than 1.5 times their normal time plus ")
                .append("2 s is counted as killed by a time-out (a mutated loop that never ends), and its minion is ")
                .append("restarted, so a hung mutant costs seconds, never the build.\n\n");
        md.append("Test discovery: PIT starts one minion JVM per mutated class, and its stock JUnit 5 plugin finds a ")
                .append("minion's tests by running every covering test class once before the first mutant, so the ")
                .append("core's widely used classes ran most of the suite again, 189 times. The build finds them with ")
                .append("its own plugin instead (`dev.mero.pit` in the core's test sources, found by PIT on the test ")
                .append("class path): a minion discovers its tests without running them, and a test runs only when a ")
                .append("mutant needs it. A parameterized test is one unit, in coverage and in the minions, so its ")
                .append("invocations never have to be run to be named.\n");
        if (mutations == null || !Files.isRegularFile(mutations)) {
            return md.toString();
        }
        Map<String, Counts> byPackage = new TreeMap<>();
        Counts all = new Counts();
        NodeList nodes = parse(mutations).getElementsByTagName("mutation");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element mutation = (Element) nodes.item(i);
            String mutatedClass = mutation.getElementsByTagName("mutatedClass").item(0).getTextContent();
            String pkg = mutatedClass.substring(0, Math.max(0, mutatedClass.lastIndexOf('.')));
            byPackage.computeIfAbsent(pkg, p -> new Counts()).add(mutation);
            all.add(mutation);
        }
        md.append(String.format(Locale.ROOT, "%nLast run: %,d of %,d mutants detected (%s; PIT compares the "
                + "score rounded to a whole percent with the threshold). %s%n%n", all.detected,
                all.total, all.score(), TIMING));
        md.append("| package | mutants | killed | timed out | survived | no coverage | score |\n")
                .append("|---|---|---|---|---|---|---|\n");
        byPackage.forEach((name, counts) -> md.append(counts.row("`" + name + "`")));
        md.append(all.row("**whole core**"));
        return md.toString();
    }

    private static org.w3c.dom.Document parse(Path mutations) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            return factory.newDocumentBuilder().parse(mutations.toFile());
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException("cannot read " + mutations + ": " + e.getMessage(), e);
        }
    }
}
