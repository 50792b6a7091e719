package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * For any bytes and any literal, {@code search_text} with the literal (byte prefilter) says exactly what it says
 * with the same literal as a group (a regular expression, no prefilter), including counts and line numbers.
 */
class SearchTextFastPathProperties {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] ALPHABET = {'a', 'b', 'A', '\n', '\r', 0, (byte) 0xC3, (byte) 0xA9, (byte) 0xFF,
            (byte) 0xEF, (byte) 0xBF, (byte) 0xBD};

    private Path root;
    private MeroOperations ops;
    private MeroOperations uncut;

    @BeforeProperty
    void setUp() throws IOException {
        root = Files.createTempDirectory("fastpath").toRealPath();
        OpsWorkspace w = new OpsWorkspace(root);
        ops = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxSearchFileBytes(24).maxSearchMatches(5).build()).build();
        uncut = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxSearchMatches(5).build()).build();
    }

    @AfterProperty
    void tearDown() throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    @Provide
    Arbitrary<byte[]> contents() {
        return Arbitraries.integers().between(0, ALPHABET.length - 1).list().ofMaxSize(40)
                .map(indexes -> {
                    byte[] bytes = new byte[indexes.size()];
                    for (int i = 0; i < bytes.length; i++) {
                        bytes[i] = ALPHABET[indexes.get(i)];
                    }
                    return bytes;
                });
    }

    @Provide
    Arbitrary<String> literals() {
        Arbitrary<String> text = Arbitraries.of("a", "b", "A", "\u00E9", "\uFFFD", "\r").list().ofMinSize(1).ofMaxSize(3)
                .map(parts -> String.join("", parts));
        return Arbitraries.oneOf(text, text.map(t -> "(?i)" + t));
    }

    @Property(tries = 150)
    void theLiteralAndItsRegexSayTheSame(@ForAll("contents") byte[] first, @ForAll("contents") byte[] second,
                                         @ForAll("literals") String literal) throws IOException {
        Path ws = root.resolve("ws");
        Files.write(ws.resolve("first.txt"), first);
        Files.write(ws.resolve("second.txt"), second);
        String body = literal.startsWith("(?i)") ? literal.substring(4) : literal;
        String regex = (literal.startsWith("(?i)") ? "(?i)" : "") + "(?:" + body + ")";
        String fast = search(literal);
        String slow = search(regex);
        assertThat(fast).isEqualTo(slow.replace(dev.mero.core.message.Messages.quote(regex),
                dev.mero.core.message.Messages.quote(literal)));
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.of("a", "b", " ", "\n", "\r", "\u00E9").list().ofMaxSize(30)
                .map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<String> regexes() {
        return Arbitraries.of("^a", "a$", "^$", "b\\z", "\\Ab", "\\bab\\b", "a+b", "a\\r", "\\r$", "b$", "^\\s*$",
                "[^a]", "a.b", "\\Bb", "(?m)^b", "(?s)a.", "\u00E9$");
    }

    /**
     * Matching a line of the whole decoded file answers as RE2/J matching the line on its own, without its
     * line break ({@code '\n'}, or {@code "\r\n"}).
     */
    @Property(tries = 200)
    void aRegexMatchesEachLineAsOnItsOwn(@ForAll("texts") String text, @ForAll("regexes") String regex)
            throws IOException {
        Files.writeString(root.resolve("ws").resolve("first.txt"), text);
        Files.deleteIfExists(root.resolve("ws").resolve("second.txt"));
        com.google.re2j.Pattern pattern = com.google.re2j.Pattern.compile(regex);
        List<String> expected = new java.util.ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            boolean lastAndEmpty = i == lines.length - 1 && lines[i].isEmpty();
            String line = lines[i].endsWith("\r") ? lines[i].substring(0, lines[i].length() - 1) : lines[i];
            if (!lastAndEmpty && pattern.matcher(line).find() && expected.size() < 5) {
                expected.add("/ws/first.txt:" + (i + 1) + ":");
            }
        }
        String out = uncut.call("search_text", JSON.writeValueAsString(Map.of("path", "/ws", "pattern", regex)));
        List<String> found = out.lines().filter(line -> line.startsWith("/ws/first.txt:"))
                .map(line -> line.substring(0, line.indexOf(':', "/ws/first.txt:".length()) + 1)).toList();
        assertThat(found).isEqualTo(expected);
    }

    private String search(String pattern) throws IOException {
        return ops.call("search_text", JSON.writeValueAsString(Map.of("path", "/ws", "pattern", pattern)));
    }
}
