package dev.mero.core.ops;


import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.mero.core.PathEntry;
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
    /** The mount of the searched files, for the confined opens ({@link ConfinedCalls}); {@code null}: none. */
    private final PathEntry entry;
    /** The directory whose files {@link #files} opens, or {@code null}. */
    private SecureDirectory filesOf;
    /** Its files through the confined calls, or {@code null} where they do not decide. */
    private ListedFiles files;
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
        this(pattern, prefilter, maxFileBytes, maxLines, null);
    }

    /**
     * Prepares a scanner that opens the files of one mount through the kernel's confined calls where they decide
     * ({@link ConfinedCalls#listedFiles}); call {@link #release()} when a batch is done.
     *
     * @param entry the mount every searched file is in, or {@code null} to open each through its directory only
     */
    FileScanner(Pattern pattern, LiteralPrefilter prefilter, int maxFileBytes, int maxLines, PathEntry entry) {
        this.entry = entry;
        this.matcher = pattern.matcher("");
        this.prefilter = prefilter;
        this.maxFileBytes = maxFileBytes;
        this.maxLines = maxLines;
    }

    /**
     * Searches one file.
     *
     * @param parent   its open directory
     * @param name     its name there, listed as a regular file
     * @param size     its size when it was listed, or {@code -1} where the listing gave its type only (then its
     *                 size when it is opened)
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
     * further than the size it had when it was listed, or opened where the listing gave only its type (a file that
     * grows meanwhile is searched as it was then; a file that reports no size is read to its end). Opened through
     * the kernel's confined calls where they decide ({@link ListedFiles}), else through its open directory.
     */
    private int read(SecureDirectory parent, String name, long size, int limit) throws IOException {
        ListedFiles confined = filesOf(parent);
        if (confined != null) {
            SecureDirectory.beforeOpen.accept(name);
            if (confined.open(name)) {
                try {
                    return read(confined::read, wanted(size < 0 ? confined.size() : size, limit), limit);
                } catch (IOException e) {
                    // not a plain success: the JDK's path decides, as it always has
                } finally {
                    confined.closeFile();
                }
            }
        }
        try (SeekableByteChannel channel = parent.openListedFile(name)) {
            return read((into, offset, length) -> channel.read(ByteBuffer.wrap(into, offset, length)),
                    wanted(size < 0 ? channel.size() : size, limit), limit);
        }
    }

    /** How many bytes to read of a file of a given size: all, up to the limit; a file of no size to its end. */
    private static int wanted(long size, int limit) {
        return size > 0 && size < limit ? (int) size : limit;
    }

    /** Reads until {@code wanted} bytes or the end, growing {@link #buffer} up to {@code limit}. */
    private int read(Source source, int wanted, int limit) throws IOException {
        int length = 0;
        while (length < wanted) {
            if (length == buffer.length) {
                buffer = Arrays.copyOf(buffer, (int) Math.min(limit, 2L * buffer.length));
            }
            int read = source.read(buffer, length, Math.min(buffer.length, limit) - length);
            if (read < 0) {
                break;
            }
            length += read;
        }
        return length;
    }

    /** Where a file's bytes come from. */
    private interface Source {
        int read(byte[] into, int offset, int length) throws IOException;
    }

    /**
     * The confined opens of a directory's files, kept while the files searched one after the other are in it (a
     * batch holds the files of one directory); {@code null} where the confined calls do not decide.
     */
    private ListedFiles filesOf(SecureDirectory parent) {
        if (entry == null) {
            return null;
        }
        if (parent != filesOf) {
            release();
            filesOf = parent;
            files = ConfinedCalls.current().listedFiles(entry, parent);
        }
        return files;
    }

    /** Closes what the confined opens keep open; the scanner opens it again when needed. */
    void release() {
        if (files != null) {
            files.close();
            files = null;
        }
        filesOf = null;
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
