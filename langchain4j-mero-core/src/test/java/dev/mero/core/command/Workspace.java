package dev.mero.core.command;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real directory tree for command tests: {@code ws} (READ, WRITE, EXECUTE) with a file, a subdirectory and
 * symlinks out, {@code docs} (READ), {@code outside} (not mounted) with a secret, and {@code bin}, a search path
 * directory for stub programs.
 */
final class Workspace {

    final Path root;
    final Path ws;
    final Path docs;
    final Path outside;
    final Path bin;

    Workspace(Path root) {
        try {
            this.root = root.toRealPath();
            ws = Files.createDirectories(this.root.resolve("ws"));
            docs = Files.createDirectories(this.root.resolve("docs"));
            outside = Files.createDirectories(this.root.resolve("outside"));
            bin = Files.createDirectories(this.root.resolve("bin"));
            Files.writeString(ws.resolve("notes.txt"), "notes");
            Files.writeString(ws.resolve("secret.txt"), "a decoy inside the workspace");
            Files.createDirectories(ws.resolve("sub"));
            Files.writeString(docs.resolve("guide.txt"), "guide");
            Files.createDirectories(outside.resolve("dir"));
            Files.writeString(outside.resolve("secret.txt"), "secret");
            Files.createSymbolicLink(ws.resolve("link"), outside.resolve("secret.txt"));
            Files.createSymbolicLink(ws.resolve("dirlink"), outside.resolve("dir"));
            Files.createSymbolicLink(ws.resolve("dangling"), outside.resolve("missing"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A context named worker_1 mounting ws and docs, with the default search path. */
    SecurityContext.Builder context() {
        return context(Permission.READ, Permission.WRITE, Permission.EXECUTE);
    }

    /** The same context with other permissions on ws. */
    SecurityContext.Builder context(Permission... wsPermissions) {
        return SecurityContext.builder()
                .name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", wsPermissions))
                .path(PathEntry.of(docs.toString(), "docs", Permission.READ));
    }

    /** An executable stub in {@code bin} that does nothing. */
    Path stub(String name) {
        try {
            Path file = bin.resolve(name);
            Files.writeString(file, "#!/bin/sh\nexit 0\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A symlink in {@code bin} to {@code target}. */
    Path link(String name, Path target) {
        try {
            return Files.createSymbolicLink(bin.resolve(name), target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every path under the root, sorted: equal before and after proves that nothing was changed on disk. */
    List<String> tree() {
        try (Stream<Path> files = Files.walk(root)) {
            return files.map(Path::toString).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The search path with {@code bin} first, then the system directories. */
    String searchPath() {
        return bin + ":/usr/local/bin:/usr/bin:/bin";
    }
}
