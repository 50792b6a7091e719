package dev.mero.core.ops;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * A quick test on a file's raw bytes that a regular expression which is only a literal (such as {@code needle},
 * {@code a\.b} or {@code (?i)todo}) cannot match any of its lines, so that such a file is neither decoded nor
 * split into lines, as {@code grep} scans bytes.
 *
 * <p>The test is only ever a necessary condition: a file it passes is searched line by line exactly as any other,
 * so results never depend on it. It is sound because every character of UTF-8 decoded text comes from adjacent
 * bytes of the file, except U+FFFD (which replaces invalid bytes) and the dropped byte-order mark: a literal
 * with neither a U+FFFD nor a lone surrogate occurs in the decoded text only where its UTF-8 bytes occur in the
 * file. With {@code (?i)} only an all-ASCII literal is used, compared with ASCII case folding; an ASCII byte in
 * UTF-8 is always that character. RE2 folds case by Unicode, under which {@code k} also matches the Kelvin sign
 * (U+212A) and {@code s} the long s (U+017F), so a folded literal with either letter has no prefilter.
 */
final class LiteralPrefilter {

    private static final String METACHARACTERS = "\\^$.|?*+()[]{}";
    private static final String CASE_INSENSITIVE = "(?i)";
    /** ASCII letters that case-fold to a character outside ASCII. */
    private static final String NON_ASCII_FOLDS = "kKsS";

    private final byte[] needle;
    private final boolean ignoreAsciiCase;

    private LiteralPrefilter(byte[] needle, boolean ignoreAsciiCase) {
        this.needle = needle;
        this.ignoreAsciiCase = ignoreAsciiCase;
    }

    /**
     * The prefilter for a regular expression, if it is a literal this class can test.
     *
     * @param regex the expression as given (already compiled successfully)
     * @return the prefilter, or empty when the expression is more than a literal
     */
    static Optional<LiteralPrefilter> of(String regex) {
        boolean ignoreCase = regex.startsWith(CASE_INSENSITIVE);
        String body = ignoreCase ? regex.substring(CASE_INSENSITIVE.length()) : regex;
        StringBuilder literal = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\') {
                // a backslash before a character that is neither a letter nor a digit quotes it
                if (i + 1 == body.length() || Character.isLetterOrDigit(body.charAt(i + 1))) {
                    return Optional.empty();
                }
                c = body.charAt(++i);
            } else if (METACHARACTERS.indexOf(c) >= 0) {
                return Optional.empty();
            }
            if (c == '\uFFFD' || ignoreCase && (c > 0x7F || NON_ASCII_FOLDS.indexOf(c) >= 0)) {
                return Optional.empty();
            }
            literal.append(c);
        }
        if (literal.length() == 0) {
            return Optional.empty();
        }
        try {
            ByteBuffer encoded = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(literal));
            byte[] bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
            if (ignoreCase) {
                for (int i = 0; i < bytes.length; i++) {
                    bytes[i] = lower(bytes[i]);
                }
            }
            return Optional.of(new LiteralPrefilter(bytes, ignoreCase));
        } catch (CharacterCodingException e) {
            // a lone surrogate has no UTF-8 form
            return Optional.empty();
        }
    }

    /**
     * Tells whether the literal's bytes occur in a buffer.
     *
     * @param bytes  the file's bytes
     * @param length how many of them are used
     * @return {@code false} if no line of the file can match
     */
    boolean mayMatch(byte[] bytes, int length) {
        byte first = needle[0];
        int last = length - needle.length;
        if (!ignoreAsciiCase) {
            // candidates found eight bytes at a time
            int end = last + 1;
            for (int i = Bytes.indexOf(bytes, first, 0, end); i >= 0; i = Bytes.indexOf(bytes, first, i + 1, end)) {
                if (matchesAt(bytes, i)) {
                    return true;
                }
            }
            return false;
        }
        for (int i = 0; i <= last; i++) {
            if (at(bytes[i]) == first && matchesAt(bytes, i)) {
                return true;
            }
        }
        return false;
    }

    private boolean matchesAt(byte[] bytes, int start) {
        for (int j = 1; j < needle.length; j++) {
            if (at(bytes[start + j]) != needle[j]) {
                return false;
            }
        }
        return true;
    }

    private byte at(byte b) {
        return ignoreAsciiCase ? lower(b) : b;
    }

    private static byte lower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + ('a' - 'A')) : b;
    }
}
