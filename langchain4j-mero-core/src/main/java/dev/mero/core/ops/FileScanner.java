package dev.mero.core.ops;

import static java.nio.file.StandardOpenOption.READ;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.mero.core.message.Messages;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Searches one file at a time for {@code search_text}: reads it through its open parent directory without
 * following a link, skips it as binary on a NUL byte in its first 8 KiB, tests a literal pattern on the raw bytes
 * first ({@link LiteralPrefilter}), and otherwise matches each line of the file decoded once, with RE2/J (linear in
 * the line, see {@link SearchPattern}). A line ends before its {@code '\n'}, and a {@code '\r'} before that is not
 * matched either, so {@code x$} finds {@code x} at the end of a CRLF line. Keeps its read buffer and matcher from
 * file to file, so one scanner serves one thread.
 */
final class FileScanner {

    private static final int FIRST_BUFFER = 64 * 1024;
    private static final int SNIFF_BYTES = 8192;
    private static final int MAX_LINE_CHARS = 300;

    /** What searching one file found: {@code path} is prefixed to each line when the results are merged. */
    static final class Found {
        /** Whether the file was read and is text (it counts as searched). */
        boolean searched;
        /** Whether only its first bytes were searched. */
        boolean cut;
        /** Whether the time limit stopped the search in this file. */
        boolean timedOut;
        /** {@code ":<line>: <text>"} of each matching line, at most the match limit plus one. */
        final List<String> lines = new ArrayList<>(0);
    }

    private final Matcher matcher;
    private final LiteralPrefilter prefilter;
    private final int maxFileBytes;
    private final int maxLines;
    private byte[] buffer = new byte[FIRST_BUFFER];

    /**
     * Prepares a scanner.
     *
     * @param pattern      the compiled pattern ({@link SearchPattern})
     * @param prefilter    the literal test on raw bytes, or {@code null}
     * @param maxFileBytes how many bytes of a file are searched
     * @param maxLines     how many matching lines one file may report (the match limit plus one, to tell it was
     *                     reached)
     */
    FileScanner(Pattern pattern, LiteralPrefilter prefilter, int maxFileBytes, int maxLines) {
        this.matcher = pattern.matcher("");
        this.prefilter = prefilter;
        this.maxFileBytes = maxFileBytes;
        this.maxLines = maxLines;
    }

    /**
     * Searches one file.
     *
     * @param parent   its open directory
     * @param name     its name there
     * @param size     its size when it was listed
     * @param deadline {@link System#nanoTime()} at which to stop
     * @return what it found; an unreadable file is not searched
     */
    Found scan(SecureDirectory parent, String name, long size, long deadline) {
        Found found = new Found();
        int length;
        try {
            length = read(parent, name, size, maxFileBytes + 1);
        } catch (IOException e) {
            // an unreadable file does not stop the search
            return found;
        }
        found.cut = length > maxFileBytes;
        if (found.cut) {
            length = maxFileBytes;
        }
        if (Utf8Text.isBinary(buffer, Math.min(length, SNIFF_BYTES))) {
            return found;
        }
        found.searched = true;
        if (prefilter != null && !prefilter.mayMatch(buffer, length)) {
            return found;
        }
        String text = Utf8Text.decode(buffer, length, !found.cut).text();
        DeadlineText line = new DeadlineText(text, deadline);
        int lineNumber = 0;
        int start = 0;
        try {
            while (start <= text.length() && found.lines.size() < maxLines) {
                int end = text.indexOf('\n', start);
                if (end < 0) {
                    end = text.length();
                    if (start == end) {
                        break;
                    }
                }
                lineNumber++;
                int matched = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
                if (matcher.reset(line.window(start, matched)).find()) {
                    found.lines.add(":" + lineNumber + ": " + shown(text.substring(start, end)));
                }
                start = end + 1;
            }
        } catch (DeadlineText.Expired e) {
            found.timedOut = true;
        }
        return found;
    }

    /**
     * Reads a file into {@link #buffer}, never following a link at its name: up to {@code limit} bytes, and no
     * further than the size it had when it was listed (a file that grows meanwhile is searched as it was listed;
     * a file that reports no size is read to its end).
     */
    private int read(SecureDirectory parent, String name, long size, int limit) throws IOException {
        int wanted = size > 0 && size < limit ? (int) size : limit;
        int length = 0;
        try (SeekableByteChannel channel = parent.newByteChannel(name, READ)) {
            while (length < wanted) {
                if (length == buffer.length) {
                    buffer = Arrays.copyOf(buffer, (int) Math.min(limit, 2L * buffer.length));
                }
                int read = channel.read(ByteBuffer.wrap(buffer, length, Math.min(buffer.length, limit) - length));
                if (read < 0) {
                    break;
                }
                length += read;
            }
        }
        return length;
    }

    private static String shown(String line) {
        String cut = line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) + " [...]" : line;
        StringBuilder out = new StringBuilder(cut.length());
        cut.codePoints().forEach(cp -> {
            if (cp == '\t') {
                out.append(' ');
            } else if (Messages.isControlOrInvisible(cp)) {
                out.append(Messages.codePoint(cp));
            } else {
                out.appendCodePoint(cp);
            }
        });
        return out.toString();
    }
}
