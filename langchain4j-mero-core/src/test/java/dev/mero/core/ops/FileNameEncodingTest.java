package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mero.core.path.FileNameEncoding;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM started without a UTF-8 locale ({@code LC_ALL=C}, no {@code LANG}, as MCP clients start servers) cannot
 * represent a non-ASCII file name ({@code sun.jnu.encoding} is fixed at start, so a child JVM is started): a call
 * that names one is refused with the cause and the fix ({@code LANG=C.UTF-8}), never an internal error, and a
 * listing of a directory holding one shows every other entry and the odd name by its bytes.
 */
class FileNameEncodingTest {

    private static final String ACCENTED = "\u00e9t\u00e9.txt";

    @TempDir
    static Path temp;

    private static List<String> results;
    private static String charset;
    private static String warning;

    @BeforeAll
    static void runTheCallsInAJvmWithoutALocale() throws Exception {
        assumeTrue(FileNameEncoding.isUtf8(), "this JVM must be able to create the non-ASCII name");
        Path ws = Files.createDirectories(temp.resolve("ws"));
        Path out = Files.createDirectories(temp.resolve("out"));
        Files.writeString(ws.resolve(ACCENTED), "needle accented\n");
        Files.writeString(ws.resolve("plain.txt"), "needle plain\n");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), NonUtf8LocaleMain.class.getName(),
                ws.toString(), out.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(name -> name.startsWith("LC_") || name.equals("LANG")
                || name.equals("LANGUAGE") || name.startsWith("JAVA_TOOL_OPTIONS") || name.startsWith("_JAVA"));
        environment.put("LC_ALL", "C");
        String output = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            Process child = builder.start();
            String text = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(child.exitValue()).as(text).isZero();
            return text;
        });
        String[] parts = output.split("(?m)^### \\d+\\R");
        String[] header = parts[0].strip().split("\\R", 2);
        charset = header[0];
        warning = header[1];
        results = new ArrayList<>();
        for (int i = 1; i < parts.length; i++) {
            results.add(parts[i].strip());
        }
        assertThat(results).as(output).hasSize(NonUtf8LocaleMain.CALLS.length);
    }

    private static String result(int call) {
        return results.get(call);
    }

    @Test
    void theChildEncodesFileNamesAsAsciiAndWarnsTheOperatorAtStart() {
        assertThat(charset).isNotEqualToIgnoringCase("UTF-8");
        assertThat(warning).startsWith("The JVM encodes file names as " + charset + " (sun.jnu.encoding), not UTF-8")
                .contains("Start it with LANG=C.UTF-8");
        assertThat(FileNameEncoding.startupWarning()).as("this JVM's file names are UTF-8").isEmpty();
    }

    @Test
    void namingAnUnrepresentableFileIsRefusedWithTheCauseAndTheFix() {
        for (int call : new int[] {0, 1, 2}) {
            assertThat(result(call)).as(NonUtf8LocaleMain.CALLS[call][0])
                    .startsWith("Error: Path '/ws/")
                    .contains("cannot be used: the name cannot be represented in this JVM's file-name encoding ("
                            + charset)
                    .endsWith("the operator must start it with LANG=C.UTF-8.")
                    .doesNotContain("Internal error", temp.toString());
        }
        assertThat(temp.resolve("ws").resolve("\u00fc.txt")).doesNotExist();
    }

    @Test
    void aListingShowsTheOtherEntriesAndTheOddNameByItsBytes() {
        assertThat(result(3)).startsWith("Contents of '/ws' (2 entries")
                .contains("\nplain.txt")
                .contains("\n\\xC3\\xA9t\\xC3\\xA9.txt [name not readable: the JVM's file-name encoding is "
                        + charset + ", not UTF-8, so it cannot be read; start the JVM with LANG=C.UTF-8]");
    }

    @Test
    void walksReportTheOtherEntriesAndSaySomeNamesWereSkipped() {
        assertThat(result(4)).contains("/ws/plain.txt").contains("[1 name was skipped: the JVM's file-name encoding is "
                + charset + ", not UTF-8, so it cannot be read; start the JVM with LANG=C.UTF-8.]");
        assertThat(result(5)).contains("/ws/plain.txt:1: needle plain").contains("LANG=C.UTF-8");
        assertThat(result(6)).contains("plain.txt").contains("LANG=C.UTF-8");
    }

    @Test
    void syncRefusesATreeItCannotReadWhole() throws IOException {
        assertThat(result(7)).startsWith("Error: '/ws' holds 1 name(s) that cannot be read: ")
                .endsWith("LANG=C.UTF-8. Nothing was done.");
        try (var entries = Files.list(temp.resolve("out"))) {
            assertThat(entries).isEmpty();
        }
    }

    @Test
    void representableNamesStillWork() {
        assertThat(result(8)).isEqualTo("needle plain");
    }
}
