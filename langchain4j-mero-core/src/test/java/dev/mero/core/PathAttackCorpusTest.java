package dev.mero.core;

import static dev.mero.core.Permission.DELETE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Red-team regression corpus for the path core: traversal, symlink and permission attacks that are refused
 * today and must stay refused. {@code ROOT} in an attack stands for the temporary directory. Every refusal is a
 * denial or an input error, and checking never changes the file system.
 */
class PathAttackCorpusTest {

    @TempDir
    Path tmp;

    Path root;
    SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        root = tmp.toRealPath();
        Path ws = Files.createDirectories(root.resolve("srv/ws"));
        Path docs = Files.createDirectories(root.resolve("srv/docs"));
        Path outside = Files.createDirectories(root.resolve("outside"));
        Files.createDirectories(ws.resolve("sub/deep"));
        Files.createDirectories(ws.resolve("ro"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.writeString(ws.resolve("f.txt"), "f");
        Files.writeString(docs.resolve("guide.md"), "guide");
        Files.createSymbolicLink(ws.resolve("out"), outside);
        Files.createSymbolicLink(ws.resolve("rel"), Path.of("../../outside"));
        Files.createSymbolicLink(ws.resolve("root"), Path.of("/"));
        Files.createSymbolicLink(ws.resolve("todocs"), docs);
        Files.createSymbolicLink(ws.resolve("loop"), ws.resolve("loop"));
        Files.createSymbolicLink(ws.resolve("loopa"), ws.resolve("loopb"));
        Files.createSymbolicLink(ws.resolve("loopb"), ws.resolve("loopa"));
        Files.createSymbolicLink(ws.resolve("dang"), outside.resolve("new.txt"));
        Files.createSymbolicLink(ws.resolve("dangin"), ws.resolve("new.txt"));
        Files.createSymbolicLink(ws.resolve("chain1"), ws.resolve("chain2"));
        Files.createSymbolicLink(ws.resolve("chain2"), Path.of("sub/../out"));
        Files.createSymbolicLink(ws.resolve("sub/up"), Path.of(".."));
        Files.createSymbolicLink(ws.resolve("sub/upup"), Path.of("../.."));
        Files.createSymbolicLink(root.resolve("srvlink"), root.resolve("srv"));
        Files.createSymbolicLink(root.resolve("wslink"), ws);
        context = SecurityContext.builder().name("n")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE))
                .path(PathEntry.of(docs.toString(), "docs", READ))
                .path(PathEntry.builder().path(ws.resolve("ro")).slug("ro").allow(READ).deny(WRITE).build())
                .path(PathEntry.builder().path(root.resolve("wslink")).slug("wsl").allow(READ, WRITE, DELETE).build())
                .permissions(READ, WRITE)
                .build();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            // traversal in every position
            "/ws/../docs/guide.md", "/docs/../ws/f.txt", "ws/../../outside", "/ws/sub/deep/../../../outside",
            "/ws/sub/deep/../../..", "/ws/f.txt/../../docs", "/wsl/../ws", "/ro/../f.txt", "/ws/./../docs",
            "sub/./.././../x", "/ws//..//..", "ROOT/srv/ws/../docs/guide.md", "ROOT/srv/ws/../../outside/secret.txt",
            "ROOT/srvlink/ws/../../outside/secret.txt", "ROOT/wslink/../outside", "/../../ROOT/outside/secret.txt",
            // absolute host paths and slug confusion
            "/etc/passwd", "/", "/srv", "ROOT", "ROOT/srv", "ROOT/outside/secret.txt", "ROOT/srv/ws_evil",
            "ROOT/srv/wsx/f.txt", "ROOT/srvlink/outside", "/WS/f.txt", "/ws%2f..%2f..%2fetc", "/Ws", "/ws-/f.txt",
            "/proc/self/cwd", "/proc/self/root/etc/passwd", "/dev/fd/0", "/proc/self/ns/net", "/srv/ws/f.txt",
            // symlinks
            "/ws/out/secret.txt", "/ws/out", "out", "rel", "/ws/rel/secret.txt", "/ws/root/etc/passwd", "root/etc",
            "/ws/loop", "/ws/loop/x", "/ws/loopa/x", "/ws/dang", "/ws/dang/x", "dangin", "/ws/chain1/secret.txt",
            "chain1", "/ws/sub/upup/outside", "/ws/sub/up/../../..", "sub/upup", "/ws/out/../../outside",
            // syntax
            "", " ", "~/x", "~root/.ssh", "$HOME/x", "${HOME}", "$(id)", "/ws/\u0000x", "/ws/a\u200bb", "/ws/\u202ex",
            "/ws/a\nb", "/ws/a\rb", "/ws/\u00ad", "/ws/\ufeffx", "/ws/\u2066x"})
    void every_attack_is_refused_for_read_and_write(String attack) throws IOException {
        String path = attack.replace("ROOT", root.toString());
        List<String> before = tree();

        for (Permission permission : new Permission[] {READ, WRITE}) {
            assertThatThrownBy(() -> context.checkPathAccess(path, permission))
                    .isInstanceOfAny(PathAccessDeniedException.class, InvalidInputException.class);
        }
        assertThat(tree()).isEqualTo(before);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/ws/todocs/guide.md", "/docs/guide.md", "/ro/x", "ro/x", "/ws/ro/x", "/wsl/ro/x",
            "/ws/ro/../ro/x", "ROOT/srv/ws/ro/x", "ROOT/wslink/ro/x"})
    void writes_into_read_only_entries_are_refused_however_they_are_reached(String attack) {
        String path = attack.replace("ROOT", root.toString());

        assertThatThrownBy(() -> context.checkPathAccess(path, WRITE))
                .isInstanceOfAny(PathAccessDeniedException.class, PermissionDeniedException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/ws/f.txt", "/wsl/f.txt", "f.txt", "/docs/guide.md"})
    void delete_beyond_the_ceiling_is_refused_even_where_an_entry_allows_it(String path) {
        assertThatThrownBy(() -> context.checkPathAccess(path, DELETE))
                .isInstanceOf(PermissionDeniedException.class);
    }

    private List<String> tree() throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(Path::toString).sorted().collect(Collectors.toList());
        }
    }
}
