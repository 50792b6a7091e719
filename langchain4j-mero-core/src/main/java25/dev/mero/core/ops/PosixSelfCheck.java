package dev.mero.core.ops;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Checks a row of {@link PosixTable} against the machine before the layer uses it: a wrong offset or symbol would
 * otherwise misjudge a file's type or identity in silence, and rows for systems this project's CI does not run
 * (Darwin) come from the headers alone. The root, its symbolic links and the entries of the JDK's home directory
 * are read with {@code fstat}, {@code fstatat} and {@code readdir} through the row and compared with what the JDK
 * reads by path ({@code unix:*} attributes: inode, device, mode, link count, owner, group, size, times, file key)
 * and lists; a directory and a regular file must be among them. Any disagreement makes the layer unavailable, as a
 * missing row does. It runs once, when the calls are first bound, and reads a few dozen entries.
 */
final class PosixSelfCheck {

    /** At most this many entries of the JDK's home are compared: a few suffice, and the check stays quick. */
    private static final int MAX_ENTRIES = 64;

    private PosixSelfCheck() {
    }

    /**
     * Checks the calls of a row.
     *
     * @param calls the calls, bound with the row
     * @throws UnsupportedOperationException naming what disagrees (never a path), if anything does
     */
    static void verify(PosixCalls calls) {
        try {
            check(calls);
        } catch (IOException | RuntimeException e) {
            throw new UnsupportedOperationException("the table could not be checked ("
                    + e.getClass().getSimpleName() + ")", e);
        }
    }

    private static void check(PosixCalls calls) throws IOException {
        PosixTable.Flags flags = calls.table.flags();
        int directoryFlags = flags.oRdonly() | flags.oCloexec() | flags.oDirectory() | flags.oNonblock();
        Path root = Path.of("/");
        int rootFd = calls.openat(flags.atFdcwd(), root.toString(), directoryFlags, 0);
        try {
            compare("the root (fstat)", root, () -> calls.fstat(rootFd));
        } finally {
            calls.close(rootFd);
        }
        compare("the root (fstatat)", root, () -> calls.fstatat(flags.atFdcwd(), root.toString(), false));
        checkRootLinks(calls, directoryFlags);

        Path home = Path.of(System.getProperty("java.home")).toRealPath();
        int homeFd = calls.openat(flags.atFdcwd(), home.toString(), directoryFlags | flags.oNofollow(), 0);
        try {
            List<String> names = listAsTheJdkDoes(calls, homeFd, home, "the listing of the JDK's home");
            boolean directory = false;
            String file = null;
            for (String name : names.subList(0, Math.min(names.size(), MAX_ENTRIES))) {
                DescriptorAttributes entry = compare("an entry of the JDK's home", home.resolve(name),
                        () -> calls.fstatat(homeFd, name, false));
                directory |= entry.isDirectory();
                file = file == null && entry.isRegularFile() ? name : file;
            }
            if (!directory || file == null) {
                throw new UnsupportedOperationException("no directory and regular file to check the table with");
            }
            String regular = file;
            int fileFd = calls.openat(homeFd, regular,
                    flags.oRdonly() | flags.oNonblock() | flags.oCloexec() | flags.oNofollow(), 0);
            try {
                compare("a file of the JDK's home (fstat)", home.resolve(regular), () -> calls.fstat(fileFd));
            } finally {
                calls.close(fileFd);
            }
        } finally {
            calls.close(homeFd);
        }
    }

    /**
     * The root's listing, and its symbolic links read without following them (Darwin's {@code /tmp}, {@code /var},
     * {@code /etc}, a merged-{@code /usr} Linux's {@code /bin}, {@code /lib}): links never change, so they check
     * {@code AT_SYMLINK_NOFOLLOW} without a race with what the other entries of the root are doing.
     */
    private static void checkRootLinks(PosixCalls calls, int directoryFlags) throws IOException {
        Path root = Path.of("/");
        int rootFd = calls.openat(calls.table.flags().atFdcwd(), root.toString(), directoryFlags, 0);
        try {
            List<String> names = listAsTheJdkDoes(calls, rootFd, root, "the listing of the root");
            for (String name : names.subList(0, Math.min(names.size(), MAX_ENTRIES))) {
                if (Files.isSymbolicLink(root.resolve(name))) {
                    compare("a link in the root", root.resolve(name), () -> calls.fstatat(rootFd, name, false));
                }
            }
        } finally {
            calls.close(rootFd);
        }
    }

    /** The names {@code readdir} gives for a directory's descriptor, checked to be those {@link Files#list} gives. */
    private static List<String> listAsTheJdkDoes(PosixCalls calls, int directory, Path path, String what)
            throws IOException {
        List<String> names = list(calls, directory);
        TreeSet<String> jdkNames = new TreeSet<>();
        try (Stream<Path> listed = Files.list(path)) {
            listed.forEach(entry -> jdkNames.add(entry.getFileName().toString()));
        }
        if (names.size() != jdkNames.size() || !jdkNames.equals(new TreeSet<>(names))) {
            throw disagrees(what);
        }
        return names;
    }

    /** The names {@code readdir} gives for a directory's descriptor, without {@code .} and {@code ..}. */
    private static List<String> list(PosixCalls calls, int directory) throws IOException {
        PosixTable.Flags flags = calls.table.flags();
        int copy = calls.openat(directory, ".", flags.oRdonly() | flags.oCloexec() | flags.oDirectory(), 0);
        MemorySegment dir;
        try {
            dir = calls.fdopendir(copy);
        } catch (IOException | RuntimeException e) {
            calls.close(copy);
            throw e;
        }
        try {
            List<String> names = new ArrayList<>();
            for (Path name = calls.readdir(dir); name != null; name = calls.readdir(dir)) {
                if (!NativeName.isDotOrDotDot(name)) {
                    names.add(name.toString());
                }
            }
            return names;
        } finally {
            calls.closedir(dir);
        }
    }

    /** A read through the row. */
    private interface Read {
        DescriptorAttributes read() throws IOException;
    }

    /**
     * Reads a file through the row between two reads of the JDK (a time may change between them: the row's read
     * must agree with one of them) and returns it if it agrees.
     */
    private static DescriptorAttributes compare(String what, Path path, Read read) throws IOException {
        Map<String, Object> before = Files.readAttributes(path, "unix:*", LinkOption.NOFOLLOW_LINKS);
        DescriptorAttributes ours = read.read();
        Map<String, Object> after = Files.readAttributes(path, "unix:*", LinkOption.NOFOLLOW_LINKS);
        if (!agrees(ours, before) && !agrees(ours, after)) {
            throw disagrees(what);
        }
        return ours;
    }

    private static boolean agrees(DescriptorAttributes ours, Map<String, Object> jdk) {
        return ours.ino() == number(jdk, "ino")
                && ours.dev() == number(jdk, "dev")
                && ours.mode() == number(jdk, "mode")
                && ours.nlink() == number(jdk, "nlink")
                && ours.uid() == number(jdk, "uid")
                && ours.gid() == number(jdk, "gid")
                && ours.size() == number(jdk, "size")
                && ours.isDirectory() == (Boolean) jdk.get("isDirectory")
                && ours.isRegularFile() == (Boolean) jdk.get("isRegularFile")
                && ours.isSymbolicLink() == (Boolean) jdk.get("isSymbolicLink")
                && ours.isOther() == (Boolean) jdk.get("isOther")
                && ours.lastModifiedTime().equals(jdk.get("lastModifiedTime"))
                && ours.lastAccessTime().equals(jdk.get("lastAccessTime"))
                && ours.ctime().equals(jdk.get("ctime"))
                // the birth time where the row has one (Darwin); Linux's JDK reads it with statx, not fstat
                && (ours.birthtime() == null || ours.birthtime().equals(jdk.get("creationTime")))
                && ours.permissions().equals(jdk.get("permissions"))
                && Objects.equals(ours.fileKey(), jdk.get("fileKey"));
    }

    private static long number(Map<String, Object> jdk, String name) {
        return ((Number) jdk.get(name)).longValue();
    }

    private static UnsupportedOperationException disagrees(String what) {
        return new UnsupportedOperationException("the table disagrees with the JDK on " + what);
    }
}
