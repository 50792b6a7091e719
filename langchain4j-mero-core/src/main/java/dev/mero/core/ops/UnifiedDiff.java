package dev.mero.core.ops;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff between two texts that differ in one region or several, in the form {@code diff -u} prints:
 * {@code --- a/path}, {@code +++ b/path}, then hunks with three lines of context. Lines are compared after
 * trimming the common prefix and suffix, which is exact for the replacements {@code edit_file} makes.
 */
final class UnifiedDiff {

    private static final int CONTEXT = 3;

    private UnifiedDiff() {
    }

    /**
     * Renders the diff.
     *
     * @param path   the file's virtual path, for the header
     * @param before the old text
     * @param after  the new text
     * @return the diff, empty when the texts are equal
     */
    static String of(String path, String before, String after) {
        if (before.equals(after)) {
            return "";
        }
        List<String> a = lines(before);
        List<String> b = lines(after);
        int prefix = 0;
        while (prefix < a.size() && prefix < b.size() && a.get(prefix).equals(b.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < a.size() - prefix && suffix < b.size() - prefix
                && a.get(a.size() - 1 - suffix).equals(b.get(b.size() - 1 - suffix))) {
            suffix++;
        }
        int start = Math.max(0, prefix - CONTEXT);
        int endA = Math.min(a.size(), a.size() - suffix + CONTEXT);
        int endB = Math.min(b.size(), b.size() - suffix + CONTEXT);
        StringBuilder out = new StringBuilder();
        String shown = DirectoryListing.displayName(path);
        out.append("--- a").append(shown).append('\n').append("+++ b").append(shown).append('\n');
        out.append("@@ -").append(range(start, endA - start)).append(" +").append(range(start, endB - start))
                .append(" @@\n");
        for (int i = start; i < prefix; i++) {
            line(out, ' ', a.get(i));
        }
        for (int i = prefix; i < a.size() - suffix; i++) {
            line(out, '-', a.get(i));
        }
        for (int i = prefix; i < b.size() - suffix; i++) {
            line(out, '+', b.get(i));
        }
        for (int i = a.size() - suffix; i < endA; i++) {
            line(out, ' ', a.get(i));
        }
        return out.toString();
    }

    private static String range(int start, int length) {
        return length == 0 ? start + ",0" : (start + 1) + (length == 1 ? "" : "," + length);
    }

    private static void line(StringBuilder out, char marker, String line) {
        out.append(marker);
        if (line.endsWith("\n")) {
            out.append(line);
        } else {
            out.append(line).append("\n\\ No newline at end of file\n");
        }
    }

    /** Lines with their terminators, so that a missing final newline is a difference too. */
    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                lines.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            lines.add(text.substring(start));
        }
        return lines;
    }
}
