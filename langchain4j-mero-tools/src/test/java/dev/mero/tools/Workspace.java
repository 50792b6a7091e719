package dev.mero.tools;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** A test layout under a temporary directory: {@code ws/} (READ, WRITE), {@code docs/} (READ), {@code outside/}. */
final class Workspace {

    final Path root;
    final Path ws;
    final Path docs;
    final Path outside;
    final SecurityContext context;

    Workspace(Path tempDir) throws IOException {
        this.root = tempDir.toRealPath();
        this.ws = Files.createDirectories(root.resolve("ws"));
        this.docs = Files.createDirectories(root.resolve("docs"));
        this.outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(ws.resolve("notes.txt"), "hello notes\n");
        Files.writeString(docs.resolve("guide.md"), "# Guide\n");
        Files.writeString(outside.resolve("secret.txt"), "top secret\n");
        this.context = SecurityContext.builder()
                .name("test")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE))
                .path(PathEntry.of(docs.toString(), "docs", Permission.READ))
                .build();
    }

    /** Every path under the root with its size, to prove that a refused call changed nothing. */
    List<String> snapshot() {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.map(p -> root.relativize(p) + (Files.isRegularFile(p) ? " " + size(p) : "/"))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
