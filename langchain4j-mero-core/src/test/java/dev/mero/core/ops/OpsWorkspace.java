package dev.mero.core.ops;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real directory tree for operation tests: {@code ws/} (READ, WRITE, DELETE), {@code docs/} (READ),
 * {@code outside/} (not mounted, holds a secret).
 */
final class OpsWorkspace {

    final Path root;
    final Path ws;
    final Path docs;
    final Path outside;

    OpsWorkspace(Path tempDir) throws IOException {
        this.root = tempDir.toRealPath();
        this.ws = Files.createDirectories(root.resolve("ws"));
        this.docs = Files.createDirectories(root.resolve("docs"));
        this.outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(ws.resolve("notes.txt"), "hello notes\n");
        Files.writeString(docs.resolve("guide.md"), "# Guide\n");
        Files.writeString(outside.resolve("secret.txt"), "top secret\n");
    }

    /** ws with READ, WRITE, DELETE; docs with READ. */
    SecurityContext.Builder contextBuilder() {
        return SecurityContext.builder()
                .name("test")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.DELETE))
                .path(PathEntry.of(docs.toString(), "docs", Permission.READ));
    }

    /** What a binding shows the model for a call: the result, or the refusal's {@code Denied:}/{@code Error:} text. */
    static String modelText(MeroOperations ops, String tool, String json) {
        try {
            return ops.call(tool, json);
        } catch (dev.mero.core.MeroToolsException e) {
            return e.toModelText();
        }
    }

    MeroOperations ops() {
        return MeroOperations.forContext(contextBuilder().build());
    }

    /** Operations on the default context with other limits. */
    MeroOperations ops(OperationLimits.Builder limits) {
        return MeroOperations.builder(contextBuilder().build()).limits(limits.build()).build();
    }

    /** Every path under the root with its type, size and content digest, to prove a refusal changed nothing. */
    List<String> snapshot() {
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.map(this::describe).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String describe(Path p) {
        try {
            String name = root.relativize(p).toString();
            if (Files.isSymbolicLink(p)) {
                return name + " -> " + Files.readSymbolicLink(p);
            }
            if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                return name + "/";
            }
            if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                return name + " " + dev.mero.core.path.ContentDigest.of(Files.readAllBytes(p));
            }
            return name + " (special)";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
