package dev.mero.core.ops;

import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.catalogue.ToolDescriptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.InvalidInputException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** How file bytes become the text a model reads, and how the globs of find_files and search_text match. */
class Utf8TextAndGlobTest {

    private final ToolDescriptor findFiles = ToolCatalogue.standard().find("find_files").orElseThrow();

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aNulWithinTheSniffedLengthMakesBytesBinary() {
        byte[] bytes = {'a', 'b', 0, 'c'};
        assertThat(Utf8Text.isBinary(bytes, 4)).isTrue();
        assertThat(Utf8Text.isBinary(bytes, 3)).isTrue();
        assertThat(Utf8Text.isBinary(bytes, 2)).isFalse();
        assertThat(Utf8Text.isBinary(utf8("plain text"), 10)).isFalse();
    }

    @Test
    void invalidBytesBecomeReplacementCharactersAndAreCounted() {
        byte[] bytes = {'a', (byte) 0xFF, 'b', (byte) 0xC3, 'c'};
        Utf8Text text = Utf8Text.decode(bytes, bytes.length, true);
        assertThat(text.text()).isEqualTo("a\uFFFDb\uFFFDc");
        assertThat(text.replaced()).isEqualTo(2);
        Utf8Text clean = Utf8Text.decode(utf8("grüße"), utf8("grüße").length, true);
        assertThat(clean.text()).isEqualTo("grüße");
        assertThat(clean.replaced()).isZero();
    }

    @Test
    void onlyTheGivenLengthIsDecodedAndACutCharacterIsDroppedUnlessTheTextIsComplete() {
        byte[] bytes = utf8("abü");
        assertThat(Utf8Text.decode(bytes, 2, true).text()).isEqualTo("ab");
        Utf8Text cut = Utf8Text.decode(bytes, 3, false);
        assertThat(cut.text()).isEqualTo("ab");
        assertThat(cut.replaced()).isZero();
        Utf8Text ended = Utf8Text.decode(bytes, 3, true);
        assertThat(ended.text()).isEqualTo("ab\uFFFD");
        assertThat(ended.replaced()).isEqualTo(1);
    }

    @Test
    void aLeadingByteOrderMarkIsDroppedButNotOneInside() {
        byte[] bom = utf8("\uFEFFtext\uFEFF");
        assertThat(Utf8Text.decode(bom, bom.length, true).text()).isEqualTo("text\uFEFF");
        assertThat(Utf8Text.decode(new byte[0], 0, true).text()).isEmpty();
    }

    @Test
    void aGlobWithoutSlashMatchesNamesAtAnyDepth() {
        GlobPattern byName = GlobPattern.compile(findFiles, "pattern", "*.md");
        assertThat(byName.matches("a.md")).isTrue();
        assertThat(byName.matches("docs/deep/b.md")).isTrue();
        assertThat(byName.matches("docs/b.txt")).isFalse();
        assertThat(byName.matches("b.md/c.txt")).isFalse();
    }

    @Test
    void aGlobWithSlashMatchesPathsFromTheStartAndDoubleStarAlsoTheTopLevel() {
        GlobPattern path = GlobPattern.compile(findFiles, "pattern", "src/*.java");
        assertThat(path.matches("src/A.java")).isTrue();
        assertThat(path.matches("lib/src/A.java")).isFalse();
        assertThat(path.matches("A.java")).isFalse();
        GlobPattern rooted = GlobPattern.compile(findFiles, "pattern", "/src/*.java");
        assertThat(rooted.matches("src/A.java")).isTrue();
        GlobPattern any = GlobPattern.compile(findFiles, "pattern", "**/A.java");
        assertThat(any.matches("A.java")).isTrue();
        assertThat(any.matches("x/y/A.java")).isTrue();
        assertThat(any.matches("x/B.java")).isFalse();
    }

    @Test
    void blankOverlongInvisibleOrMalformedGlobsAreRefused() {
        for (String bad : new String[] {" ", "x".repeat(1001), "a\u0000b", "a\u200Bb"}) {
            assertThatThrownBy(() -> GlobPattern.compile(findFiles, "pattern", bad))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageStartingWith("Invalid input: 'pattern' must be a glob of 1 to 1000 visible characters, "
                            + "for example '*.md'. Expected ");
        }
        assertThat(GlobPattern.compile(findFiles, "glob", "x".repeat(1000)).matches("x".repeat(1000))).isTrue();
        assertThatThrownBy(() -> GlobPattern.compile(findFiles, "glob", "a{b"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("Invalid input: 'glob' is not a valid glob (");
    }
}
