package dev.mero.mcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A workspace with what an attacker goes for: a mounted directory {@code ws} beside a {@code secret} one, a
 * sibling whose name extends the mount's ({@code ws'}), a symlink out of the mount, a FIFO and a huge sparse
 * file. Policies are written next to them.
 */
final class TestFiles {

    static final String SECRET = "TOP SECRET 7f3a";

    final Path root;
    final Path ws;
    final Path secret;

    private TestFiles(Path root) throws IOException {
        this.root = root.toRealPath();
        this.ws = Files.createDirectories(this.root.resolve("ws"));
        this.secret = Files.createDirectories(this.root.resolve("secret"));
        Files.writeString(secret.resolve("key.txt"), SECRET);
        Path sibling = Files.createDirectories(this.root.resolve("ws'"));
        Files.writeString(sibling.resolve("key.txt"), SECRET);
        Files.writeString(ws.resolve("a.txt"), "alpha\n");
        Files.createSymbolicLink(ws.resolve("link-out"), secret);
    }

    static TestFiles create(Path tempDir) throws IOException {
        return new TestFiles(tempDir);
    }

    Path write(String relative, String content) throws IOException {
        Path file = ws.resolve(relative);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    /** Writes a policy file; {@code yaml} names the mounted directory {@code ws}. */
    Path policy(String name, String yaml) throws IOException {
        return Files.writeString(root.resolve(name), yaml, StandardCharsets.UTF_8);
    }

    /** A FIFO inside the mount that nobody ever writes to. */
    Path fifo(String relative) throws IOException, InterruptedException {
        Path fifo = ws.resolve(relative);
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
        if (mkfifo.waitFor() != 0) {
            throw new IOException("mkfifo failed: " + new String(mkfifo.getInputStream().readAllBytes(),
                    StandardCharsets.UTF_8));
        }
        return fifo;
    }

    /** A sparse file of {@code bytes} bytes without a single newline (takes no disk space). */
    Path huge(String relative, long bytes) throws IOException {
        Path file = ws.resolve(relative);
        try (var raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(bytes);
        }
        return file;
    }

    /** 4 KiB of text that starts with {@code marker}. */
    static String page(String marker) {
        StringBuilder text = new StringBuilder(marker).append('\n');
        while (text.length() < 4096) {
            text.append("lorem ipsum dolor sit amet ");
        }
        text.setLength(4095);
        return text.append('\n').toString();
    }
}
