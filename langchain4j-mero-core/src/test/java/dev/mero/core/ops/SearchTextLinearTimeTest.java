package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * search_text with patterns that make a backtracking engine recurse or run for hours: with RE2/J each completes
 * on a 30,000-character line, well within a generous bound (the old engine threw {@code StackOverflowError}),
 * and constructs RE2 cannot run are refused with a message that says what to write instead.
 */
class SearchTextLinearTimeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    @TempDir
    Path temp;
    OpsWorkspace w;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
    }

    private String search(String pattern) {
        try {
            return OpsWorkspace.modelText(w.ops(), "search_text",
                    JSON.writeValueAsString(Map.of("path", "/ws", "pattern", pattern)));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "(a|b)*c;    ab;  No line",
        "(a|b)*c;    abc; 1 matching line",
        "(?:a|b)*$;  ab;  4 matching lines",
        "(a|aa)+$;   a;   1 matching line",
        "(a|aa)+$b;  a;   No line",
        "(a*)*b;     a;   No line",
        "(x+x+)+y;   x;   No line"})
    void patternsThatBacktrackCompleteOnALongLine(String pattern, String unit, String expected) throws IOException {
        String line = unit.repeat(30_000 / unit.length());
        Files.writeString(w.ws.resolve("long.txt"), "short\n" + line + "\nshort\n");
        String out = assertTimeoutPreemptively(GENEROUS, () -> search(pattern));
        assertThat(out).startsWith(expected);
        if (!expected.startsWith("No")) {
            assertThat(out).contains("/ws/long.txt:2: " + line.substring(0, 300) + " [...]");
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', quoteCharacter = '"', value = {
        "(a)\\1;        a backreference ('\\1')",
        "(?<n>a)\\k<n>; a named backreference",
        "a(?=b);        a lookahead ('(?=')",
        "a(?!b);        a lookahead ('(?!')",
        "(?<=a)b;       a lookbehind ('(?<=')",
        "(?<!a)b;       a lookbehind ('(?<!')",
        "(?>a+)b;       an atomic group ('(?>')",
        "a*+b;          a possessive quantifier ('*+')",
        "a++b;          a possessive quantifier ('++')",
        "a?+b;          a possessive quantifier ('?+')",
        "a{2}+b;        a possessive quantifier ('}+')",
        "end\\Z;        '\\Z', which RE2 syntax does not have; write '$'",
        "\\Ga;          '\\G'",
        "a\\Rb;         '\\R'",
        "a\\hb;         '\\h', which RE2 syntax does not have; write '[ \\t]'",
        "\\u00e9;       a '\\uhhhh' escape, which RE2 syntax writes as '\\x{hhhh}'",
        "\\e;           '\\e', which RE2 syntax writes as '\\x1B'",
        "\\X;           '\\X'"})
    void constructsRe2CannotRunAreRefusedByName(String pattern, String named) {
        assertThat(search(pattern)).startsWith("Error: Invalid input: 'pattern' uses " + named);
    }

    @Test
    void lookalikesThatAreLiteralOrInAClassAreAccepted() throws IOException {
        Files.writeString(w.ws.resolve("t.txt"), "a(?=b) and a\\1 and a*+b and x{2}+\naab\n");
        assertThat(search("\\Qa(?=b)\\E")).startsWith("1 matching line");
        assertThat(search("a\\\\1")).startsWith("1 matching line");
        assertThat(search("a\\*\\+b")).startsWith("1 matching line");
        assertThat(search("x\\{2}\\+")).startsWith("1 matching line");
        assertThat(search("x\\{2}+")).startsWith("1 matching line");
        assertThat(search("x\\\\{2}+")).startsWith("Error: Invalid input: 'pattern' uses a possessive");
        assertThat(search("[(?=]b")).startsWith("1 matching line");
        assertThat(search("[]1]")).startsWith("1 matching line");
        assertThat(search("a{2}b")).isEqualTo("1 matching line for 'a{2}b' in '/ws' (searched 2 files):\n"
                + "/ws/t.txt:2: aab");
    }

    @Test
    void otherSyntaxErrorsNameRe2() {
        assertThat(search("a)")).startsWith("Error: Invalid input: 'pattern' is not a valid regular expression (")
                .contains("search_text uses RE2 syntax");
        assertThat(search("\\p{javaLowerCase}")).contains("search_text uses RE2 syntax");
    }

    @Test
    void caseFoldingIsUnicodeAndTheLiteralPrefilterStaysSound() throws IOException {
        // U+212A KELVIN SIGN folds to 'k', U+017F LATIN SMALL LETTER LONG S to 's'
        Files.writeString(w.ws.resolve("k.txt"), "\u212Aey\n\u017Fun\n");
        assertThat(search("(?i)key")).endsWith("/ws/k.txt:1: \u212Aey");
        assertThat(search("(?i)SUN")).endsWith("/ws/k.txt:2: \u017Fun");
        assertThat(LiteralPrefilter.of("(?i)key")).isEmpty();
        assertThat(LiteralPrefilter.of("(?i)sun")).isEmpty();
        assertThat(LiteralPrefilter.of("key")).isPresent();
    }
}
