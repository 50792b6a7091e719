package dev.mero.core.ops;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finding and counting one byte value in a byte array eight bytes at a time: the scans that {@code read_file}
 * and {@code search_text} run over every byte they read (line ends, NUL bytes).
 */
final class Bytes {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long LOW_SEVEN = 0x7F7F7F7F7F7F7F7FL;

    private Bytes() {
    }

    /**
     * The first position of a byte value in a range.
     *
     * @param bytes the array
     * @param value the byte looked for
     * @param from  the first position, inclusive
     * @param to    the end, exclusive
     * @return the position, or {@code -1} if the range does not hold it
     */
    static int indexOf(byte[] bytes, byte value, int from, int to) {
        long pattern = ONES * (value & 0xFF);
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long hits = zeroBytes((long) LONGS.get(bytes, i) ^ pattern);
            if (hits != 0) {
                return i + (Long.numberOfTrailingZeros(hits) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (bytes[i] == value) {
                return i;
            }
        }
        return -1;
    }

    /**
     * How often a byte value occurs in a range.
     *
     * @param bytes the array
     * @param value the byte counted
     * @param from  the first position, inclusive
     * @param to    the end, exclusive
     * @return the count
     */
    static int count(byte[] bytes, byte value, int from, int to) {
        long pattern = ONES * (value & 0xFF);
        int count = 0;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            count += Long.bitCount(zeroBytes((long) LONGS.get(bytes, i) ^ pattern));
        }
        for (; i < to; i++) {
            if (bytes[i] == value) {
                count++;
            }
        }
        return count;
    }

    /**
     * Whether a range holds a NUL byte: the binary check of a whole small file, three operations a word.
     *
     * @param bytes the array
     * @param from  the first position, inclusive
     * @param to    the end, exclusive
     * @return {@code true} if a NUL byte occurs
     */
    static boolean containsNul(byte[] bytes, int from, int to) {
        long nul = 0;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i);
            // a high bit here for some byte exactly when the word has a zero byte (the short form, exact as a whole)
            nul |= (word - ONES) & ~word;
        }
        boolean found = (nul & ~LOW_SEVEN) != 0;
        for (; i < to; i++) {
            found |= bytes[i] == 0;
        }
        return found;
    }

    /**
     * How often a byte value occurs in a range, and whether a NUL byte does, in one pass: {@code read_file}'s
     * line count and binary check of a small file read whole.
     *
     * @param bytes the array
     * @param value the byte counted (not NUL)
     * @param from  the first position, inclusive
     * @param to    the end, exclusive
     * @return the count, or {@code -1 - count} when the range also holds a NUL byte
     */
    static int countUnlessNul(byte[] bytes, byte value, int from, int to) {
        long pattern = ONES * (value & 0xFF);
        int count = 0;
        long nul = 0;
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i);
            count += Long.bitCount(zeroBytes(word ^ pattern));
            // some byte of the word is zero exactly when this has a high bit set (the short form, exact as a whole)
            nul |= (word - ONES) & ~word;
        }
        boolean hasNul = (nul & ~LOW_SEVEN) != 0;
        for (; i < to; i++) {
            count += bytes[i] == value ? 1 : 0;
            hasNul |= bytes[i] == 0;
        }
        return hasNul ? -1 - count : count;
    }

    /** The high bit of exactly those bytes of a word that are zero (no false positives, unlike the short form). */
    private static long zeroBytes(long word) {
        long lowNonZero = (word & LOW_SEVEN) + LOW_SEVEN;
        return ~(lowNonZero | word | LOW_SEVEN);
    }
}
