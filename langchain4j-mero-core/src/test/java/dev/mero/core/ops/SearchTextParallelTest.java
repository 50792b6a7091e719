package dev.mero.core.ops;

import dev.mero.core.catalogue.ToolCatalogue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code search_text} on two threads (the files of a directory searched in batches by the caller and a helper)
 * says exactly what it says on one: the same lines in the same order, the same counts, the same notes about the
 * match limit, the entry limit, cut files and denied directories, and never follows a link or enters a denied
 * subtree.
 */
class SearchTextParallelTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        for (int d = 0; d < 4; d++) {
            Path dir = Files.createDirectories(w.ws.resolve("d" + d));
            for (int f = 0; f < 150; f++) {
                String name = String.format("f%03d.txt", f);
                if (f % 17 == 3) {
                    Files.write(dir.resolve(name), ("needle\0binary " + f).getBytes(StandardCharsets.UTF_8));
                } else if (f % 5 == 0) {
                    Files.writeString(dir.resolve(name), "x\n".repeat(f % 7) + "a needle in " + d + "/" + f + "\r\n"
                            + (f % 10 == 0 ? "needle again" : "tail\n"));
                } else {
                    Files.writeString(dir.resolve(name), "hay ".repeat(f) + "\n");
                }
            }
            Files.writeString(dir.resolve("long.txt"), "y".repeat(100) + "\nneedle after the cut\n");
        }
        Path secret = Files.createDirectories(w.ws.resolve("d1/secret"));
        Files.writeString(secret.resolve("hidden.txt"), "needle in a denied directory\n");
        Files.writeString(w.outside.resolve("linked.txt"), "needle outside\n");
        Files.createSymbolicLink(w.ws.resolve("d2/link.txt"), w.outside.resolve("linked.txt"));
        Files.createSymbolicLink(w.ws.resolve("d2/out"), w.outside);
        context = w.contextBuilder()
                .path(PathEntry.builder().path(secret).slug("secret").deny(Permission.READ).build()).build();
    }

    private String search(int threads, OperationLimits limits, String pattern, String glob) {
        Map<String, Object> arguments = new HashMap<>(Map.of("path", "/ws", "pattern", pattern));
        if (glob != null) {
            arguments.put("glob", glob);
        }
        SearchText search = new SearchText(context, limits, threads);
        return search.run(ToolArguments.of(ToolCatalogue.standard().find("search_text").orElseThrow(), arguments));
    }

    private String same(OperationLimits limits, String pattern, String glob) {
        String one = search(1, limits, pattern, glob);
        assertThat(search(2, limits, pattern, glob)).isEqualTo(one);
        return one;
    }

    @Test
    void twoThreadsGiveWhatOneGives() {
        OperationLimits defaults = OperationLimits.builder().maxSearchFileBytes(64).build();
        String all = same(defaults, "needle", null);
        assertThat(all).startsWith("168 matching lines for 'needle' in '/ws' (searched 569 files):\n"
                        + "/ws/d0/f000.txt:1: a needle in 0/0U+000D\n/ws/d0/f000.txt:2: needle again\n"
                        + "/ws/d0/f005.txt:6: a needle in 0/5U+000D")
                .doesNotContain("binary", "hidden", "outside", "after the cut", "/ws/d2/link.txt")
                .contains(" files were searched only in its first 64 bytes.]")
                .contains("[1 directory was not searched: no READ permission there.]");
        assertThat(same(defaults, "ne+dle\\s", null)).contains("/ws/d3/f145.txt:6: a needle in 3/145");
        assertThat(same(defaults, "(?i)NEEDLE AGAIN", "d2/*")).startsWith("14 matching lines");
    }

    @Test
    void theLimitsCutAtTheSamePlace() {
        for (int matches : new int[] {1, 3, 44, 45, 171, 172}) {
            String out = same(OperationLimits.builder().maxSearchMatches(matches).build(), "needle", null);
            assertThat(out.lines().filter(line -> line.startsWith("/ws/")).count()).isEqualTo(matches);
        }
        for (int entries : new int[] {1, 64, 65, 151, 200, 400}) {
            assertThat(same(OperationLimits.builder().maxScanEntries(entries).build(), "needle", null))
                    .contains("[Incomplete: stopped after " + entries + " entries; search a smaller directory.]");
        }
        assertThat(same(OperationLimits.builder().maxScanEntries(100).maxSearchMatches(5).build(), "needle", null))
                .contains("[Truncated: showing the first 5 matches").doesNotContain("Incomplete");
    }
}
