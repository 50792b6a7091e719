package dev.mero.core.ops;

import dev.mero.core.catalogue.ToolHints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Tool hints as bindings publish them, the details an approver reads, and the search's deadline text. */
class HintsDetailsDeadlineTest {

    @Test
    void hintsAreReadBackAndPublishedAsMetadataInAFixedOrder() {
        ToolHints hints = ToolHints.of(false, true, false, true);
        assertThat(hints.readOnly()).isFalse();
        assertThat(hints.destructive()).isTrue();
        assertThat(hints.idempotent()).isFalse();
        assertThat(hints.openWorld()).isTrue();
        assertThat(hints.asMetadata()).containsExactly(Map.entry("readOnlyHint", false),
                Map.entry("destructiveHint", true), Map.entry("idempotentHint", false),
                Map.entry("openWorldHint", true));
        ToolHints other = ToolHints.of(true, false, true, false);
        assertThat(other.idempotent()).isTrue();
        assertThat(other.openWorld()).isFalse();
        assertThat(hints).isEqualTo(ToolHints.of(false, true, false, true))
                .hasSameHashCodeAs(ToolHints.of(false, true, false, true))
                .isNotEqualTo(other)
                .isNotEqualTo(ToolHints.of(false, true, false, false))
                .isNotEqualTo(hints.asMetadata());
        assertThat(hints.toString()).contains("destructiveHint=true", "openWorldHint=true");
    }

    @Test
    void anApproverSeesTheWholeSizeAndAtMostTheFirst4000Characters() {
        assertThat(ApprovalDetails.content("New contents", "héllo"))
                .isEqualTo("New contents (6 bytes):\nhéllo");
        String exactly = "x".repeat(ApprovalDetails.PREVIEW_CHARS);
        assertThat(ApprovalDetails.content("New contents", exactly))
                .isEqualTo("New contents (4000 bytes):\n" + exactly);
        assertThat(ApprovalDetails.content("Appended text", exactly + "yz"))
                .isEqualTo("Appended text (4002 bytes, first 4000 characters):\n" + exactly);
        assertThat(ApprovalDetails.edit("--- a/p\n")).isEqualTo("Diff (8 characters):\n--- a/p\n");
        assertThat(ApprovalDetails.content("New contents", "")).isEqualTo("New contents (0 bytes):\n");
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        String text = "x".repeat(ApprovalDetails.PREVIEW_CHARS - 1) + "\uD83D\uDE00" + "tail";
        assertThat(ApprovalDetails.content("New contents", text))
                .isEqualTo("New contents (4007 bytes, first 3999 characters):\n" + "x".repeat(3999));
        String pairInside = "x".repeat(ApprovalDetails.PREVIEW_CHARS - 2) + "\uD83D\uDE00" + "tail";
        assertThat(ApprovalDetails.edit(pairInside))
                .isEqualTo("Diff (4004 characters, first 4000 characters):\n" + pairInside.substring(0, 4000));
    }

    @Test
    void aPassedDeadlineStopsAMatcherReadingTheTextAndAFutureOneDoesNot() {
        String text = "a".repeat(10_000);
        DeadlineText passed = new DeadlineText(text, System.nanoTime() - 1_000_000_000L);
        assertThatThrownBy(() -> {
            for (int i = 0; i < text.length(); i++) {
                passed.charAt(i);
            }
        }).isInstanceOf(DeadlineText.Expired.class);
        DeadlineText future = new DeadlineText(text, System.nanoTime() + 3_600_000_000_000L);
        assertThat(future.length()).isEqualTo(10_000);
        assertThat(future.toString()).isEqualTo(text);
        assertThat(com.google.re2j.Pattern.compile("a+$").matcher(future).find()).isTrue();
        DeadlineText line = new DeadlineText("one\ntwo\n", System.nanoTime() + 3_600_000_000_000L).window(4, 7);
        assertThat(line.length()).isEqualTo(3);
        assertThat(line.charAt(0)).isEqualTo('t');
        assertThat(line.toString()).isEqualTo("two");
        assertThat(line.subSequence(1, 3).toString()).isEqualTo("wo");
        assertThat(com.google.re2j.Pattern.compile("^two$").matcher(line).find()).isTrue();
        DeadlineText late = new DeadlineText("x".repeat(10_000), System.nanoTime() - 1_000_000_000L).window(10, 9000);
        assertThatThrownBy(() -> com.google.re2j.Pattern.compile("(x|xx)+y").matcher(late).find())
                .isInstanceOf(DeadlineText.Expired.class);
        CharSequence part = new DeadlineText("abcdef", System.nanoTime() - 1_000_000_000L).subSequence(1, 4);
        assertThat(part.toString()).isEqualTo("bcd");
        assertThatThrownBy(() -> {
            for (int i = 0; i < 5000; i++) {
                part.charAt(i % 3);
            }
        }).isInstanceOf(DeadlineText.Expired.class);
    }
}
