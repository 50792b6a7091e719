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
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.channels.FileChannel;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The foreign-function layer's {@code openat} directories, for JDKs without a {@link SecureDirectoryStream} and
 * kernels without {@code openat2}: forced on Linux by the core pom's {@code java25-portable} execution (Java 25,
 * {@code -Dmero.secureDirectoryStream=absent}, {@code openat2} failing with {@code ENOSYS}), which also runs the
 * link, pipe and race tests through it. Attacks it directly: {@code ..}, a path of several names, a link at every
 * level, a pipe where a file is expected; and checks reads, writes, listings, renames and deletes. The layer's
 * table-driven {@code fstat}/{@code fstatat}/{@code readdir} must read what the JDK reads by path; a wrong table
 * row must be rejected when the calls are bound; and the layer must work in a process that has no {@code /proc}.
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

    @Test
    void theTableDrivenCallsReadWhatTheJdkReadsForFilesDirectoriesLinksAndPipes() throws Exception {
        Path sub = dir.resolve("sub");
        Files.createDirectory(sub.resolve("d"));
        Files.createSymbolicLink(sub.resolve("l"), sub.resolve("a.txt"));
        Files.createLink(sub.resolve("h"), sub.resolve("a.txt"));
        Fifos.mkfifo(sub.resolve("p"));
        Files.setPosixFilePermissions(sub.resolve("d"), PosixFilePermissions.fromString("rwxr-x---"));
        try (SecureDirectoryStream<Path> stream = open(sub)) {
            for (String name : List.of("a.txt", "d", "l", "h", "p", ".")) {
                Path path = sub.resolve(name);
                PosixFileAttributes ours = stream.getFileAttributeView(Path.of(name), PosixFileAttributeView.class,
                        LinkOption.NOFOLLOW_LINKS).readAttributes();
                PosixFileAttributes jdk = Files.readAttributes(path, PosixFileAttributes.class,
                        LinkOption.NOFOLLOW_LINKS);
                assertSameAttributes(name, ours, jdk, Files.readAttributes(path, "unix:*", LinkOption.NOFOLLOW_LINKS));
            }
            PosixFileAttributes own = stream.getFileAttributeView(PosixFileAttributeView.class).readAttributes();
            assertSameAttributes("the directory", own, Files.readAttributes(sub, PosixFileAttributes.class),
                    Files.readAttributes(sub, "unix:*"));
            // followed where asked, as the JDK does
            assertThat(stream.getFileAttributeView(Path.of("l"), BasicFileAttributeView.class).readAttributes()
                    .isRegularFile()).isTrue();
            List<String> names = new ArrayList<>();
            stream.forEach(p -> names.add(p.getFileName().toString()));
            TreeSet<String> jdkNames = new TreeSet<>();
            try (Stream<Path> listed = Files.list(sub)) {
                listed.forEach(p -> jdkNames.add(p.getFileName().toString()));
            }
            assertThat(names).hasSize(jdkNames.size()).containsExactlyInAnyOrderElementsOf(jdkNames);
        }
    }

    private static void assertSameAttributes(String name, PosixFileAttributes ours, PosixFileAttributes jdk,
                                             Map<String, Object> unix) throws Exception {
        assertThat(ours.isRegularFile()).as(name).isEqualTo(jdk.isRegularFile());
        assertThat(ours.isDirectory()).as(name).isEqualTo(jdk.isDirectory());
        assertThat(ours.isSymbolicLink()).as(name).isEqualTo(jdk.isSymbolicLink());
        assertThat(ours.isOther()).as(name).isEqualTo(jdk.isOther());
        assertThat(ours.size()).as(name).isEqualTo(jdk.size());
        assertThat(ours.lastModifiedTime()).as(name).isEqualTo(jdk.lastModifiedTime());
        assertThat(ours.lastAccessTime()).as(name).isEqualTo(jdk.lastAccessTime());
        assertThat(ours.permissions()).as(name).isEqualTo(jdk.permissions());
        // the layer's key equals the JDK's (mounts are bound to the JDK's keys), and names it the same way
        assertThat(ours.fileKey()).as(name).isEqualTo(jdk.fileKey()).hasToString(jdk.fileKey().toString());
        assertThat(ours.owner().getName()).as(name).isEqualTo(String.valueOf(unix.get("uid")));
        assertThat(ours.group().getName()).as(name).isEqualTo(String.valueOf(unix.get("gid")));
        for (String field : List.of("ino", "dev", "nlink", "mode", "uid", "gid")) {
            Method accessor = ours.getClass().getDeclaredMethod(field);
            accessor.setAccessible(true);
            assertThat(((Number) accessor.invoke(ours)).longValue()).as(name + " " + field)
                    .isEqualTo(((Number) unix.get(field)).longValue());
        }
    }

    @Test
    void aFileIsReadAndWrittenThroughItsOwnDescriptor() throws IOException {
        try (SecureDirectoryStream<Path> sub = open(dir.resolve("sub"))) {
            try (SeekableByteChannel out = sub.newByteChannel(Path.of("a.txt"),
                    Set.of(StandardOpenOption.WRITE, StandardOpenOption.APPEND))) {
                assertThat(out).isInstanceOf(FileChannel.class);
                out.write(ByteBuffer.wrap("more\n".getBytes(StandardCharsets.UTF_8)));
                ((FileChannel) out).force(true);
                assertThat(out.position()).isEqualTo(11);
                assertThatThrownBy(() -> out.read(ByteBuffer.allocate(1)))
                        .isInstanceOf(java.nio.channels.NonReadableChannelException.class);
            }
            assertThat(dir.resolve("sub/a.txt")).hasContent("alpha\nmore");
            try (SeekableByteChannel both = sub.newByteChannel(Path.of("a.txt"),
                    Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE))) {
                both.position(6);
                ByteBuffer read = ByteBuffer.allocate(64);
                assertThat(both.read(read)).isEqualTo(5);
                assertThat(both.read(ByteBuffer.allocate(1))).isEqualTo(-1);
                both.truncate(5);
                assertThat(both.size()).isEqualTo(5);
                assertThat(both.position()).isEqualTo(5);
            }
            assertThat(dir.resolve("sub/a.txt")).hasContent("alpha");
            SeekableByteChannel closed = sub.newByteChannel(Path.of("a.txt"), Set.of(StandardOpenOption.READ));
            closed.close();
            assertThatThrownBy(() -> closed.read(ByteBuffer.allocate(1)))
                    .isInstanceOf(java.nio.channels.ClosedChannelException.class);
            assertThatThrownBy(() -> sub.newByteChannel(Path.of("a.txt"), Set.of(StandardOpenOption.READ))
                    .write(ByteBuffer.allocate(1))).isInstanceOf(java.nio.channels.NonWritableChannelException.class);
        }
    }

    @Test
    void permissionsAreSetOnTheEntryAndNeverThroughALink() throws IOException {
        Path target = dir.resolve("outside.txt");
        Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
        Files.createSymbolicLink(dir.resolve("sub/link"), target);
        try (SecureDirectoryStream<Path> sub = open(dir.resolve("sub"))) {
            sub.getFileAttributeView(Path.of("a.txt"), PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                    .setPermissions(PosixFilePermissions.fromString("rw-------"));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("sub/a.txt"))))
                    .isEqualTo("rw-------");
            assertThatThrownBy(() -> sub.getFileAttributeView(Path.of("link"), PosixFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).setPermissions(PosixFilePermissions.fromString("rwxrwxrwx")))
                    .isInstanceOf(FileSystemException.class);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-r--r--");
    }

    /** The row of this machine and rows with one number wrong, checked as the layer checks them when it binds. */
    @Test
    void aTableRowThatDisagreesWithTheMachineIsRejected() throws Exception {
        Object row = rowOf(System.getProperty("os.name"), System.getProperty("os.arch"));
        assertThat(bindAndCheck(row)).as("this machine's row").isNull();
        Map<String, Integer> shifts = Map.of("stat.ino", 8, "stat.dev", 8, "stat.mode", 4, "stat.nlink", 4,
                "stat.fileSize", 8, "stat.size", -100, "dirent.name", 1, "flags.atSymlinkNofollow", 1);
        for (Map.Entry<String, Integer> shift : shifts.entrySet()) {
            Object wrong = with(row, shift.getKey().split("\\."), shift.getValue());
            assertThat(bindAndCheck(wrong)).as(shift.getKey()).isInstanceOf(UnsupportedOperationException.class);
        }
        // no AT_SYMLINK_NOFOLLOW at all: the root's links (a merged /usr's /bin, Darwin's /tmp) would be followed
        try (Stream<Path> root = Files.list(Path.of("/"))) {
            if (root.anyMatch(Files::isSymbolicLink)) {
                Object following = with(row, new String[] {"flags", "atSymlinkNofollow"}, -linkFlag(row));
                assertThat(bindAndCheck(following)).as("no AT_SYMLINK_NOFOLLOW")
                        .isInstanceOf(UnsupportedOperationException.class);
            }
        }
        // the other systems' rows: a symbol missing here, or numbers the machine disagrees with
        for (String[] other : new String[][] {{"Mac OS X", "x86_64"}, {"Mac OS X", "aarch64"}, {"Linux", "aarch64"}}) {
            assertThat(bindAndCheck(rowOf(other[0], other[1]))).as(String.join(" ", other))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
        assertThatThrownBy(() -> rowOf("FreeBSD", "amd64")).isInstanceOf(UnsupportedOperationException.class);
    }

    private static int linkFlag(Object row) throws Exception {
        Method flags = row.getClass().getDeclaredMethod("flags");
        flags.setAccessible(true);
        Object values = flags.invoke(row);
        Method flag = values.getClass().getDeclaredMethod("atSymlinkNofollow");
        flag.setAccessible(true);
        return (Integer) flag.invoke(values);
    }

    private static Object rowOf(String os, String arch) throws Exception {
        Method of = Class.forName("dev.mero.core.ops.PosixTable").getDeclaredMethod("of", String.class, String.class);
        of.setAccessible(true);
        try {
            return of.invoke(null, os, arch);
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
    }

    /** Binds the calls of a row and checks them: {@code null} if accepted, else why not. */
    private static Throwable bindAndCheck(Object row) throws Exception {
        Class<?> callsClass = Class.forName("dev.mero.core.ops.PosixCalls");
        Constructor<?> bind = callsClass.getDeclaredConstructor(row.getClass());
        bind.setAccessible(true);
        Method verify = Class.forName("dev.mero.core.ops.PosixSelfCheck").getDeclaredMethod("verify", callsClass);
        verify.setAccessible(true);
        try {
            verify.invoke(null, bind.newInstance(row));
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        }
    }

    /** A copy of a record with the int component at a path of component names shifted by {@code delta}. */
    private static Object with(Object record, String[] path, int delta) throws Exception {
        RecordComponent[] components = record.getClass().getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            Method accessor = components[i].getAccessor();
            accessor.setAccessible(true);
            values[i] = accessor.invoke(record);
            types[i] = components[i].getType();
            if (components[i].getName().equals(path[0])) {
                values[i] = path.length == 1 ? (Object) ((Integer) values[i] + delta)
                        : with(values[i], java.util.Arrays.copyOfRange(path, 1, path.length), delta);
            }
        }
        Constructor<?> copy = record.getClass().getDeclaredConstructor(types);
        copy.setAccessible(true);
        return copy.newInstance(values);
    }

    /** Where the mount namespace cannot be made: no class of the layer holds a path of {@code /proc}. */
    @Test
    void noClassOfTheLayerNamesAPathOfProc() throws IOException {
        for (String name : List.of("PortableDirectories", "PosixCalls", "PosixTable", "PosixSelfCheck",
                "DescriptorDirectoryStream", "DescriptorFileChannel", "DescriptorAttributeView", "DescriptorAttributes",
                "DescriptorFileKey")) {
            try (java.io.InputStream in = PortableDirectoriesTest.class.getResourceAsStream(name + ".class")) {
                assertThat(in).as(name).isNotNull();
                String constants = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                assertThat(constants).as(name).doesNotContain("/proc").doesNotContain("/dev/fd");
            }
        }
    }

    /**
     * The layer in a JVM whose {@code /proc} is an empty file system, as on a system without one: where the mount
     * namespace can be made (root, or user namespaces allowed), the child ({@link PortableWithoutProc}) must pass.
     */
    @Test
    void theLayerServesAProcessWithoutProc() throws Exception {
        assumeTrue(canHideProc(), "no mount namespace to hide /proc in");
        Path home = Path.of(System.getProperty("java.home"));
        Path work = Files.createDirectory(dir.resolve("work"));
        ProcessBuilder child = new ProcessBuilder(hideProc(List.of(home.resolve("bin/java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Dmero.secureDirectoryStream=absent",
                "-Dmero.confinedCalls.failWith=ENOSYS", "-cp", System.getProperty("java.class.path"),
                PortableWithoutProc.class.getName(), work.toString()))).redirectErrorStream(true);
        // without /proc the launcher cannot find its own libraries by its path
        child.environment().put("LD_LIBRARY_PATH", home.resolve("lib") + ":" + home.resolve("lib/server"));
        Process process = child.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(output).contains(PortableWithoutProc.OK);
        assertThat(process.exitValue()).isZero();
    }

    private static List<String> hideProc(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of("unshare", "--mount", "--map-root-user", "sh", "-c",
                "mount -t tmpfs none /proc && exec \"$0\" \"$@\""));
        wrapped.addAll(command);
        return wrapped;
    }

    private static boolean canHideProc() throws InterruptedException {
        try {
            Process probe = new ProcessBuilder(hideProc(List.of("true"))).redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        }
    }
}
