package dev.mero.mcp;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into lines ({@code \n}, {@code \r\n} or {@code \r} ends one), each bounded in length.
 * Not thread-safe: one reader at a time (the transport hands the reading from thread to thread, which the
 * hand-over orders).
 */
final class LineReader {

    private final InputStream in;
    private final int maxLineBytes;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private boolean afterCarriageReturn;

    LineReader(InputStream in, int maxLineBytes) {
        this.in = in;
        this.maxLineBytes = maxLineBytes;
    }

    /**
     * Reads the next line.
     *
     * @return the line's bytes without its terminator; {@code null} at the end of input (a last line without a
     *         terminator is still returned)
     * @throws LineTooLongException if a line is longer than the limit
     * @throws IOException          if reading fails
     */
    byte[] next() throws IOException {
        byte[] line = null;
        int length = 0;
        while (true) {
            if (position == limit) {
                int read = in.read(buffer, 0, buffer.length);
                if (read < 0) {
                    return line == null ? null : Arrays.copyOf(line, length);
                }
                position = 0;
                limit = read;
            }
            if (afterCarriageReturn) {
                afterCarriageReturn = false;
                if (buffer[position] == '\n') {
                    position++;
                    continue;
                }
            }
            int start = position;
            int end = start;
            while (end < limit && buffer[end] != '\n' && buffer[end] != '\r') {
                end++;
            }
            int chunk = end - start;
            if (length + chunk > maxLineBytes) {
                throw new LineTooLongException();
            }
            if (line == null && end < limit) {
                position = end + 1;
                afterCarriageReturn = buffer[end] == '\r';
                return Arrays.copyOfRange(buffer, start, end);
            }
            if (line == null) {
                line = new byte[Math.max(chunk * 2, 1024)];
            } else if (line.length < length + chunk) {
                line = Arrays.copyOf(line, Math.max(line.length * 2, length + chunk));
            }
            System.arraycopy(buffer, start, line, length, chunk);
            length += chunk;
            position = end;
            if (end < limit) {
                position = end + 1;
                afterCarriageReturn = buffer[end] == '\r';
                return Arrays.copyOf(line, length);
            }
        }
    }

    /** A line longer than the reader's limit. */
    static final class LineTooLongException extends IOException {

        private static final long serialVersionUID = 1L;

        LineTooLongException() {
            super("Input line too long");
        }
    }
}
