package dev.mero.core.path;

import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a checked target never follows a link swapped into its path after the check. */
class SecureFilesTest {

    @TempDir
    Path tmp;

    Path ws;
    Path outside;
    SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        Path root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws/reports"));
        ws = root.resolve("ws");
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(ws.resolve("reports/a.txt"), "inside");
        Files.writeString(outside.resolve("a.txt"), "outside");
        context = SecurityContext.builder().name("c")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE)).build();
    }

    @Test
    void aCheckedTargetIsReadAndWritten() throws IOException {
        ResolvedPath target = context.checkPathAccess("reports/new.txt", Permission.WRITE);
        try (SeekableByteChannel channel = SecureFiles.newByteChannel(target, CREATE, TRUNCATE_EXISTING, WRITE)) {
            channel.write(ByteBuffer.wrap("hello".getBytes(StandardCharsets.UTF_8)));
        }
        assertThat(ws.resolve("reports/new.txt")).hasContent("hello");

        ResolvedPath read = context.checkPathAccess("reports/a.txt", Permission.READ);
        try (SeekableByteChannel channel = SecureFiles.newByteChannel(read, READ)) {
            assertThat(channel.size()).isEqualTo(6);
        }
    }

    @Test
    void missingArgumentsAreNamed() {
        ResolvedPath read = context.checkPathAccess("reports/a.txt", Permission.READ);
        assertThatThrownBy(() -> SecureFiles.newByteChannel(null, READ))
                .isInstanceOf(NullPointerException.class).hasMessage("target");
        assertThatThrownBy(() -> SecureFiles.newByteChannel(read, (java.nio.file.OpenOption[]) null))
                .isInstanceOf(NullPointerException.class).hasMessage("options");
    }

    @Test
    void aDirectorySwappedForALinkAfterTheCheckIsNotFollowed() throws IOException {
        ResolvedPath target = context.checkPathAccess("reports/a.txt", Permission.WRITE);
        Files.move(ws.resolve("reports"), ws.resolve("moved"));
        Files.createSymbolicLink(ws.resolve("reports"), outside);

        assertThatThrownBy(() -> SecureFiles.newByteChannel(target, CREATE, TRUNCATE_EXISTING, WRITE))
                .isInstanceOf(IOException.class);
        assertThat(outside.resolve("a.txt")).hasContent("outside");
        assertThatThrownBy(() -> SecureFiles.newByteChannel(context.checkPathAccess("reports/b.txt",
                Permission.WRITE), CREATE, WRITE)).isInstanceOf(PathAccessDeniedException.class);
        assertThat(outside.resolve("b.txt")).doesNotExist();
    }

    @Test
    void aFileSwappedForALinkAfterTheCheckIsNotFollowed() throws IOException {
        ResolvedPath target = context.checkPathAccess("reports/a.txt", Permission.READ);
        Files.delete(ws.resolve("reports/a.txt"));
        Files.createSymbolicLink(ws.resolve("reports/a.txt"), outside.resolve("a.txt"));

        assertThatThrownBy(() -> SecureFiles.newByteChannel(target, READ)).isInstanceOf(IOException.class);
    }
}
