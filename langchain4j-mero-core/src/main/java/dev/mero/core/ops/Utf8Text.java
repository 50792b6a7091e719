package dev.mero.core.ops;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Bytes read from a file, decoded as UTF-8 text. Invalid sequences become U+FFFD and are counted, so a
 * file in another 8-bit encoding is still readable and the model is told what was replaced.
 */
final class Utf8Text {

    private static final char REPLACEMENT = '\uFFFD';
    private static final char BYTE_ORDER_MARK = '\uFEFF';

    private final String text;
    private final int replaced;

    private Utf8Text(String text, int replaced) {
        this.text = text;
        this.replaced = replaced;
    }

    /**
     * Tells whether bytes look binary: text files never contain a NUL byte.
     *
     * @param bytes  the buffer
     * @param length how many bytes of it are used
     * @return {@code true} if a NUL byte occurs
     */
    static boolean isBinary(byte[] bytes, int length) {
        return Bytes.indexOf(bytes, (byte) 0, 0, length) >= 0;
    }

    /**
     * The length of a text in UTF-8, as {@link String#getBytes(java.nio.charset.Charset)} encodes it (a lone
     * surrogate becomes one {@code '?'}), counted without encoding it.
     *
     * @param text the text
     * @return its length in bytes
     */
    static long encodedLength(CharSequence text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    /**
     * Decodes bytes; a leading byte-order mark is dropped.
     *
     * @param bytes    the buffer
     * @param length   how many bytes of it are used
     * @param complete {@code false} when the bytes are a prefix of the file, so that a character cut in
     *                 half at the end is dropped rather than reported as invalid
     * @return the decoded text
     */
    static Utf8Text decode(byte[] bytes, int length, boolean complete) {
        // valid UTF-8 (nearly every file) decodes in one pass; any invalid or cut sequence shows as U+FFFD and
        // takes the counting decoder below, as does a file that really holds U+FFFD
        String text = new String(bytes, 0, length, StandardCharsets.UTF_8);
        if (text.indexOf(REPLACEMENT) < 0) {
            return new Utf8Text(!text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK ? text.substring(1) : text, 0);
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, length);
        // UTF-8 never decodes to more chars than bytes, and each replacement stands for at least one byte
        CharBuffer out = CharBuffer.allocate(length);
        int replaced = 0;
        CoderResult result = decoder.decode(in, out, complete);
        while (result.isError()) {
            out.put(REPLACEMENT);
            in.position(in.position() + result.length());
            replaced++;
            result = decoder.decode(in, out, complete);
        }
        if (complete) {
            decoder.flush(out);
        }
        out.flip();
        if (out.hasRemaining() && out.get(0) == BYTE_ORDER_MARK) {
            out.position(1);
        }
        return new Utf8Text(out.toString(), replaced);
    }

    /**
     * The decoded text.
     *
     * @return the text
     */
    String text() {
        return text;
    }

    /**
     * How many invalid byte sequences were replaced with U+FFFD.
     *
     * @return the count, usually 0
     */
    int replaced() {
        return replaced;
    }
}
