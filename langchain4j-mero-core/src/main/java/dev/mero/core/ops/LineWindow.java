package dev.mero.core.ops;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A window of a file's lines read from a stream: the bytes of lines {@code offset .. offset + limit - 1},
 * cut at a line boundary to fit a byte limit (a single longer line is cut inside), plus how many lines the
 * file has, counted up to a scan limit. Never reads more than the scan limit, whatever the file holds.
 */
final class LineWindow {

    /** The first bytes of a file that are checked for NUL, even when the window starts later. */
    private static final int SNIFF_BYTES = 8192;

    final byte[] bytes;
    final int firstLine;
    final int lastLine;
    final long totalLines;
    final boolean totalKnown;
    final boolean cutInsideLine;
    final boolean binary;
    final long fileBytes;

    private LineWindow(byte[] bytes, int firstLine, int lastLine, long totalLines, boolean totalKnown,
                       boolean cutInsideLine, boolean binary, long fileBytes) {
        this.bytes = bytes;
        this.firstLine = firstLine;
        this.lastLine = lastLine;
        this.totalLines = totalLines;
        this.totalKnown = totalKnown;
        this.cutInsideLine = cutInsideLine;
        this.binary = binary;
        this.fileBytes = fileBytes;
    }

    /**
     * Reads a window.
     *
     * @param in        the file, read from its start
     * @param offset    the first line, 1-based
     * @param limit     most lines
     * @param maxBytes  most bytes in the window
     * @param maxScan   most bytes read in all
     * @return the window
     * @throws IOException if the file cannot be read
     */
    static LineWindow read(InputStream in, int offset, int limit, int maxBytes, long maxScan) throws IOException {
        ByteArrayOutputStream window = new ByteArrayOutputStream(Math.min(maxBytes, 64 * 1024));
        byte[] buffer = new byte[8192];
        long line = 1;
        long read = 0;
        int lastComplete = 0;
        long lastCompleteLine = offset - 1L;
        boolean capturing = offset == 1;
        boolean done = false;
        boolean cutInside = false;
        boolean binary = false;
        boolean endedWithNewline = true;
        boolean eof = false;
        long windowLines = 0;
        while (read < maxScan) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, maxScan - read));
            if (n < 0) {
                eof = true;
                break;
            }
            for (int i = 0; i < n; i++) {
                byte b = buffer[i];
                long position = read + i;
                if (b == 0 && (position < SNIFF_BYTES || capturing && !done)) {
                    binary = true;
                }
                if (capturing && !done) {
                    if (window.size() == maxBytes) {
                        done = true;
                        if (lastComplete == 0) {
                            cutInside = true;
                            lastComplete = window.size();
                            lastCompleteLine = line;
                        }
                    } else {
                        window.write(b);
                    }
                }
                endedWithNewline = b == '\n';
                if (b == '\n') {
                    if (capturing && !done) {
                        lastComplete = window.size();
                        lastCompleteLine = line;
                        windowLines++;
                        if (windowLines == limit) {
                            done = true;
                        }
                    }
                    line++;
                    if (line == offset) {
                        capturing = true;
                    }
                }
            }
            read += n;
        }
        long totalLines = endedWithNewline ? line - 1 : line;
        if (read == 0) {
            totalLines = 0;
        }
        if (capturing && !done) {
            // the window reached the end of what was read
            lastComplete = window.size();
            lastCompleteLine = totalLines;
        }
        byte[] all = window.toByteArray();
        byte[] bytes = lastComplete == all.length ? all : java.util.Arrays.copyOf(all, lastComplete);
        return new LineWindow(bytes, offset, (int) Math.min(Integer.MAX_VALUE, lastCompleteLine), totalLines, eof,
                cutInside, binary, read);
    }
}
