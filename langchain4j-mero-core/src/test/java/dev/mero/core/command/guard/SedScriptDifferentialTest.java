package dev.mero.core.command.guard;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Assume;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * GNU sed's own {@code --sandbox} mode refuses exactly the commands that run, write or read ({@code e}, {@code w},
 * {@code r}, ...) when it compiles a script. Every script the guard accepts must compile in sandbox mode without
 * that refusal: the guard may be stricter than sed, never looser. Nothing runs: sed only compiles the script
 * against empty input, and sandbox mode would refuse the dangerous commands anyway.
 */
class SedScriptDifferentialTest {

    private static final String[] FRAGMENTS = {"s/a/b/", "s|a|b|", "s/[/]/x/", "s/[]/]/x/", "s,a\\,b,c,", "y/a/b/",
            "w x", "W x", "e", "e true", "r x", "R x", "p", "d", "g", "I", "M", ";", " ", "{", "}", "/x/", "\\%x%",
            "1", "$", "!", ",", "~2", "+1", "bx", ":x", "tx", "T", "#", "a t", "i t", "c t", "[", "]", "\\", "/", "|",
            "q", "=", "l", "N", "0", "v", "z", "F", "x", "G", "H", "s/a/b/g", "s/a/b/ e", "s/a/b/w x", "s/a/b/2p"};

    private static final Path SED = Path.of("/usr/bin/sed");

    @Provide
    Arbitrary<String> scripts() {
        return Arbitraries.of(FRAGMENTS).list().ofMinSize(1).ofMaxSize(6).map(parts -> String.join("", parts));
    }

    @Property(tries = 400, seed = "20261201")
    @StatisticsReport(StatisticsReport.StatisticsReportMode.OFF) // the coverage check below fails the property when it matters
    void the_guard_never_accepts_a_script_that_sed_sandbox_refuses(@ForAll("scripts") String script) throws Exception {
        Assume.that(Files.isExecutable(SED));
        boolean accepted = SedScript.check(script).isEmpty();
        Statistics.collect(accepted);
        if (accepted) {
            assertThat(sandboxRefusal(script)).as("sed --sandbox on %s", script).isFalse();
        }
        // enough accepted scripts for the comparison to mean something
        Statistics.coverage(coverage -> coverage.check(true).percentage(p -> p >= 5));
    }

    private static boolean sandboxRefusal(String script) throws IOException, InterruptedException {
        Path errors = Files.createTempFile("sed-sandbox", ".txt");
        try {
            Process sed = new ProcessBuilder(SED.toString(), "--sandbox", "-n", "-e", script, "/dev/null")
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(errors.toFile())
                    .start();
            if (!sed.waitFor(10, TimeUnit.SECONDS)) {
                sed.destroyForcibly();
                throw new AssertionError("sed did not finish for " + script);
            }
            return Files.readString(errors, StandardCharsets.UTF_8).contains("disabled in sandbox mode");
        } finally {
            Files.deleteIfExists(errors);
        }
    }
}
