package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Constructs of {@link GlobMatcher} one by one, and the quick test of a glob's literal start and end. */
class GlobMatcherTest {

    private static boolean matches(String glob, String text) {
        return GlobMatcher.compile(glob).matches(text);
    }

    @Test
    void aNegatedClassMatchesEveryCharacterButItsMembersAndTheSeparator() {
        assertThat(matches("[!a]", "[")).isTrue();
        assertThat(matches("[!a]", "!")).isTrue();
        assertThat(matches("[!a]", "b")).isTrue();
        assertThat(matches("[!a]", "a")).isFalse();
        assertThat(matches("[!a]", "/")).isFalse();
        assertThat(matches("[^a]", "^")).isTrue();
        assertThat(matches("[^a]", "b")).isFalse();
    }

    @Test
    void aClassOfManyMembers() {
        StringBuilder members = new StringBuilder();
        for (char c = 'A'; c <= 'z'; c++) {
            if (c != '[' && c != '\\' && c != ']' && c != '^' && c != '-') {
                members.append(c);
            }
        }
        GlobMatcher glob = GlobMatcher.compile("[" + members + "]");
        assertThat(glob.matches("q")).isTrue();
        assertThat(glob.matches("Z")).isTrue();
        assertThat(glob.matches("0")).isFalse();
    }

    @Test
    void manyEmptyAlternativesAreFollowedWithinTheStackTheyNeed() {
        String glob = "{" + ",".repeat(300) + "}x{" + ",".repeat(300) + "a}";
        assertThat(matches(glob, "x")).isTrue();
        assertThat(matches(glob, "xa")).isTrue();
        assertThat(matches(glob, "xb")).isFalse();
    }

    @Test
    void theLiteralStartAndEndAreTestedFirst() {
        GlobMatcher java = GlobMatcher.compile("src/*.java");
        assertThat(java.hasEnds("src/A.java")).isTrue();
        assertThat(java.hasEnds("lib/A.java")).isFalse();
        assertThat(java.hasEnds("src/A.jav")).isFalse();
        assertThat(java.hasEnds("src/A.javaX")).isFalse();
        assertThat(java.hasEnds("src/")).isFalse();
        GlobMatcher literal = GlobMatcher.compile("ab");
        assertThat(literal.hasEnds("ab")).isTrue();
        assertThat(literal.hasEnds("a")).isFalse();
        assertThat(literal.hasEnds("b")).isFalse();
        // a group or a class ends the literal part: every text passes the quick test
        assertThat(GlobMatcher.compile("*.{java,kt}").hasEnds("x")).isTrue();
        assertThat(GlobMatcher.compile("{a,b}c").hasEnds("xc")).isTrue();
        assertThat(GlobMatcher.compile("{a,b}c").hasEnds("xd")).isFalse();
        assertThat(GlobMatcher.compile("[ab]*d").hasEnds("zd")).isTrue();
        // a character outside the Basic Multilingual Plane ends it too
        GlobMatcher emoji = GlobMatcher.compile("a\uD83D\uDE00*");
        assertThat(emoji.hasEnds("ab")).isTrue();
        assertThat(emoji.hasEnds("ba")).isFalse();
        GlobMatcher tail = GlobMatcher.compile("*\uD83D\uDE00x");
        assertThat(tail.hasEnds("\uD83D\uDE00x")).isTrue();
        assertThat(tail.hasEnds("yx")).isTrue();
        assertThat(tail.hasEnds("xy")).isFalse();
    }
}
