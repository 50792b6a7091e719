package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Globs that make a backtracking matcher run for minutes or hours ({@code *a*a*a*a*a*a*b} against a 255-character
 * name took the JDK's matcher about a minute) complete at once with {@link GlobMatcher}, through find_files and
 * search_text's glob, and match what they should.
 */
class GlobLinearTimeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration GENEROUS = Duration.ofSeconds(60);
    private static final String LONG_NAME = "a".repeat(255);

    @TempDir
    Path temp;
    OpsWorkspace w;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        Files.createDirectories(w.ws.resolve("deep/" + "a".repeat(200)));
        Files.writeString(w.ws.resolve(LONG_NAME), "x\n");
        Files.writeString(w.ws.resolve("deep/" + "a".repeat(200) + "/" + "a".repeat(254) + "b"), "x\n");
    }

    private String call(String tool, Map<String, String> arguments) {
        try {
            return OpsWorkspace.modelText(w.ops(), tool, JSON.writeValueAsString(arguments));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"*a*a*a*a*a*a*b", "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b", "**a**a**a**a**a**a**a**b",
        "{*a*a*a*a,*a*a*a*a*a}*a*a*a*a*b", "?*?*?*?*?*?*?*?*?*?*b", "*[a-z]*[a-z]*[a-z]*[a-z]*[!at]"})
    void backtrackingGlobsFindTheOneNameEndingInBAtOnce(String glob) {
        String found = assertTimeoutPreemptively(GENEROUS,
                () -> call("find_files", Map.of("path", "/ws", "pattern", glob)));
        assertThat(found).contains("a".repeat(254) + "b").doesNotContain(LONG_NAME + "\n").doesNotContain("notes");
        String searched = assertTimeoutPreemptively(GENEROUS,
                () -> call("search_text", Map.of("path", "/ws", "pattern", "x", "glob", glob)));
        assertThat(searched).startsWith("1 matching line").contains("a".repeat(254) + "b:1: x");
    }

    @Test
    void aGlobOfTheLongestLengthAgainstALongNameIsQuick() {
        String glob = "*a".repeat(499) + "*";
        boolean matched = assertTimeoutPreemptively(GENEROUS,
                () -> GlobMatcher.compile(glob).matches("a".repeat(255)));
        assertThat(matched).isFalse();
        assertThat(GlobMatcher.compile("*a".repeat(100) + "*").matches("ba".repeat(100))).isTrue();
        String alternatives = "{" + "a,".repeat(400) + "b}";
        assertThat(GlobMatcher.compile(alternatives + alternatives).matches("ab")).isTrue();
        assertThat(GlobMatcher.compile(alternatives + alternatives).matches("ac")).isFalse();
    }
}
