package dev.mero.core.command;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The captured bytes of one output stream: the first {@code limit} bytes are kept, everything after them is
 * counted and discarded, so memory stays bounded however much a command writes.
 *
 * <p>{@link #text()} decodes the kept bytes as UTF-8, replacing malformed input with U+FFFD whatever the
 * bytes are, and never cuts a multi-byte character in half at the cap: a character the cap would split is
 * left out entirely and counted as not shown. A truncated text ends with a marker saying how many bytes
 * were left out.
 *
 * <p>Thread-safe: the draining thread writes while another thread may read.
 */
final class BoundedOutput {

    private static final int INITIAL_CAPACITY = 8192;

    private final int limit;
    private byte[] kept;
    private int keptCount;
    private long totalBytes;

    BoundedOutput(int limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("Output limit " + limit + " must be positive");
        }
        this.limit = limit;
        this.kept = new byte[Math.min(limit, INITIAL_CAPACITY)];
    }

    /** Appends bytes: keeps what fits under the limit, counts the rest. */
    synchronized void write(byte[] bytes, int offset, int length) {
        totalBytes += length;
        int taken = Math.min(length, limit - keptCount);
        if (taken <= 0) {
            return;
        }
        if (keptCount + taken > kept.length) {
            kept = Arrays.copyOf(kept, Math.min(limit, Math.max(keptCount + taken, kept.length * 2)));
        }
        System.arraycopy(bytes, offset, kept, keptCount, taken);
        keptCount += taken;
    }

    /** How many bytes the stream produced in all, shown or not. */
    synchronized long totalBytes() {
        return totalBytes;
    }

    /** Whether some bytes were left out because of the limit. */
    synchronized boolean truncated() {
        return totalBytes > keptCount;
    }

    /** The kept bytes decoded as UTF-8, followed by the truncation marker when bytes were left out. */
    synchronized String text() {
        if (!truncated()) {
            return decode(keptCount);
        }
        int shown = characterBoundary(kept, keptCount);
        return decode(shown) + truncationMarker(totalBytes - shown);
    }

    /**
     * The marker appended to a truncated stream.
     *
     * @param notShown how many bytes are left out
     * @return {@code \n[... output truncated: N more bytes not shown ...]}
     */
    static String truncationMarker(long notShown) {
        return "\n[... output truncated: " + notShown + (notShown == 1 ? " more byte" : " more bytes")
                + " not shown ...]";
    }

    /**
     * Backs {@code end} off to the start of a UTF-8 sequence that would otherwise be cut: if the bytes
     * before {@code end} end with an incomplete multi-byte character, the index of its lead byte; else
     * {@code end}.
     */
    static int characterBoundary(byte[] bytes, int end) {
        for (int i = end - 1; i >= Math.max(0, end - 4); i--) {
            int b = bytes[i] & 0xFF;
            if ((b & 0xC0) == 0x80) {
                continue; // a continuation byte: the lead byte is further back
            }
            return i + sequenceLength(b) > end ? i : end;
        }
        return end; // no lead byte close enough: malformed anyway, decoded as replacement characters
    }

    private static int sequenceLength(int leadByte) {
        if ((leadByte & 0xE0) == 0xC0) {
            return 2;
        }
        if ((leadByte & 0xF0) == 0xE0) {
            return 3;
        }
        if ((leadByte & 0xF8) == 0xF0) {
            return 4;
        }
        return 1; // ASCII, or a byte that starts no valid sequence
    }

    private String decode(int length) {
        // new String(..., UTF_8) replaces malformed and unmappable input with U+FFFD; it never throws
        return new String(kept, 0, length, StandardCharsets.UTF_8);
    }
}
