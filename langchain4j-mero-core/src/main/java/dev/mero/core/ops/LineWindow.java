package dev.mero.core.ops;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * A window of a file's lines read from a stream: the bytes of lines {@code offset .. offset + limit - 1},
 * cut at a line boundary to fit a byte limit (a single longer line is cut inside), plus how many lines the
 * file has, counted up to a scan limit. Never reads more than the scan limit, whatever the file holds.
 *
 * <p>The bytes are handled a line segment at a time ({@link Bytes}), not one by one: this is the hot loop of
 * {@code read_file}.
 */
final class LineWindow {

    /** The first bytes of a file that are checked for NUL, even when the window starts later. */
    private static final int SNIFF_BYTES = 8192;
    private static final int MIN_BUFFER = 512;
    private static final int MAX_BUFFER = 8192;

    final byte[] bytes;
    final int firstLine;
    /** The window's last line; with {@link #totalLines}, counted when first asked for a {@link #wholeFile}. */
    private int lastLine;
    private long totalLines;
    final boolean totalKnown;
    /** The window is the whole file, from line 1 to its end, which was seen: no line cut, within the limit. */
    final boolean wholeFile;
    final boolean cutInsideLine;
    final boolean binary;
    final long fileBytes;

    private LineWindow(byte[] bytes, int firstLine, int lastLine, long totalLines, boolean totalKnown,
                       boolean cutInsideLine, boolean binary, long fileBytes) {
        this.bytes = bytes;
        this.firstLine = firstLine;
        this.lastLine = lastLine;
        this.totalLines = totalLines;
        this.wholeFile = totalLines < 0;
        this.totalKnown = totalKnown;
        this.cutInsideLine = cutInsideLine;
        this.binary = binary;
        this.fileBytes = fileBytes;
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
            long lines = Bytes.count(bytes, (byte) '\n', 0, bytes.length);
            totalLines = bytes[bytes.length - 1] == '\n' ? lines : lines + 1;
            lastLine = (int) totalLines;
        }
    }

    /**
     * Reads a window.
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
         * A small file read from its first line, in one pass: its {@code size} bytes go straight into the array
         * that becomes the window, and one more read shows the end. The window is the whole file when the end
         * came there and the file has fewer lines than the limit (what {@link #run} would find, without copying
         * the bytes a second time); otherwise the bytes read so far are scanned as {@link #run} scans and the
         * read goes on.
         */
        LineWindow whole(InputStream in, int size, long maxScan, int buffer) throws IOException {
            byte[] bytes = new byte[size];
            int n = in.readNBytes(bytes, 0, size);
            int next = n < size ? -1 : in.read();
            if (next < 0 && n == size && limit > size) {
                // at most size lines, so within the limit: only the NUL bytes are looked for now
                return new LineWindow(bytes, offset, -1, -1, true, false, Bytes.containsNul(bytes, 0, size), size);
            }
            // line ends and NUL bytes counted in one pass over the bytes
            int counted = Bytes.countUnlessNul(bytes, (byte) '\n', 0, n);
            long lines = counted < 0 ? -1L - counted : counted;
            if (next < 0 && n == size && lines < limit) {
                long totalLines = bytes[size - 1] == '\n' ? lines : lines + 1;
                return new LineWindow(bytes, offset, (int) totalLines, totalLines, true, false, counted < 0, size);
            }
            if (n > 0) {
                feed(bytes, n);
            }
            if (next >= 0 && read < maxScan) {
                feed(new byte[] {(byte) next}, 1);
            }
            return run(in, maxScan, new byte[buffer]);
        }

        LineWindow run(InputStream in, long maxScan, byte[] buffer) throws IOException {
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
            byte[] bytes = window == null ? new byte[0]
                    : lastComplete == window.length ? window : Arrays.copyOf(window, lastComplete);
            return new LineWindow(bytes, offset, (int) Math.min(Integer.MAX_VALUE, lastCompleteLine), totalLines, eof,
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
