package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mero.core.Fifos;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Java 17's JNI layer ({@link JniConfinedCalls}, {@link JniSyscalls}) on its own: the native calls refuse what they
 * must not pass to the kernel or write outside an array, and the layer opens only plain regular files below the
 * mount, never blocking. The answers through the tools are compared with the JDK's path in {@link ConfinedCallsTest}.
 * Runs where the library loads; the core's surefire run, which builds it, requires that it does.
 */
class JniConfinedCallsTest {

    private static final Duration BOUND = Duration.ofSeconds(30);
    private static final int EINVAL = 22;
    private static final int ENOENT = 2;
    private static final int ENAMETOOLONG = 36;
    private static final int EXDEV = 18;
    private static final int ELOOP = 40;

    @TempDir
    Path temp;

    private Path ws;
    private PathEntry entry;
    private ConfinedCalls layer;

    @BeforeEach
    void setUp() throws IOException {
        if ("openat2-jni".equals(System.getProperty("mero.expectConfinedCalls"))) {
            assertThat(JniSyscalls.LOADED).as("the build made the library, so it must load").isTrue();
        }
        assumeTrue(JniSyscalls.LOADED, "no JNI library in this build");
        layer = JniConfinedCalls.probe();
        if (System.getProperty("mero.confinedCalls.failWith") != null) {
            // openat2 forced to fail (the java25-portable run): the layer must decline to serve at all
            assertThat(layer).isSameAs(ConfinedCalls.NONE);
            assumeTrue(false, "openat2 is forced to fail in this run");
        }
        assertThat(layer.name()).isEqualTo("openat2-jni");
        ws = Files.createDirectories(temp.resolve("ws")).toRealPath();
        Files.createDirectories(temp.resolve("outside"));
        Files.writeString(temp.resolve("outside/secret.txt"), "top secret\n");
        Files.writeString(ws.resolve("a.txt"), "alpha\n");
        entry = PathEntry.of(ws.toString(), "ws", Permission.READ);
    }

    @Test
    void theNativeCallsRefuseNamesTheKernelMustNotSeeAndNeverWriteOutsideTheArray() {
        long[] stat = new long[JniSyscalls.STAT_LONGS];
        assertThat(JniSyscalls.openat2(JniSyscalls.AT_FDCWD, new byte[0], JniSyscalls.OPEN_PROBE, stat))
                .isEqualTo(-ENOENT);
        assertThat(JniSyscalls.openat2(JniSyscalls.AT_FDCWD, "a\0b".getBytes(StandardCharsets.US_ASCII),
                JniSyscalls.OPEN_PROBE, stat)).isEqualTo(-EINVAL);
        byte[] long4096 = new byte[4096];
        Arrays.fill(long4096, (byte) 'a');
        assertThat(JniSyscalls.lstat(long4096, stat)).isEqualTo(-ENAMETOOLONG);
        assertThat(JniSyscalls.openat2(JniSyscalls.AT_FDCWD, new byte[] {'.'}, 5, stat)).isEqualTo(-EINVAL);
        assertThat(JniSyscalls.openat2(JniSyscalls.AT_FDCWD, new byte[] {'.'}, -1, stat)).isEqualTo(-EINVAL);

        int fd = JniSyscalls.openat2(JniSyscalls.AT_FDCWD, ws.resolve("a.txt").toString()
                .getBytes(StandardCharsets.UTF_8), JniSyscalls.OPEN_MOUNT, stat);
        assertThat(fd).as("O_DIRECTORY: a file is no mount").isLessThan(0);
        int mount = JniSyscalls.openat2(JniSyscalls.AT_FDCWD, ws.toString().getBytes(StandardCharsets.UTF_8),
                JniSyscalls.OPEN_MOUNT, stat);
        assertThat(mount).isGreaterThanOrEqualTo(0);
        try {
            assertThat(stat[JniSyscalls.MODE] & JniSyscalls.S_IFMT).isEqualTo(JniSyscalls.S_IFDIR);
            int file = JniSyscalls.openat2(mount, "a.txt".getBytes(StandardCharsets.US_ASCII), JniSyscalls.OPEN_FILE,
                    stat);
            assertThat(file).isGreaterThanOrEqualTo(0);
            try {
                assertThat(stat[JniSyscalls.SIZE]).isEqualTo(6);
                byte[] guarded = new byte[8];
                assertThat(JniSyscalls.pread(file, guarded, 4, 5, 0)).isEqualTo(-EINVAL);
                assertThat(JniSyscalls.pread(file, guarded, -1, 2, 0)).isEqualTo(-EINVAL);
                assertThat(JniSyscalls.pread(file, guarded, 9, 0, 0)).isEqualTo(-EINVAL);
                assertThat(JniSyscalls.pread(file, guarded, 0, 2, -1)).isEqualTo(-EINVAL);
                assertThat(guarded).containsOnly(0);
                assertThat(JniSyscalls.pread(file, guarded, 2, 6, 0)).isEqualTo(6);
                assertThat(new String(guarded, StandardCharsets.US_ASCII)).isEqualTo("\0\0alpha\n");
                assertThat(JniSyscalls.pread(file, guarded, 0, 8, 6)).isZero();
            } finally {
                assertThat(JniSyscalls.close(file)).isZero();
            }
            // confined below the mount: no way up, no absolute name, no link on the way or at the end
            assertThat(JniSyscalls.openat2(mount, "../outside/secret.txt".getBytes(StandardCharsets.US_ASCII),
                    JniSyscalls.OPEN_FILE, stat)).isEqualTo(-EXDEV);
            assertThat(JniSyscalls.openat2(mount, temp.resolve("outside/secret.txt").toString()
                    .getBytes(StandardCharsets.UTF_8), JniSyscalls.OPEN_FILE, stat)).isEqualTo(-EXDEV);
            Files.createSymbolicLink(ws.resolve("in.txt"), Path.of("a.txt"));
            assertThat(JniSyscalls.openat2(mount, "in.txt".getBytes(StandardCharsets.US_ASCII),
                    JniSyscalls.OPEN_FILE, stat)).isEqualTo(-ELOOP);
        } catch (IOException e) {
            throw new AssertionError(e);
        } finally {
            JniSyscalls.close(mount);
        }
    }

    @Test
    void onlyAPlainRegularFileBelowTheMountIsOpenedAndAPipeNeverBlocks() throws Exception {
        Files.createDirectories(ws.resolve("dir"));
        Fifos.mkfifo(ws.resolve("pipe"));
        Files.createSymbolicLink(ws.resolve("out.txt"), temp.resolve("outside/secret.txt"));
        Files.createSymbolicLink(ws.resolve("inner.txt"), Path.of("a.txt"));
        Files.createSymbolicLink(ws.resolve("up"), temp.resolve("outside"));
        assertTimeoutPreemptively(BOUND, () -> {
            for (String declined : new String[] {"pipe", "dir", "out.txt", "inner.txt", "up/secret.txt", "missing",
                    "a.txt/x"}) {
                assertThat(layer.openRegularFile(entry, ws.resolve(declined))).as(declined).isNull();
            }
            assertThat(layer.openRegularFile(entry, temp.resolve("outside/secret.txt"))).isNull();
        });
        SeekableByteChannel channel = layer.openRegularFileOfUnchangedMount(entry, ws.resolve("a.txt"));
        try {
            assertThat(channel.size()).isEqualTo(6);
            ByteBuffer direct = ByteBuffer.allocateDirect(3);
            assertThat(channel.read(direct)).isEqualTo(3);
            ByteBuffer heap = ByteBuffer.allocate(16);
            assertThat(channel.read(heap)).isEqualTo(3);
            assertThat(channel.read(heap)).isEqualTo(-1);
            byte[] start = new byte[3];
            direct.flip().get(start);
            assertThat(new String(start, StandardCharsets.US_ASCII)).isEqualTo("alp");
            assertThat(new String(heap.array(), 0, 3, StandardCharsets.US_ASCII)).isEqualTo("ha\n");
            assertThat(channel.position()).isEqualTo(6);
            channel.position(1);
            heap.clear();
            assertThat(channel.read(heap)).isEqualTo(5);
            channel.close();
            assertThatThrownBy(() -> channel.read(ByteBuffer.allocate(1))).isInstanceOf(ClosedChannelException.class);
            assertThat(channel.isOpen()).isFalse();
        } finally {
            channel.close();
        }
    }

    @Test
    void aMountMovedAwayOrReplacedIsNotOpenedFrom() throws IOException {
        try (SeekableByteChannel first = layer.openRegularFileOfUnchangedMount(entry, ws.resolve("a.txt"))) {
            assertThat(first).isNotNull();
        }
        Path moved = temp.resolve("moved");
        Files.move(ws, moved);
        Files.createDirectories(ws);
        Files.writeString(ws.resolve("a.txt"), "impostor\n");
        assertThat(layer.openRegularFileOfUnchangedMount(entry, ws.resolve("a.txt"))).isNull();
        Files.delete(ws.resolve("a.txt"));
        Files.delete(ws);
        Files.createSymbolicLink(ws, moved);
        assertThat(layer.openRegularFileOfUnchangedMount(entry, ws.resolve("a.txt"))).isNull();
        Files.delete(ws);
        Files.move(moved, ws);
        try (SeekableByteChannel back = layer.openRegularFileOfUnchangedMount(entry, ws.resolve("a.txt"))) {
            assertThat(back).isNotNull();
            assertThat(back.size()).isEqualTo(6);
        }
    }
}
