package dev.mero.core.ops;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A window of a file's lines read from a stream: the bytes of lines {@code offset .. offset + limit - 1},
 * cut at a line boundary to fit a byte limit (a single longer line is cut inside), plus how many lines the
 * file has, counted up to a scan limit. Never reads more than the scan limit, whatever the file holds.
 *
 * <p>The bytes are handled a line segment at a time ({@link Bytes}), not one by one: this is the hot loop of
 * {@code read_file}. A small whole file is read into a spare buffer, which the window then shares ({@link #buffer})
 * until it is {@linkplain #release() released}: the text made from it is the only array allocated per read.
 */
final class LineWindow {

    /** The first bytes of a file that are checked for NUL, even when the window starts later. */
    private static final int SNIFF_BYTES = 8192;
    private static final int MIN_BUFFER = 512;
    private static final int MAX_BUFFER = 8192;

    private static final byte[] NO_BYTES = new byte[0];
    /**
     * Spare buffers for small whole files, one slot per stripe of thread ids: a read takes its stripe's buffer (or
     * allocates one when another read holds it) and its window puts it back when released. A slot costs one atomic
     * exchange; a thread-local's look-up missed its slot often enough on a busy thread to cost more.
     */
    private static final AtomicReferenceArray<byte[]> SPARE = new AtomicReferenceArray<>(16);

    /** The window's bytes are {@code buffer[0 .. length)}; a spare buffer is reused once {@link #release}d. */
    final byte[] buffer;
    /** How many bytes the window holds. */
    final int length;
    final int firstLine;
    /** The window's last line; with {@link #totalLines}, counted when first asked for a {@link #wholeFile}. */
    private int lastLine;
    private long totalLines;
    final boolean totalKnown;
    /** The window is the whole file, from line 1 to its end, which was seen: no line cut, within the limit. */
    final boolean wholeFile;
    final boolean cutInsideLine;
    /** The file holds a NUL byte where one counts; for a whole file only known once {@link #binary()} asks. */
    private boolean binary;
    /** A whole file whose bytes were not yet searched for NUL: its decoded text can be searched instead. */
    private boolean nulsUnchecked;
    final long fileBytes;
    /** The stripe a spare buffer goes back to, or -1 when the buffer is the window's own. */
    private int spareSlot = -1;

    private LineWindow(byte[] buffer, int length, int firstLine, int lastLine, long totalLines, boolean totalKnown,
                       boolean cutInsideLine, boolean binary, long fileBytes) {
        this.buffer = buffer;
        this.length = length;
        this.firstLine = firstLine;
        this.lastLine = lastLine;
        this.totalLines = totalLines;
        this.wholeFile = totalLines < 0;
        this.totalKnown = totalKnown;
        this.cutInsideLine = cutInsideLine;
        this.binary = binary;
        this.nulsUnchecked = wholeFile;
        this.fileBytes = fileBytes;
    }

    /**
     * Gives a spare buffer back for the next read: the window's bytes must not be used after this.
     */
    void release() {
        if (spareSlot >= 0) {
            SPARE.set(spareSlot, buffer);
            spareSlot = -1;
        }
    }

    /**
     * The window's bytes, copied.
     *
     * @return a new array
     */
    byte[] bytes() {
        return Arrays.copyOf(buffer, length);
    }

    private LineWindow spare(int slot) {
        spareSlot = slot;
        return this;
    }

    /**
     * Whether the file looks binary: a NUL byte in its first {@value #SNIFF_BYTES} bytes or in the window.
     *
     * @return {@code true} if so
     */
    boolean binary() {
        if (nulsUnchecked) {
            binary = Bytes.containsNul(buffer, 0, length);
            nulsUnchecked = false;
        }
        return binary;
    }

    /**
     * Whether this is a {@link #wholeFile} whose bytes were not searched for NUL yet. Its text, once decoded, holds
     * U+0000 exactly where the bytes hold NUL (UTF-8 encodes nothing else to it), and {@link String#indexOf(int)}
     * finds it several times faster than a search of the bytes: the caller may look there instead of asking
     * {@link #binary()}.
     *
     * @return {@code true} if so
     */
    boolean nulsUnchecked() {
        return nulsUnchecked;
    }

    /**
     * The window's last line, 1-based (0 for none).
     *
     * @return the line number
     */
    int lastLine() {
        countWholeFile();
        return lastLine;
    }

    /**
     * How many lines the file has, as far as it was read ({@link #totalKnown}).
     *
     * @return the count
     */
    long totalLines() {
        countWholeFile();
        return totalLines;
    }

    /** A whole file's lines, counted only when asked: {@code read_file} returns a whole file as it is. */
    private void countWholeFile() {
        if (totalLines < 0) {
            long lines = Bytes.count(buffer, (byte) '\n', 0, length);
            totalLines = buffer[length - 1] == '\n' ? lines : lines + 1;
            lastLine = (int) totalLines;
        }
    }

    /** Where a window's bytes come from: reads into {@code b[off .. off + len)}, -1 at the end. */
    @FunctionalInterface
    interface Source {
        /**
         * Reads.
         *
         * @param b   the array
         * @param off where to start in it
         * @param len most bytes, at least 1
         * @return bytes read, at least 1, or -1 at the end
         * @throws IOException if the file cannot be read
         */
        int read(byte[] b, int off, int len) throws IOException;
    }

    /**
     * Reads a window from a stream.
     *
     * @param in        the file, read from its start
     * @param sizeHint  the file's size when it was opened, to size the buffers (the file may have changed)
     * @param offset    the first line, 1-based
     * @param limit     most lines
     * @param maxBytes  most bytes in the window
     * @param maxScan   most bytes read in all
     * @return the window
     * @throws IOException if the file cannot be read
     */
    static LineWindow read(InputStream in, long sizeHint, int offset, int limit, int maxBytes, long maxScan)
            throws IOException {
        return read(in::read, sizeHint, offset, limit, maxBytes, maxScan);
    }

    /**
     * Reads a window from a blocking channel, without a stream between them.
     *
     * @param in        the file, read from its start
     * @param sizeHint  the file's size when it was opened, to size the buffers (the file may have changed)
     * @param offset    the first line, 1-based
     * @param limit     most lines
     * @param maxBytes  most bytes in the window
     * @param maxScan   most bytes read in all
     * @return the window
     * @throws IOException if the file cannot be read
     */
    static LineWindow read(ReadableByteChannel in, long sizeHint, int offset, int limit, int maxBytes, long maxScan)
            throws IOException {
        return read((b, off, len) -> in.read(ByteBuffer.wrap(b, off, len)), sizeHint, offset, limit, maxBytes,
                maxScan);
    }

    private static LineWindow read(Source in, long sizeHint, int offset, int limit, int maxBytes, long maxScan)
            throws IOException {
        // a buffer one byte larger than the file sees the end in the same read; the window fits the file exactly
        int buffer = (int) Math.max(MIN_BUFFER, Math.min(MAX_BUFFER, Math.min(sizeHint, maxScan) + 1));
        int window = (int) Math.max(0, Math.min(maxBytes, Math.min(sizeHint, MAX_BUFFER)));
        Scan scan = new Scan(offset, limit, maxBytes, window);
        if (offset == 1 && sizeHint > 0 && sizeHint < buffer && sizeHint <= maxBytes && sizeHint < maxScan) {
            return scan.whole(in, (int) sizeHint, maxScan, buffer);
        }
        return scan.run(in, maxScan, new byte[buffer]);
    }

    /** The state of one read, fed a chunk at a time. */
    private static final class Scan {

        private final int offset;
        private final int limit;
        private final int maxBytes;
        private final int windowSize;
        private byte[] window;
        private int size;
        private long line = 1;
        private long read;
        private int lastComplete;
        private long lastCompleteLine;
        private boolean capturing;
        private boolean done;
        private boolean cutInside;
        private boolean binary;
        private boolean endedWithNewline = true;
        private long windowLines;

        Scan(int offset, int limit, int maxBytes, int window) {
            this.offset = offset;
            this.limit = limit;
            this.maxBytes = maxBytes;
            this.windowSize = window;
            this.lastCompleteLine = offset - 1L;
            this.capturing = offset == 1;
        }

        /**
         * A small file read from its first line, in one pass: up to one byte more than its {@code size} goes into
         * a spare buffer, which becomes the window, and a read that brings no more shows the end. The window
         * is the whole file when the end came at {@code size} and the file has fewer lines than the limit (what
         * {@link #run} would find, without copying the bytes a second time); otherwise the bytes read so far are
         * scanned as {@link #run} scans and the read goes on.
         */
        LineWindow whole(Source in, int size, long maxScan, int buffer) throws IOException {
            @SuppressWarnings("deprecation") // threadId() is Java 19+; getId() is the same number
            int slot = (int) (Thread.currentThread().getId() & (SPARE.length() - 1));
            byte[] spare = SPARE.getAndSet(slot, null);
            byte[] bytes = spare != null ? spare : new byte[MAX_BUFFER];
            int n = 0;
            int chunk;
            while (n <= size && (chunk = in.read(bytes, n, size + 1 - n)) >= 0) {
                n += chunk;
            }
            if (n == size) {
                if (limit > size) {
                    // at most size lines, so within the limit: lines and NUL bytes are looked for when asked
                    return new LineWindow(bytes, size, offset, -1, -1, true, false, false, size).spare(slot);
                }
                // line ends and NUL bytes counted in one pass over the bytes
                int counted = Bytes.countUnlessNul(bytes, (byte) '\n', 0, size);
                long lines = counted < 0 ? -1L - counted : counted;
                if (lines < limit) {
                    long totalLines = bytes[size - 1] == '\n' ? lines : lines + 1;
                    return new LineWindow(bytes, size, offset, (int) totalLines, totalLines, true, false, counted < 0,
                            size).spare(slot);
                }
            }
            if (n > 0) {
                // copied into the window as it is scanned: the spare buffer is not kept
                feed(bytes, n);
            }
            SPARE.set(slot, bytes);
            return run(in, maxScan, new byte[buffer]);
        }

        LineWindow run(Source in, long maxScan, byte[] buffer) throws IOException {
            boolean eof = false;
            while (read < maxScan) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, maxScan - read));
                if (n < 0) {
                    eof = true;
                    break;
                }
                feed(buffer, n);
            }
            long totalLines = read == 0 ? 0 : endedWithNewline ? line - 1 : line;
            if (capturing && !done) {
                // the window reached the end of what was read
                lastComplete = size;
                lastCompleteLine = totalLines;
            }
            byte[] bytes = window == null ? NO_BYTES : window;
            return new LineWindow(bytes, window == null ? 0 : lastComplete, offset, (int) Math.min(Integer.MAX_VALUE, lastCompleteLine), totalLines, eof,
                    cutInside, binary, read);
        }

        /** Takes the next {@code n} bytes read. */
        private void feed(byte[] buffer, int n) {
            if (n > 0) {
                chunk(buffer, n);
                endedWithNewline = buffer[n - 1] == '\n';
            }
            read += n;
        }

        /** Takes {@code buffer[0..n)}, the bytes at file positions {@code read .. read + n - 1}. */
        private void chunk(byte[] buffer, int n) {
            int i = 0;
            while (i < n) {
                if (!capturing) {
                    // before the window: skip one line
                    int newline = Bytes.indexOf(buffer, (byte) '\n', i, n);
                    int end = newline < 0 ? n : newline + 1;
                    sniff(buffer, i, end);
                    i = end;
                    if (newline >= 0) {
                        line++;
                        capturing = line == offset;
                    }
                } else if (done) {
                    // after the window: only count lines (and sniff the file's start)
                    sniff(buffer, i, n);
                    line += Bytes.count(buffer, (byte) '\n', i, n);
                    i = n;
                } else {
                    i = capture(buffer, i, n);
                }
            }
        }

        /** Adds one line segment to the window, or as much as fits; returns where the next segment starts. */
        private int capture(byte[] buffer, int from, int n) {
            int newline = Bytes.indexOf(buffer, (byte) '\n', from, n);
            int end = newline < 0 ? n : newline + 1;
            int room = maxBytes - size;
            if (end - from <= room) {
                binary |= Bytes.indexOf(buffer, (byte) 0, from, end) >= 0;
                append(buffer, from, end - from);
                if (newline >= 0) {
                    lastComplete = size;
                    lastCompleteLine = line;
                    windowLines++;
                    done = windowLines == limit;
                    line++;
                }
                return end;
            }
            // the window fills inside this segment; the byte after the last one that fits ends it
            int trigger = from + room;
            binary |= Bytes.indexOf(buffer, (byte) 0, from, trigger + 1) >= 0;
            append(buffer, from, room);
            done = true;
            if (lastComplete == 0) {
                cutInside = true;
                lastComplete = size;
                lastCompleteLine = line;
            }
            if (buffer[trigger] == '\n') {
                line++;
            }
            return trigger + 1;
        }

        /** A NUL among the file's first {@link #SNIFF_BYTES} bytes marks it binary, wherever the window is. */
        private void sniff(byte[] buffer, int from, int to) {
            long sniffEnd = SNIFF_BYTES - read;
            if (from < sniffEnd) {
                binary |= Bytes.indexOf(buffer, (byte) 0, from, (int) Math.min(to, sniffEnd)) >= 0;
            }
        }

        private void append(byte[] buffer, int from, int length) {
            if (window == null) {
                window = new byte[windowSize];
            }
            if (size + length > window.length) {
                window = Arrays.copyOf(window, (int) Math.min(maxBytes,
                        Math.max(size + length, Math.max(MAX_BUFFER, 2L * window.length))));
            }
            System.arraycopy(buffer, from, window, size, length);
            size += length;
        }
    }
}
