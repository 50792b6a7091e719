package dev.mero.core.ops;

import java.nio.charset.StandardCharsets;

/**
 * What a human approving a change sees besides the action: the start of the new content, or the diff of an
 * edit. The text may be cut; the approval is bound to the complete change by the content digest that goes
 * with the request ({@link dev.mero.core.SecurityContext#guard(dev.mero.core.guard.Operation, String, String, String)}),
 * never by this preview.
 */
final class ApprovalDetails {

    /** How much of a change's text an approver sees. */
    static final int PREVIEW_CHARS = 4000;

    private ApprovalDetails() {
    }

    /**
     * Details of a write: the size of the complete new content, then its start.
     *
     * @param label e.g. {@code "New contents"} or {@code "Appended text"}
     * @param text  the complete text
     * @return the details
     */
    static String content(String label, String text) {
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        return preview(label + " (" + bytes + " bytes", text);
    }

    /**
     * Details of an edit: its diff.
     *
     * @param diff the unified diff
     * @return the details
     */
    static String edit(String diff) {
        return edit(diff, diff.length());
    }

    /**
     * Details of an edit: its diff, of which only the start may have been rendered.
     *
     * @param diff   the diff, or at least its first {@value #PREVIEW_CHARS} characters
     * @param length the length of the whole diff
     * @return the details
     */
    static String edit(String diff, long length) {
        return preview("Diff (" + length + " characters", diff, length);
    }

    private static String preview(String header, String text) {
        return preview(header, text, text.length());
    }

    private static String preview(String header, String text, long length) {
        int shown = Math.min(text.length(), PREVIEW_CHARS);
        if (shown < text.length() && shown > 0 && Character.isHighSurrogate(text.charAt(shown - 1))) {
            shown--;
        }
        return header + (shown < length ? ", first " + shown + " characters" : "") + "):\n"
                + text.substring(0, shown);
    }
}
