package dev.mero.core.ops;

import dev.mero.core.Fifos;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.TreeSet;

/**
 * The child process of {@link PortableDirectoriesTest#theLayerServesAProcessWithoutProc}: run where {@code /proc}
 * is an empty file system (a mount namespace of its own), as on a system that has none, it opens, lists, types,
 * writes, reads, renames and deletes through the portable directory layer, and refuses a pipe and a link. Prints
 * {@value #OK} and exits 0 if every step did what it must; exits 1 naming the step otherwise. Its argument is an
 * empty directory to work in.
 */
final class PortableWithoutProc {

    static final String OK = "portable directories without /proc: ok";

    private PortableWithoutProc() {
    }

    public static void main(String[] args) throws Exception {
        try {
            run(Path.of(args[0]).toRealPath());
            System.out.println(OK);
        } catch (Exception | AssertionError e) {
            System.out.println("failed: " + e);
            System.exit(1);
        }
    }

    private static void run(Path dir) throws IOException, InterruptedException {
        require(!Files.exists(Path.of("/proc/self")), "/proc is hidden");
        Path sub = Files.createDirectories(dir.resolve("sub"));
        Files.writeString(sub.resolve("a.txt"), "alpha\n");
        Files.writeString(dir.resolve("outside.txt"), "outside\n");
        Files.createSymbolicLink(sub.resolve("link"), dir.resolve("outside.txt"));
        Fifos.mkfifo(sub.resolve("pipe"));
        try (SecureDirectory opened = SecureDirectory.open(sub)) {
            SecureDirectoryStream<Path> stream = opened.stream();
            require(stream.getClass().getSimpleName().equals("DescriptorDirectoryStream"), "the layer is used");
            try (SeekableByteChannel out = stream.newByteChannel(Path.of("b.txt"),
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))) {
                out.write(ByteBuffer.wrap("beta\n".getBytes(StandardCharsets.UTF_8)));
            }
            try (SeekableByteChannel in = stream.newByteChannel(Path.of("b.txt"), Set.of(StandardOpenOption.READ))) {
                ByteBuffer read = ByteBuffer.allocate(16);
                in.read(read);
                require(new String(read.array(), 0, read.position(), StandardCharsets.UTF_8).equals("beta\n"), "read");
                require(in.size() == 5, "size");
            }
            BasicFileAttributes link = stream.getFileAttributeView(Path.of("link"), BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).readAttributes();
            require(link.isSymbolicLink(), "a link is typed as a link");
            BasicFileAttributes pipe = stream.getFileAttributeView(Path.of("pipe"), BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).readAttributes();
            require(pipe.isOther(), "a pipe is typed as other");
            require(stream.getFileAttributeView(BasicFileAttributeView.class).readAttributes().fileKey()
                    .equals(Files.readAttributes(sub, BasicFileAttributes.class).fileKey()), "the directory's key");
            refused(() -> stream.newByteChannel(Path.of("pipe"), Set.of(StandardOpenOption.READ)), "a pipe");
            refused(() -> stream.newByteChannel(Path.of("link"), Set.of(StandardOpenOption.READ)), "a link");
            stream.move(Path.of("b.txt"), stream, Path.of("c.txt"));
            TreeSet<String> names = new TreeSet<>();
            try (SecureDirectoryStream<Path> again = stream.newDirectoryStream(Path.of("."))) {
                again.forEach(p -> names.add(p.getFileName().toString()));
            }
            require(names.equals(new TreeSet<>(Set.of("a.txt", "c.txt", "link", "pipe"))), "listing " + names);
            stream.deleteFile(Path.of("c.txt"));
            require(!Files.exists(sub.resolve("c.txt")), "deleted");
        }
        require(Files.readString(dir.resolve("outside.txt")).equals("outside\n"), "outside untouched");
    }

    /** A step that must fail as a file-system refusal. */
    private interface Step {
        void run() throws IOException;
    }

    private static void refused(Step step, String what) {
        try {
            step.run();
        } catch (FileSystemException e) {
            return;
        } catch (IOException e) {
            throw new AssertionError(what + ": " + e);
        }
        throw new AssertionError(what + " was not refused");
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }
}
