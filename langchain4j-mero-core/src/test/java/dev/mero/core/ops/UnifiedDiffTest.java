package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The diffs {@code edit_file} shows the model read as {@code diff -u} prints them (checked against GNU diff). */
class UnifiedDiffTest {

    private static final String TEN = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n";
    private static final String TWELVE = TEN + "l11\nl12\n";

    @Test
    void equalTextsHaveNoDiff() {
        assertThat(UnifiedDiff.of("/ws/a.txt", TEN, TEN)).isEmpty();
    }

    @Test
    void aChangedLineInTheMiddleShowsThreeLinesOfContextOnEachSide() {
        assertThat(UnifiedDiff.of("/ws/a.txt", TEN, TEN.replace("l5\n", "X\n")))
                .isEqualTo("--- a/ws/a.txt\n+++ b/ws/a.txt\n@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+X\n l6\n l7\n l8\n");
    }

    @Test
    void contextIsCutAtTheStartAndTheEndOfTheFile() {
        assertThat(UnifiedDiff.of("/ws/a.txt", TWELVE, TWELVE.replace("l1\n", "A\n")))
                .endsWith("@@ -1,4 +1,4 @@\n-l1\n+A\n l2\n l3\n l4\n");
        assertThat(UnifiedDiff.of("/ws/a.txt", TWELVE, TWELVE.replace("l12\n", "Z\n")))
                .endsWith("@@ -9,4 +9,4 @@\n l9\n l10\n l11\n-l12\n+Z\n");
    }

    @Test
    void addedAndRemovedLinesCountOnlyOnTheirSide() {
        assertThat(UnifiedDiff.of("/p", "a\n", "a\nb\n")).isEqualTo("--- a/p\n+++ b/p\n@@ -1 +1,2 @@\n a\n+b\n");
        assertThat(UnifiedDiff.of("/p", "x\nx\n", "x\n")).isEqualTo("--- a/p\n+++ b/p\n@@ -1,2 +1 @@\n x\n-x\n");
        assertThat(UnifiedDiff.of("/p", "", "a\n")).isEqualTo("--- a/p\n+++ b/p\n@@ -0,0 +1 @@\n+a\n");
        assertThat(UnifiedDiff.of("/p", "a\n", "")).isEqualTo("--- a/p\n+++ b/p\n@@ -1 +0,0 @@\n-a\n");
    }

    @Test
    void aMissingFinalNewlineIsMarkedAndIsADifferenceOfItsOwn() {
        assertThat(UnifiedDiff.of("/p", "a\nb", "a\nc")).isEqualTo("--- a/p\n+++ b/p\n@@ -1,2 +1,2 @@\n a\n-b\n"
                + "\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
        assertThat(UnifiedDiff.of("/p", "a\nb", "a\nb\n")).isEqualTo("--- a/p\n+++ b/p\n@@ -1,2 +1,2 @@\n a\n-b\n"
                + "\\ No newline at end of file\n+b\n");
    }
}
