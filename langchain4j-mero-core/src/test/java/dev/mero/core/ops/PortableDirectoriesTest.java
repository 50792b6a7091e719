package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mero.core.Fifos;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The foreign-function layer's {@code openat} directories, for JDKs without a {@link SecureDirectoryStream} and
 * kernels without {@code openat2}: forced on Linux by the core pom's {@code java25-portable} execution (Java 25,
 * {@code -Dmero.secureDirectoryStream=absent}, {@code openat2} failing with {@code ENOSYS}), which also runs the
 * link, pipe and race tests through it. Attacks it directly: {@code ..}, a path of several names, a link at every
 * level, a pipe where a file is expected; and checks reads, writes, listings, renames and deletes.
 */
class PortableDirectoriesTest {

    @TempDir
    Path temp;
    Path dir;

    @BeforeAll
    static void onlyWhereForced() {
        assumeTrue(Boolean.getBoolean("mero.expectPortableDirectories"), "run by the java25-portable execution");
    }

    @BeforeEach
    void setUp() throws IOException {
        dir = temp.toRealPath();
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/a.txt"), "alpha\n");
        Files.writeString(dir.resolve("outside.txt"), "outside\n");
    }

    private SecureDirectoryStream<Path> open(Path directory) throws IOException {
        SecureDirectory opened = SecureDirectory.open(directory);
        assertThat(opened.stream().getClass().getSimpleName()).isEqualTo("DescriptorDirectoryStream");
        return opened.stream();
    }

    @Test
    void everyOperationTakesTheDescriptorLayer() throws IOException {
        assertThat(ConfinedCalls.current()).isSameAs(ConfinedCalls.NONE);
        try (SecureDirectoryStream<Path> sub = open(dir.resolve("sub"))) {
            try (SeekableByteChannel out = sub.newByteChannel(Path.of("b.txt"),
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
                out.write(ByteBuffer.wrap("beta\n".getBytes(StandardCharsets.UTF_8)));
            }
            try (SeekableByteChannel in = sub.newByteChannel(Path.of("b.txt"), Set.of(StandardOpenOption.READ))) {
                ByteBuffer read = ByteBuffer.allocate(16);
                in.read(read);
                assertThat(new String(read.array(), 0, read.position(), StandardCharsets.UTF_8)).isEqualTo("beta\n");
                assertThat(in.size()).isEqualTo(5);
            }
            sub.move(Path.of("b.txt"), sub, Path.of("c.txt"));
            List<String> names = new ArrayList<>();
            sub.forEach(p -> names.add(p.getFileName().toString()));
            assertThat(names).containsExactlyInAnyOrder("a.txt", "c.txt");
            sub.deleteFile(Path.of("c.txt"));
            assertThat(dir.resolve("sub/c.txt")).doesNotExist();
            assertThat(sub.getFileAttributeView(Path.of("a.txt"), java.nio.file.attribute.BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).readAttributes().size()).isEqualTo(6);
        }
    }

    @Test
    void refusesDotDotSeveralNamesAndLinksAtEveryLevel() throws IOException {
        Files.createSymbolicLink(dir.resolve("sub/up"), dir);
        Files.createSymbolicLink(dir.resolve("sub/file-link"), dir.resolve("outside.txt"));
        try (SecureDirectoryStream<Path> sub = open(dir.resolve("sub"))) {
            assertThatThrownBy(() -> sub.newDirectoryStream(Path.of(".."))).isInstanceOf(FileSystemException.class);
            assertThatThrownBy(() -> sub.newByteChannel(Path.of("../outside.txt"), Set.of(StandardOpenOption.READ)))
                    .isInstanceOf(FileSystemException.class);
            assertThatThrownBy(() -> sub.newByteChannel(Path.of("up/outside.txt"), Set.of(StandardOpenOption.READ)))
                    .isInstanceOf(FileSystemException.class);
            // O_DIRECTORY | O_NOFOLLOW on a link: ENOTDIR
            assertThatThrownBy(() -> sub.newDirectoryStream(Path.of("up"), LinkOption.NOFOLLOW_LINKS))
                    .isInstanceOf(java.nio.file.NotDirectoryException.class);
            assertThatThrownBy(() -> sub.newByteChannel(Path.of("file-link"), Set.of(StandardOpenOption.READ)))
                    .isInstanceOf(FileSystemException.class).hasMessageContaining("symbolic link");
            assertThatThrownBy(() -> sub.deleteFile(Path.of(".."))).isInstanceOf(FileSystemException.class);
            assertThatThrownBy(() -> sub.getFileAttributeView(Path.of(".."),
                    java.nio.file.attribute.BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> sub.move(Path.of("a.txt"), sub, Path.of("../a.txt")))
                    .isInstanceOf(FileSystemException.class);
            assertThatThrownBy(() -> sub.newByteChannel(Path.of("missing"), Set.of(StandardOpenOption.READ)))
                    .isInstanceOf(NoSuchFileException.class);
        }
        assertThat(dir.resolve("outside.txt")).hasContent("outside");
    }

    @Test
    void aPipeIsOpenedWithoutBlockingAndRefused() throws Exception {
        Fifos.mkfifo(dir.resolve("sub/pipe"));
        try (SecureDirectoryStream<Path> sub = open(dir.resolve("sub"))) {
            assertThatThrownBy(() -> sub.newByteChannel(Path.of("pipe"), Set.of(StandardOpenOption.READ)))
                    .isInstanceOf(FileSystemException.class).hasMessageContaining("pipe");
            assertThatThrownBy(() -> sub.newDirectoryStream(Path.of("pipe"), LinkOption.NOFOLLOW_LINKS))
                    .isInstanceOf(FileSystemException.class);
        }
    }
}
