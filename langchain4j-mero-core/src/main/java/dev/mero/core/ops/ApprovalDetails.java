package dev.mero.core.ops;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What a human approving a change sees besides the action, and the digest that binds the approval to the
 * exact change: the SHA-256 of the complete new content (or of the complete edit), never of a prefix. The
 * text shown may be cut; the digest covers everything.
 *
 * <p>This is the one place where operations hand a digest to the approval side; it is carried in the
 * approval details until the approval request has a field of its own for it.
 */
final class ApprovalDetails {

    /** How much of a change's text an approver sees. */
    static final int PREVIEW_CHARS = 4000;

    private ApprovalDetails() {
    }

    /**
     * Details of a write: the digest and size of the complete new content, then its start.
     *
     * @param label e.g. {@code "New contents"} or {@code "Appended text"}
     * @param text  the complete text
     * @return the details
     */
    static String content(String label, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return "SHA-256: " + sha256(bytes) + "\n" + preview(label + " (" + bytes.length + " bytes", text);
    }

    /**
     * Details of an edit: the digest of the whole edit (path, old text, new text, mode) and the diff.
     *
     * @param virtualPath the file
     * @param oldText     the text replaced
     * @param newText     its replacement
     * @param replaceAll  whether every occurrence is replaced
     * @param diff        the unified diff
     * @return the details
     */
    static String edit(String virtualPath, String oldText, String newText, boolean replaceAll, String diff) {
        String whole = virtualPath + '\u0000' + oldText + '\u0000' + newText + '\u0000' + replaceAll;
        return "SHA-256: " + sha256(whole.getBytes(StandardCharsets.UTF_8)) + "\n" + preview("Diff (" + diff.length()
                + " characters", diff);
    }

    /**
     * The lowercase hex SHA-256 of bytes.
     *
     * @param bytes the bytes
     * @return 64 hex digits
     */
    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    private static String preview(String header, String text) {
        int shown = Math.min(text.length(), PREVIEW_CHARS);
        if (shown < text.length() && Character.isHighSurrogate(text.charAt(shown - 1))) {
            shown--;
        }
        return header + (shown < text.length() ? ", first " + shown + " characters" : "") + "):\n"
                + text.substring(0, shown);
    }
}
