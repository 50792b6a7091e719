package dev.mero.core.path;

import dev.mero.core.Fifos;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SecureFiles} types every name before it opens it: a FIFO on the way or at the end is never opened. */
class SecureFilesFifoTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path tmp;

    SecurityContext context;

    @BeforeEach
    void setUp() throws Exception {
        Path ws = Files.createDirectories(tmp.toRealPath().resolve("ws"));
        Fifos.mkfifo(ws.resolve("pipe"));
        context = SecurityContext.builder().name("c")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE)).build();
    }

    @Test
    void aPipeIsRefusedWithoutBeingOpened() {
        ResolvedPath target = context.checkPathAccess("pipe", Permission.READ);

        assertTimeoutPreemptively(BOUND, () -> {
            assertThatThrownBy(() -> SecureFiles.newByteChannel(target, READ))
                    .isInstanceOf(FileSystemException.class)
                    .hasMessageContaining("it is a pipe, device or socket, not a regular file");
            assertThatThrownBy(() -> SecureFiles.newByteChannel(target, WRITE))
                    .isInstanceOf(FileSystemException.class);
        });
    }

    @Test
    void aPipeOnTheWayIsRefusedWithoutBeingOpened() {
        ResolvedPath target = context.checkPathAccess("pipe/a.txt", Permission.READ);

        assertTimeoutPreemptively(BOUND, () -> assertThatThrownBy(() -> SecureFiles.newByteChannel(target, READ))
                .isInstanceOf(NotDirectoryException.class));
    }

    @Test
    void aMissingFileIsStillCreated() throws IOException {
        ResolvedPath target = context.checkPathAccess("new.txt", Permission.WRITE);

        SecureFiles.newByteChannel(target, WRITE, java.nio.file.StandardOpenOption.CREATE_NEW).close();

        org.assertj.core.api.Assertions.assertThat(tmp.resolve("ws/new.txt")).exists();
    }
}
