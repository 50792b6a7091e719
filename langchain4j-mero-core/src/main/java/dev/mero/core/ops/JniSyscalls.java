package dev.mero.core.ops;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The few Linux system calls the Java 17 {@link JniConfinedCalls} needs, from the small native library built with the
 * core ({@code src/main/c/mero_calls.c}, in the jar under {@code native/linux-<arch>/}). Each returns what the kernel
 * returned, an error as {@code -errno}; nothing here decides anything.
 *
 * <p>The library is copied from the jar into a new directory only this user can enter (the JDK creates temporary
 * directories with mode {@code 0700}), loaded, and both are deleted at once: no other user can replace it between
 * the copy and the load. Where it is missing (another system or architecture, a build without a C compiler) or
 * cannot be loaded (a temporary directory mounted {@code noexec}), {@link #LOADED} is false and the JDK's path is
 * taken.
 */
final class JniSyscalls {

    /** What {@link #openat2} opens: a regular file to read, confined below a directory, without blocking. */
    static final int OPEN_FILE = 0;
    /** A mount's directory by its absolute path ({@code O_PATH}), with no link on the way. */
    static final int OPEN_MOUNT = 1;
    /** The working directory ({@code O_PATH}, {@code RESOLVE_BENEATH}): the probe that {@code openat2} works. */
    static final int OPEN_PROBE = 2;
    /** A directory to list, confined below a directory, without following a last link or blocking. */
    static final int OPEN_DIRECTORY = 3;
    /** A directory to open files from ({@code O_PATH}), confined below a directory, not following a last link. */
    static final int OPEN_DIRECTORY_PATH = 4;

    /** {@code AT_FDCWD}, the same on every Linux architecture. */
    static final int AT_FDCWD = -100;
    /** The file-type bits of {@code st_mode} and their values, the same on every Linux architecture. */
    static final long S_IFMT = 0170000;
    static final long S_IFREG = 0100000;
    static final long S_IFDIR = 0040000;
    /** Error numbers the layer names, the same on x86-64 and AArch64. */
    static final int EPERM = 1;
    static final int ENOSYS = 38;

    /** Where {@code stat} results go: mode, size, device, inode. */
    static final int MODE = 0;
    static final int SIZE = 1;
    static final int DEVICE = 2;
    static final int INODE = 3;
    static final int STAT_LONGS = 4;

    /** Whether the library was found and loaded. */
    static final boolean LOADED = load();

    private JniSyscalls() {
    }

    private static boolean load() {
        if (!"linux".equals(System.getProperty("os.name", "").toLowerCase(Locale.ROOT))) {
            return false;
        }
        String resource = "native/linux-" + System.getProperty("os.arch", "") + "/libmero_calls.so";
        try (InputStream in = JniSyscalls.class.getResourceAsStream(resource)) {
            if (in == null) {
                return false;
            }
            Path directory = Files.createTempDirectory("mero-native");
            Path library = directory.resolve("libmero_calls.so");
            try {
                Files.copy(in, library);
                System.load(library.toString());
                return true;
            } finally {
                Files.deleteIfExists(library);
                Files.deleteIfExists(directory);
            }
        } catch (IOException | RuntimeException | UnsatisfiedLinkError e) {
            return false;
        }
    }

    /**
     * Opens a name with {@code openat2}, in one of the ways above, and reads the descriptor's {@code stat}.
     *
     * @param directory the directory descriptor the name is relative to, or {@link #AT_FDCWD}
     * @param name      the name's bytes, without a terminating NUL
     * @param how       {@link #OPEN_FILE}, {@link #OPEN_MOUNT}, {@link #OPEN_PROBE}, {@link #OPEN_DIRECTORY} or
     *                  {@link #OPEN_DIRECTORY_PATH}
     * @param stat      where the descriptor's {@code stat} goes ({@link #STAT_LONGS} longs), or {@code null}
     * @return the descriptor, or {@code -errno}
     */
    static native int openat2(int directory, byte[] name, int how, long[] stat);

    /**
     * {@code fstatat(AT_FDCWD, name, AT_SYMLINK_NOFOLLOW)}.
     *
     * @param name the absolute name's bytes
     * @param stat where the result goes
     * @return 0, or {@code -errno}
     */
    static native int lstat(byte[] name, long[] stat);

    /**
     * {@code fstat}.
     *
     * @param fd   the descriptor
     * @param stat where the result goes
     * @return 0, or {@code -errno}
     */
    static native int fstat(int fd, long[] stat);

    /**
     * {@code pread} into an array, at most 32 KiB per call.
     *
     * @return the bytes read (0 at the end), or {@code -errno}
     */
    static native int pread(int fd, byte[] destination, int offset, int length, long position);

    /**
     * {@code getdents64}: the next entries of an open directory as {@code struct linux_dirent64} records, at most
     * 32 KiB per call.
     *
     * @return the bytes written (0 at the end), or {@code -errno}
     */
    static native int getdents64(int fd, byte[] destination);

    /**
     * {@code close}.
     *
     * @return 0, or {@code -errno}
     */
    static native int close(int fd);
}
