package dev.mero.core.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mero.core.MeroToolsException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolParameter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random and hostile arguments (paths, command lines, JSON of every shape) for every tool of the catalogue,
 * through {@link MeroOperations#call(String, String)}: every result is a normal answer or a clean
 * {@code Denied: ...} / {@code Error: ...} (a {@link MeroToolsException}; anything else propagates and fails the
 * property), and nothing outside the mounts changes. The seed is fixed, so a CI run replays exactly.
 */
class HostileToolInputProperties {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static Path root;
    private static Path outside;
    private static MeroOperations ops;
    private static List<String> outsideBefore;

    @BeforeContainer
    static void workspace() throws IOException {
        root = Files.createTempDirectory("mero-hostile").toRealPath();
        Path ws = Files.createDirectories(root.resolve("ws"));
        Path docs = Files.createDirectories(root.resolve("docs"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret\n");
        Files.writeString(ws.resolve("a.txt"), "alpha\nbeta\n");
        Files.writeString(docs.resolve("guide.md"), "# guide\n");
        Files.createDirectories(ws.resolve("sub/deeper"));
        Files.createSymbolicLink(ws.resolve("escape"), outside);
        Files.createSymbolicLink(ws.resolve("secret-link"), outside.resolve("secret.txt"));
        ops = MeroOperations.forContext(SecurityContext.builder().name("hostile")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.DELETE))
                .path(PathEntry.of(docs.toString(), "docs", Permission.READ))
                .allowCommand("true").allowCommand("ls").denyCommand("ls -R")
                .build());
        outsideBefore = snapshot(outside);
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    @Property(tries = 400, seed = "20261201")
    void everyToolAnswersCleanlyAndNothingOutsideTheMountsChanges(@ForAll("tools") String tool,
                                                                   @ForAll("arguments") String json) {
        String answer;
        try {
            answer = ops.call(tool, json);
        } catch (MeroToolsException refused) {
            answer = refused.toModelText();
            assertThat(answer).matches("(?s)(Denied|Error): .+");
        }
        assertThat(answer).isNotNull().doesNotContain("secret\n").doesNotContain("Exception:")
                .doesNotContain("\tat ");
        assertThat(snapshot(outside)).isEqualTo(outsideBefore);
        try (Stream<Path> top = Files.list(root)) {
            assertThat(top.map(path -> path.getFileName().toString()).sorted()).containsExactly("docs", "outside", "ws");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Provide
    Arbitrary<String> tools() {
        List<String> names = ToolCatalogue.standard().tools().stream().map(ToolDescriptor::name).toList();
        return Arbitraries.oneOf(Arbitraries.of(names), Arbitraries.of(names), Arbitraries.of("", "READ_FILE",
                "read_file ", "../read_file", "rm", "\u0000"));
    }

    @Provide
    Arbitrary<String> arguments() {
        Arbitrary<String> wellShaped = Combinators.combine(Arbitraries.of(parameterNames()).list().ofMaxSize(5),
                values().list().ofMaxSize(5)).as(HostileToolInputProperties::object);
        Arbitrary<String> malformed = Arbitraries.oneOf(Arbitraries.of("", " ", "{", "}", "[]", "null", "42",
                "\"path\"", "{\"path\":", "{\"path\":\"/ws/a.txt\"}}", "{\"path\":\"/ws/a.txt\",}",
                "{\"path\":\"/ws/a.txt\" \"content\":\"x\"}", "{\"path\":{\"$ref\":\"/etc/passwd\"}}",
                "{\"path\":[\"/ws/a.txt\"]}", "{\"path\":null}", "{\"path\":\"/ws/a.txt\",\"path\":\"/etc/passwd\"}",
                "{\"__proto__\":{}}", "\uFEFF{\"path\":\"/ws/a.txt\"}"),
                Arbitraries.strings().all().ofMaxLength(60));
        return Arbitraries.frequencyOf(
                Tuple.of(6, wellShaped), Tuple.of(1, malformed));
    }

    private static List<String> parameterNames() {
        return ToolCatalogue.standard().tools().stream().flatMap(tool -> tool.parameters().stream())
                .map(ToolParameter::name).distinct().collect(Collectors.toList());
    }

    private static Arbitrary<Object> values() {
        Arbitrary<String> hostilePaths = Arbitraries.of("/ws/a.txt", "a.txt", "/ws", "/", "/docs/guide.md",
                "/docs/new.md", "/ws/../outside/secret.txt", "../outside/secret.txt", "/ws/escape/secret.txt",
                "/ws/escape", "/ws/secret-link", "/ws/sub/../../outside", "/ws/sub/deeper", "/ws/new/dir/f.txt",
                "/etc/passwd", "/proc/self/environ", "/dev/zero", "~/x", "$HOME/x", "${PWD}", "/ws/a\u0000b",
                "/ws/a\nb", "/ws/\u202Etxt.exe", "/ws/" + "x".repeat(300), "/ws/" + "d/".repeat(200), "//ws//a.txt",
                "/ws/./a.txt", "\\ws\\a.txt", "file:///etc/passwd", "/WS/a.txt", "/ws/*", "**/*", "*.txt", "[",
                "(a+)+$", ".*", "ls", "ls -la /ws", "ls -R /", "true", "cat /etc/passwd", "ls; rm -rf /",
                "ls $(id)", "ls `id`", "ls | sh", "ls > /ws/out", "rm -rf /ws", "/bin/sh -c id");
        Arbitrary<Object> paths = Arbitraries.oneOf(hostilePaths,
                Combinators.combine(hostilePaths, Arbitraries.strings().all().ofMaxLength(12)).as((a, b) -> a + b),
                Arbitraries.strings().all().ofMaxLength(30)).map(s -> s);
        Arbitrary<Object> others = Arbitraries.oneOf(Arbitraries.integers().between(-5, 100_000).map(i -> (Object) i),
                Arbitraries.of(true, false).map(b -> (Object) b), Arbitraries.just(Map.of("a", 1)),
                Arbitraries.just(List.of("x")), Arbitraries.longs().map(l -> (Object) l));
        return Arbitraries.frequencyOf(Tuple.of(5, paths), Tuple.of(1, others));
    }

    private static String object(List<String> keys, List<Object> values) {
        Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            object.put(keys.get(i), i < values.size() ? values.get(i) : "/ws/a.txt");
        }
        try {
            return JSON.writeValueAsString(object);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every path under {@code dir} (relative to the root), with its type and content. */
    private static List<String> snapshot(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.map(path -> {
                try {
                    String name = root.relativize(path).toString();
                    if (Files.isSymbolicLink(path)) {
                        return name + " -> " + Files.readSymbolicLink(path);
                    }
                    if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                        return name + " = " + Files.readString(path);
                    }
                    return name + "/";
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
