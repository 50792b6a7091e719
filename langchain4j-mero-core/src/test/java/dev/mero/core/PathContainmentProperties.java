package dev.mero.core;

import dev.mero.core.path.ResolvedPath;

import static dev.mero.core.Permission.DELETE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * For random paths built from {@code ..}, {@code .}, names and symlinks (inside, outside, into another
 * mount, looping, dangling), anything {@code checkPathAccess} accepts has a canonical real path inside an
 * entry that grants the permission, and nothing but a {@link MeroToolsException} ever escapes a check.
 */
class PathContainmentProperties {

    private static Path base;
    private static Path ws;
    private static Path inner;
    private static Path docs;
    private static SecurityContext context;

    @BeforeContainer
    static void buildTree() throws IOException {
        base = Files.createTempDirectory("mero-prop").toRealPath();
        ws = Files.createDirectories(base.resolve("ws"));
        inner = Files.createDirectories(ws.resolve("a/inner"));
        docs = Files.createDirectories(base.resolve("docs"));
        Path outside = Files.createDirectories(base.resolve("outside"));
        Files.createDirectories(base.resolve("ws_evil"));
        Files.createDirectories(ws.resolve("b"));
        Files.writeString(ws.resolve("f.txt"), "f");
        Files.writeString(docs.resolve("g.txt"), "g");
        Files.writeString(outside.resolve("s.txt"), "s");
        Files.createSymbolicLink(ws.resolve("in"), Path.of("a"));
        Files.createSymbolicLink(ws.resolve("up"), Path.of("../outside"));
        Files.createSymbolicLink(ws.resolve("abs"), outside);
        Files.createSymbolicLink(ws.resolve("docs"), docs);
        Files.createSymbolicLink(ws.resolve("loop"), Path.of("loop"));
        Files.createSymbolicLink(ws.resolve("dang"), Path.of("missing"));
        Files.createSymbolicLink(ws.resolve("ws_evil"), Path.of("../ws_evil"));
        Files.createSymbolicLink(inner.resolve("back"), Path.of("../../.."));
        context = SecurityContext.builder().name("prop")
                .path(PathEntry.builder().path(ws).slug("ws").allow(READ, WRITE).deny(DELETE).build())
                .path(PathEntry.of(inner.toString(), "inner", READ))
                .path(PathEntry.of(docs.toString(), "docs", READ, DELETE))
                .build();
    }

    @AfterContainer
    static void removeTree() throws IOException {
        try (Stream<Path> paths = Files.walk(base)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @Property(tries = 3000, seed = "20261201")
    void acceptedPathsStayInsideAnEntryThatGrantsThePermission(@ForAll("paths") String path,
                                                               @ForAll("permissions") Set<Permission> needed) {
        ResolvedPath target;
        try {
            target = context.checkPathAccess(path, needed.toArray(new Permission[0]));
        } catch (MeroToolsException refused) {
            assertThat(refused.getMessage()).isNotBlank().doesNotContain("\n");
            return;
        }
        Path real = target.realPath();
        assertThat(hasNoSymlink(real)).as("canonical: %s", real).isTrue();
        Set<Permission> granted = grantedAt(real);
        assertThat(granted).as("%s resolved to %s outside every entry", path, real).isNotNull();
        assertThat(granted).as("%s needs %s at %s", path, needed, real).containsAll(needed);
        assertThat(target.virtualPath()).startsWith("/" + target.slug());
    }

    /** An independent model of the tree's policy, by string prefix on canonical paths. */
    private static Set<Permission> grantedAt(Path real) {
        if (isUnder(real, inner)) {
            return EnumSet.of(READ);
        }
        if (isUnder(real, ws)) {
            return EnumSet.of(READ, WRITE);
        }
        if (isUnder(real, docs)) {
            return EnumSet.of(READ, DELETE);
        }
        return null;
    }

    private static boolean isUnder(Path real, Path dir) {
        String r = real.toString();
        String d = dir.toString();
        return r.equals(d) || r.startsWith(d + "/");
    }

    private static boolean hasNoSymlink(Path real) {
        Path prefix = real.getRoot();
        for (Path name : real) {
            prefix = prefix.resolve(name);
            if (Files.isSymbolicLink(prefix)) {
                return false;
            }
            if (!Files.exists(prefix, LinkOption.NOFOLLOW_LINKS)) {
                return true;
            }
        }
        return true;
    }

    @Provide
    Arbitrary<String> paths() {
        Arbitrary<String> names = Arbitraries.of("..", ".", "a", "b", "f.txt", "in", "up", "abs", "docs", "loop",
                "dang", "ws_evil", "inner", "back", "new", "ws", "outside", "s.txt", "g.txt", "");
        Arbitrary<String> prefixes = Arbitraries.of(List.of("", "/ws/", "/docs/", "/inner/", "/",
                base + "/", base + "/ws/", base + "/ws/a/", base + "/docs/"));
        return prefixes.flatMap(prefix -> names.list().ofMinSize(0).ofMaxSize(8)
                .map(list -> prefix + String.join("/", list)))
                .filter(p -> !p.isBlank());
    }

    @Provide
    Arbitrary<Set<Permission>> permissions() {
        return Arbitraries.of(READ, WRITE, DELETE).set().ofMinSize(1);
    }
}
