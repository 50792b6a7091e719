package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** search_text on real files: the lines, numbers and notes the model reads. */
class SearchTextTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    MeroOperations ops;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        ops = w.ops();
    }

    private static String search(MeroOperations operations, String path, String pattern, String more) {
        return OpsWorkspace.modelText(operations, "search_text",
                "{\"path\":\"" + path + "\",\"pattern\":\"" + pattern + "\"" + more + "}");
    }

    private String search(String path, String pattern) {
        return search(ops, path, pattern, "");
    }

    @Test
    void lineNumbersCountEmptyLinesAndALastLineWithoutNewline() throws IOException {
        Files.writeString(w.ws.resolve("notes.txt"), "one\n\nthree\n\nfive");
        assertThat(search("/ws/notes.txt", "e$"))
                .isEqualTo("3 matching lines for 'e$' in '/ws/notes.txt' (searched 1 file):\n"
                        + "/ws/notes.txt:1: one\n/ws/notes.txt:3: three\n/ws/notes.txt:5: five");
        assertThat(search("/ws/notes.txt", "^$"))
                .isEqualTo("2 matching lines for '^$' in '/ws/notes.txt' (searched 1 file):\n"
                        + "/ws/notes.txt:2: \n/ws/notes.txt:4: ");
        Files.writeString(w.ws.resolve("notes.txt"), "\nx\n\nx");
        assertThat(search("/ws/notes.txt", "x"))
                .isEqualTo("2 matching lines for 'x' in '/ws/notes.txt' (searched 1 file):\n"
                        + "/ws/notes.txt:2: x\n/ws/notes.txt:4: x");
        Files.writeString(w.ws.resolve("notes.txt"), "only\n");
        assertThat(search("/ws/notes.txt", "^$"))
                .isEqualTo("No line in '/ws/notes.txt' matches '^$' (searched 1 file).");
    }

    @Test
    void aMountRootIsSearchedAsADirectoryAndAGlobNarrowsTheFiles() throws IOException {
        Files.createDirectories(w.ws.resolve("src"));
        Files.writeString(w.ws.resolve("src/A.java"), "class A {}\n");
        Files.writeString(w.ws.resolve("src/b.md"), "class notes\n");
        assertThat(search("/ws", "class"))
                .isEqualTo("2 matching lines for 'class' in '/ws' (searched 3 files):\n"
                        + "/ws/src/A.java:1: class A {}\n/ws/src/b.md:1: class notes");
        assertThat(search(ops, "/ws", "class", ",\"glob\":\"**/*.java\""))
                .isEqualTo("1 matching line for 'class' in '/ws' (searched 1 file):\n/ws/src/A.java:1: class A {}");
        assertThat(search(ops, "/ws", "class", ",\"glob\":\"*.none\""))
                .isEqualTo("No line in '/ws' matches 'class' (searched 0 files).");
    }

    @Test
    void binaryFilesAreSkippedUnlessTheirNulComesAfterTheSniffedStart() throws IOException {
        Files.write(w.ws.resolve("early.bin"), "needle\n\0".getBytes(StandardCharsets.US_ASCII));
        byte[] late = new byte[8192 + 20];
        Arrays.fill(late, (byte) 'x');
        late[8191] = '\n';
        byte[] needle = "needle\n".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(needle, 0, late, 8192, needle.length);
        late[8192 + 10] = 0;
        Files.write(w.ws.resolve("late.log"), late);
        assertThat(search("/ws", "^needle$"))
                .isEqualTo("1 matching line for '^needle$' in '/ws' (searched 2 files):\n/ws/late.log:2: needle");
    }

    @Test
    void aFileLargerThanTheLimitIsSearchedInItsStartAndSaysSo() throws IOException {
        MeroOperations small = w.ops(OperationLimits.builder().maxSearchFileBytes(10));
        Files.writeString(w.ws.resolve("notes.txt"), "hit 56789\nhit beyond\n");
        assertThat(search(small, "/ws/notes.txt", "hit", ""))
                .isEqualTo("1 matching line for 'hit' in '/ws/notes.txt' (searched 1 file):\n/ws/notes.txt:1: hit 56789"
                        + "\n[1 file was searched only in its first 10 bytes.]");
        Files.writeString(w.ws.resolve("other.txt"), "hit 56789\nhit beyond\n");
        Files.writeString(w.ws.resolve("exact.txt"), "hit 56789\n");
        assertThat(search(small, "/ws", "hit", ""))
                .endsWith("(searched 3 files):\n/ws/exact.txt:1: hit 56789\n/ws/notes.txt:1: hit 56789\n"
                        + "/ws/other.txt:1: hit 56789\n[2 files were searched only in its first 10 bytes.]");
    }

    @Test
    void aCharacterCutByTheFileLimitIsDroppedWhileABrokenOneAtTheRealEndIsShownReplaced() throws IOException {
        MeroOperations small = w.ops(OperationLimits.builder().maxSearchFileBytes(10));
        Files.writeString(w.ws.resolve("notes.txt"), "hit 45678\u00fc\n");
        assertThat(search(small, "/ws/notes.txt", "hit", ""))
                .isEqualTo("1 matching line for 'hit' in '/ws/notes.txt' (searched 1 file):\n/ws/notes.txt:1: hit 45678"
                        + "\n[1 file was searched only in its first 10 bytes.]");
        Files.write(w.ws.resolve("notes.txt"), new byte[] {'e', 'n', 'd', (byte) 0xC3});
        assertThat(search("/ws/notes.txt", "end"))
                .isEqualTo("1 matching line for 'end' in '/ws/notes.txt' (searched 1 file):\n/ws/notes.txt:1: end\uFFFD");
    }

    @Test
    void listingScopeIsNeededToSearchADirectoryButNotOneFile() throws IOException {
        MeroOperations readOnly = MeroOperations.forContext(w.contextBuilder().scopes("files:file:read").build());
        assertThat(search(readOnly, "/ws/notes.txt", "hello", ""))
                .isEqualTo("1 matching line for 'hello' in '/ws/notes.txt' (searched 1 file):\n/ws/notes.txt:1: hello notes");
        assertThat(search(readOnly, "/ws", "hello", "")).startsWith("Denied: ").contains("files:directory:list");
    }

    @Test
    void matchesStopAtTheLimitWithANoteOnlyWhenMoreWereFound() throws IOException {
        MeroOperations two = w.ops(OperationLimits.builder().maxSearchMatches(2));
        Files.writeString(w.ws.resolve("notes.txt"), "x1\nx2\n");
        assertThat(search(two, "/ws", "x", ""))
                .isEqualTo("2 matching lines for 'x' in '/ws' (searched 1 file):\n/ws/notes.txt:1: x1\n/ws/notes.txt:2: x2");
        Files.writeString(w.ws.resolve("notes.txt"), "x1\nx2\nx3\n");
        Files.writeString(w.ws.resolve("zz.txt"), "x4\n");
        assertThat(search(two, "/ws", "x", ""))
                .isEqualTo("2 matching lines for 'x' in '/ws' (searched 1 file):\n/ws/notes.txt:1: x1\n/ws/notes.txt:2: x2"
                        + "\n[Truncated: showing the first 2 matches; use a narrower pattern, glob or directory.]");
    }

    @Test
    void theWalkStopsAtTheEntryLimitWithANote() throws IOException {
        MeroOperations small = w.ops(OperationLimits.builder().maxScanEntries(2));
        Files.writeString(w.ws.resolve("a.txt"), "hit\n");
        Files.writeString(w.ws.resolve("b.txt"), "hit\n");
        assertThat(search(small, "/ws", "hit", ""))
                .isEqualTo("2 matching lines for 'hit' in '/ws' (searched 2 files):\n/ws/a.txt:1: hit\n/ws/b.txt:1: hit"
                        + "\n[Incomplete: stopped after 2 entries; search a smaller directory.]");
    }

    @Test
    void aDirectoryWithoutReadPermissionIsNamedAsNotSearched() throws IOException {
        Path keep = Files.createDirectories(w.ws.resolve("keep"));
        Path also = Files.createDirectories(w.ws.resolve("zkeep"));
        Files.writeString(keep.resolve("k.txt"), "hit\n");
        Files.writeString(also.resolve("k.txt"), "hit\n");
        MeroOperations nested = MeroOperations.forContext(w.contextBuilder()
                .path(PathEntry.builder().path(keep).slug("keep").allow(Permission.WRITE).build()).build());
        assertThat(search(nested, "/ws", "hit", ""))
                .isEqualTo("1 matching line for 'hit' in '/ws' (searched 2 files):\n/ws/zkeep/k.txt:1: hit\n"
                        + "[1 directory was not searched: no READ permission there.]");
        MeroOperations twoNested = MeroOperations.forContext(w.contextBuilder()
                .path(PathEntry.builder().path(keep).slug("keep").allow(Permission.WRITE).build())
                .path(PathEntry.builder().path(also).slug("zkeep").allow(Permission.WRITE).build()).build());
        assertThat(search(twoNested, "/ws", "hit", ""))
                .isEqualTo("No line in '/ws' matches 'hit' (searched 1 file).\n"
                        + "[2 directories were not searched: no READ permission there.]");
    }

    @Test
    void shownLinesAreCutAndHaveTabsAndControlCharactersMadeVisible() throws IOException {
        Files.writeString(w.ws.resolve("notes.txt"), "a\tb\u0007c\u200Bd\n" + "y".repeat(300) + "\n" + "z".repeat(301)
                + "\n");
        assertThat(search("/ws/notes.txt", "[bdy]"))
                .isEqualTo("2 matching lines for '[bdy]' in '/ws/notes.txt' (searched 1 file):\n"
                        + "/ws/notes.txt:1: a bU+0007cU+200Bd\n/ws/notes.txt:2: " + "y".repeat(300));
        assertThat(search("/ws/notes.txt", "z"))
                .endsWith("/ws/notes.txt:3: " + "z".repeat(300) + " [...]");
    }

    @Test
    void patternsAreBoundedInLengthAndReportedWhereInvalid() {
        assertThat(search("/ws", ""))
                .startsWith("Error: Invalid input: 'pattern' must be a regular expression of 1 to 1000 characters. "
                        + "Expected ");
        assertThat(search("/ws", "x".repeat(1001)))
                .startsWith("Error: Invalid input: 'pattern' must be a regular expression of 1 to 1000 characters.");
        assertThat(search("/ws", "n".repeat(1000))).startsWith("No line in '/ws' matches");
        assertThat(search("/ws", "ab(c"))
                .startsWith("Error: Invalid input: 'pattern' is not a valid regular expression (missing closing ) "
                        + "at 'ab(c'); search_text uses RE2 syntax. Expected ");
    }
}
