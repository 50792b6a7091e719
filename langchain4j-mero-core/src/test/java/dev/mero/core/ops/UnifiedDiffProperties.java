package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The diff compared in place by index says exactly what the diff of split line lists said (the reference below is
 * the former implementation), and a diff cut to a number of characters is the start of the whole, with its length.
 */
class UnifiedDiffProperties {

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.of("a", "b", "\n", "\n", "ab\n").list().ofMaxSize(14).map(parts -> String.join("", parts));
    }

    @Property(tries = 3000)
    void theDiffIsTheDiffOfTheLineLists(@ForAll("texts") String before, @ForAll("texts") String after) {
        assertThat(UnifiedDiff.of("/p", before, after)).isEqualTo(reference("/p", before, after));
    }

    @Property(tries = 500)
    void aCutDiffIsTheStartOfTheWhole(@ForAll("texts") String before, @ForAll("texts") String after,
                                      @ForAll @IntRange(max = 60) int max) {
        String whole = UnifiedDiff.of("/p", before, after);
        UnifiedDiff.Rendered cut = UnifiedDiff.of("/p", before, after, max);
        assertThat(cut.length()).isEqualTo(whole.length());
        assertThat(cut.text()).isEqualTo(whole.substring(0, Math.min(max, whole.length())));
    }

    /** The former implementation: lists of lines, common prefix and suffix of lines. */
    private static String reference(String path, String before, String after) {
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
        int start = Math.max(0, prefix - 3);
        int endA = Math.min(a.size(), a.size() - suffix + 3);
        int endB = Math.min(b.size(), b.size() - suffix + 3);
        StringBuilder out = new StringBuilder();
        out.append("--- a").append(path).append('\n').append("+++ b").append(path).append('\n');
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
        out.append(marker).append(line);
        if (!line.endsWith("\n")) {
            out.append("\n\\ No newline at end of file\n");
        }
    }

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
