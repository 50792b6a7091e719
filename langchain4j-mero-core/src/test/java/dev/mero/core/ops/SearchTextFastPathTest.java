package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A literal pattern is tested on raw bytes before a file is decoded ({@link LiteralPrefilter}); a regular
 * expression runs over a line region of the file decoded once. Both must give exactly what matching each
 * decoded line on its own gives: the same lines, numbers, counts and notes, whatever the bytes (invalid UTF-8,
 * NUL, CRLF, a byte-order mark, a last line without a newline, a file cut at the byte limit).
 */
class SearchTextFastPathTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;
    Path ws;
    MeroOperations ops;

    @BeforeEach
    void setUp() throws IOException {
        OpsWorkspace w = new OpsWorkspace(temp);
        ws = w.ws;
        ops = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxSearchFileBytes(64).build()).build();
    }

    private String search(String pattern) {
        try {
            return ops.call("search_text", JSON.writeValueAsString(Map.of("path", "/ws", "pattern", pattern)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The literal's result equals the same literal as a group (which is not a literal, so takes the regex path). */
    private String sameAsRegex(String literal, String regex) {
        String fast = search(literal);
        String slow = search(regex);
        assertThat(fast).isEqualTo(slow.replace(quoted(regex), quoted(literal)));
        return fast;
    }

    private static String quoted(String pattern) {
        return dev.mero.core.message.Messages.quote(pattern);
    }

    private void write(String name, byte[]... parts) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        Files.write(ws.resolve(name), out.toByteArray());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aLiteralFindsWhatTheRegexFindsAcrossInvalidBytesCrlfAndTheLastLine() throws IOException {
        write("a.txt", utf8("first\r\nthe needle\r\n"), new byte[] {(byte) 0xFF, 'n', 'e', 'e', 'd', 'l', 'e',
                (byte) 0xC3}, utf8("\nneedle at the end"));
        write("b.txt", utf8("\uFEFFneedle after a byte-order mark\n"));
        write("c.txt", utf8("no match here\nneedl\ne\n"));
        write("d.bin", utf8("needle"), new byte[] {0}, utf8("needle\n"));
        String out = sameAsRegex("needle", "(?:needle)");
        assertThat(out).startsWith("4 matching lines for 'needle' in '/ws' (searched 4 files):\n/ws/a.txt:2: the needle")
                .contains("\n/ws/a.txt:3: \uFFFDneedle\uFFFD\n/ws/a.txt:4: needle at the end\n"
                        + "/ws/b.txt:1: needle after a byte-order mark")
                .doesNotContain("d.bin", "c.txt");
        assertThat(sameAsRegex("end", "(?:end)")).endsWith("/ws/a.txt:4: needle at the end");
        // the '\r' of a CRLF line break is not part of the line: 'needle$' finds it, 'needle\r' does not
        assertThat(sameAsRegex("needle\r", "needle[\r]")).startsWith("No line");
        assertThat(search("needle$")).contains("/ws/a.txt:2: ").doesNotContain("a.txt:3");
    }

    @Test
    void aLiteralNeverMatchesAcrossALineBreak() throws IOException {
        write("c.txt", utf8("needl\ne\n"));
        assertThat(sameAsRegex("needl\ne", "needl[\n]e")).startsWith("No line in '/ws' matches");
    }

    @Test
    void aLiteralOfTheReplacementCharacterStillFindsInvalidBytes() throws IOException {
        write("bad.txt", utf8("ok\n"), new byte[] {'x', (byte) 0xFF, 'y', '\n'});
        assertThat(search("\uFFFD")).startsWith("1 matching line for")
                .endsWith("/ws/bad.txt:2: x\uFFFDy");
        assertThat(sameAsRegex("x\uFFFDy", "(?:x\uFFFDy)")).endsWith("/ws/bad.txt:2: x\uFFFDy");
    }

    @Test
    void caseInsensitiveAndQuotedLiteralsMatchLikeTheirRegex() throws IOException {
        write("t.txt", utf8("ToDo one\nTODO two\nt\u00F6do three\ntodo\na.b\naxb\n"));
        assertThat(sameAsRegex("(?i)todo", "(?i)(?:todo)")).startsWith("3 matching lines");
        // RE2 folds case by Unicode: a non-ASCII literal has no prefilter and still matches
        assertThat(sameAsRegex("(?i)T\u00D6DO", "(?i)(?:T\u00D6DO)")).endsWith("/ws/t.txt:3: t\u00F6do three");
        assertThat(sameAsRegex("a\\.b", "a[.]b")).endsWith("/ws/t.txt:5: a.b");
        assertThat(sameAsRegex("t\u00F6do", "(?:t\u00F6do)")).endsWith("/ws/t.txt:3: t\u00F6do three");
    }

    @Test
    void aFileCutAtTheByteLimitIsSearchedInItsFirstBytesOnly() throws IOException {
        // 64 bytes are searched: the first needle ends at byte 61, the second line is cut after its "yy"
        write("big.txt", utf8("x".repeat(55) + "needle" + "\n" + "y".repeat(2)), utf8("needle\n"));
        write("cut.txt", utf8("z".repeat(60) + "\u00E9\u00E9 needle\n"));
        String out = sameAsRegex("needle", "(?:needle)");
        assertThat(out).contains("/ws/big.txt:1: ").doesNotContain("big.txt:2", "cut.txt")
                .contains("[2 files were searched only in its first 64 bytes.]");
        assertThat(sameAsRegex("yy", "(?:yy)")).contains("/ws/big.txt:2: yy");
    }

    @Test
    void aSingleFileTakesTheSamePaths() throws IOException {
        write("one.txt", utf8("alpha\nbeta needle\ngamma"));
        String fast = ops.call("search_text", "{\"path\":\"/ws/one.txt\",\"pattern\":\"needle\"}");
        String slow = ops.call("search_text", "{\"path\":\"/ws/one.txt\",\"pattern\":\"needl(e)\"}");
        assertThat(fast).isEqualTo("1 matching line for 'needle' in '/ws/one.txt' (searched 1 file):\n"
                + "/ws/one.txt:2: beta needle");
        assertThat(slow).isEqualTo(fast.replace("'needle'", "'needl(e)'"));
    }

    @Test
    void onlyAPlainLiteralGetsAPrefilter() {
        assertThat(LiteralPrefilter.of("needle")).isPresent();
        assertThat(LiteralPrefilter.of("a\\.b\\-c d")).isPresent();
        assertThat(LiteralPrefilter.of("(?i)todo")).isPresent();
        for (String regex : new String[] {"a+", "a.b", "^a", "a$", "\\d", "\\1", "(a)", "[a]", "a|b", "a{2}",
                "(?i)t\u00F6do", "\uFFFD", "(?i)", "(?s)a", "\\Qa\\E", "a\\", "\uD800"}) {
            assertThat(LiteralPrefilter.of(regex)).as(regex).isEmpty();
        }
    }

    @Test
    void thePrefilterTellsWhetherTheBytesHoldTheLiteral() {
        LiteralPrefilter exact = LiteralPrefilter.of("ab").orElseThrow();
        assertThat(exact.mayMatch(utf8("xxab"), 4)).isTrue();
        assertThat(exact.mayMatch(utf8("xxab"), 3)).isFalse();
        assertThat(exact.mayMatch(utf8("xxAB"), 4)).isFalse();
        assertThat(exact.mayMatch(utf8("a"), 1)).isFalse();
        LiteralPrefilter folded = LiteralPrefilter.of("(?i)aB").orElseThrow();
        assertThat(folded.mayMatch(utf8("--Ab--"), 6)).isTrue();
        assertThat(folded.mayMatch(utf8("--a-b--"), 7)).isFalse();
    }
}
