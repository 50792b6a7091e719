package dev.mero.core.ops;

/**
 * A unified diff between two texts that differ in one region or several, in the form {@code diff -u} prints:
 * {@code --- a/path}, {@code +++ b/path}, then hunks with three lines of context. Lines are compared after
 * trimming the common prefix and suffix, which is exact for the replacements {@code edit_file} makes.
 *
 * <p>The texts are compared in place, by index, and the diff is rendered only up to a number of characters while
 * the length of the whole is counted: a diff of a megabyte-sized edit costs no more memory than what is shown.
 */
final class UnifiedDiff {

    private static final int CONTEXT = 3;
    private static final String NO_NEWLINE = "\n\\ No newline at end of file\n";

    /**
     * A diff, possibly cut.
     *
     * @param text   its first characters, at most the number asked for
     * @param length the length of the whole diff
     */
    record Rendered(String text, long length) {
    }

    private UnifiedDiff() {
    }

    /**
     * Renders the whole diff.
     *
     * @param path   the file's virtual path, for the header
     * @param before the old text
     * @param after  the new text
     * @return the diff, empty when the texts are equal
     */
    static String of(String path, String before, String after) {
        return of(path, before, after, Integer.MAX_VALUE).text();
    }

    /**
     * Renders the first characters of the diff and counts the length of the whole.
     *
     * @param path     the file's virtual path, for the header
     * @param before   the old text
     * @param after    the new text
     * @param maxChars how many characters of the diff to render
     * @return the diff, empty when the texts are equal
     */
    static Rendered of(String path, String before, String after, int maxChars) {
        if (before.equals(after)) {
            return new Rendered("", 0);
        }
        int lengthA = before.length();
        int lengthB = after.length();
        int same = 0;
        while (same < lengthA && same < lengthB && before.charAt(same) == after.charAt(same)) {
            same++;
        }
        // the equal leading lines end at the last line break before the first difference
        int prefixEnd = before.lastIndexOf('\n', same - 1) + 1;
        int suffix = equalTrailingLines(before, after, prefixEnd);
        int changedEndA = lengthA - suffix;
        int changedEndB = lengthB - suffix;
        int contextStart = prefixEnd;
        int contextBefore = 0;
        while (contextBefore < CONTEXT && contextStart > 0) {
            contextStart = before.lastIndexOf('\n', contextStart - 2) + 1;
            contextBefore++;
        }
        int contextEnd = changedEndA;
        int contextAfter = 0;
        while (contextAfter < CONTEXT && contextEnd < lengthA) {
            int lineBreak = before.indexOf('\n', contextEnd);
            contextEnd = lineBreak < 0 ? lengthA : lineBreak + 1;
            contextAfter++;
        }
        int start = count(before, 0, contextStart);
        int linesA = contextBefore + lines(before, prefixEnd, changedEndA) + contextAfter;
        int linesB = contextBefore + lines(after, prefixEnd, changedEndB) + contextAfter;
        Out out = new Out(maxChars);
        String shown = DirectoryListing.displayName(path);
        out.append("--- a" + shown + "\n+++ b" + shown + "\n@@ -" + range(start, linesA) + " +"
                + range(start, linesB) + " @@\n");
        out.lines(' ', before, contextStart, prefixEnd);
        out.lines('-', before, prefixEnd, changedEndA);
        out.lines('+', after, prefixEnd, changedEndB);
        out.lines(' ', before, changedEndA, contextEnd);
        return new Rendered(out.text.toString(), out.length);
    }

    /**
     * How many characters the equal trailing lines of both texts take, not reaching into the equal leading lines
     * that end at {@code prefixEnd}.
     */
    private static int equalTrailingLines(String before, String after, int prefixEnd) {
        int lengthA = before.length();
        int lengthB = after.length();
        int limit = Math.min(lengthA, lengthB) - prefixEnd;
        int common = 0;
        while (common < limit && before.charAt(lengthA - 1 - common) == after.charAt(lengthB - 1 - common)) {
            common++;
        }
        if (lineStart(before, lengthA - common) && lineStart(after, lengthB - common)) {
            return common;
        }
        // within the common end, a line starts at the same distance from the end in both texts
        int lineBreak = before.indexOf('\n', lengthA - common);
        return lineBreak < 0 ? 0 : lengthA - 1 - lineBreak;
    }

    private static boolean lineStart(String text, int index) {
        return index == 0 || text.charAt(index - 1) == '\n';
    }

    /** The number of line breaks in {@code text[from, to)}. */
    private static int count(String text, int from, int to) {
        int count = 0;
        for (int i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) {
            count++;
        }
        return count;
    }

    /** The number of lines in {@code text[from, to)}, a last one without a line break included. */
    private static int lines(String text, int from, int to) {
        return count(text, from, to) + (to > from && text.charAt(to - 1) != '\n' ? 1 : 0);
    }

    private static String range(int start, int length) {
        return length == 0 ? start + ",0" : (start + 1) + (length == 1 ? "" : "," + length);
    }

    /** The diff's text up to a number of characters, and the length of all of it. */
    private static final class Out {
        final StringBuilder text = new StringBuilder();
        final int max;
        long length;

        Out(int max) {
            this.max = max;
        }

        void append(char c) {
            length++;
            if (text.length() < max) {
                text.append(c);
            }
        }

        void append(CharSequence part) {
            append(part, 0, part.length());
        }

        void append(CharSequence part, int from, int to) {
            length += to - from;
            int room = max - text.length();
            if (room > 0) {
                text.append(part, from, to - from <= room ? to : from + room);
            }
        }

        /** Each line of {@code source[from, to)} after a marker, with a note where the last has no line break. */
        void lines(char marker, String source, int from, int to) {
            int start = from;
            while (start < to) {
                int lineBreak = source.indexOf('\n', start);
                int end = lineBreak < 0 || lineBreak >= to ? to : lineBreak + 1;
                append(marker);
                append(source, start, end);
                if (source.charAt(end - 1) != '\n') {
                    append(NO_NEWLINE);
                }
                start = end;
            }
        }
    }
}
