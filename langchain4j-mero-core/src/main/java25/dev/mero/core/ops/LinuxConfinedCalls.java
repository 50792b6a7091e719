package dev.mero.core.ops;

import static dev.mero.core.ops.LinuxSyscalls.AT_EMPTY_PATH;
import static dev.mero.core.ops.LinuxSyscalls.AT_FDCWD;
import static dev.mero.core.ops.LinuxSyscalls.AT_SYMLINK_NOFOLLOW;
import static dev.mero.core.ops.LinuxSyscalls.ENOSYS;
import static dev.mero.core.ops.LinuxSyscalls.EPERM;
import static dev.mero.core.ops.LinuxSyscalls.O_CLOEXEC;
import static dev.mero.core.ops.LinuxSyscalls.O_NOCTTY;
import static dev.mero.core.ops.LinuxSyscalls.O_NONBLOCK;
import static dev.mero.core.ops.LinuxSyscalls.O_PATH;
import static dev.mero.core.ops.LinuxSyscalls.O_RDONLY;
import static dev.mero.core.ops.LinuxSyscalls.RESOLVE_BENEATH;
import static dev.mero.core.ops.LinuxSyscalls.RESOLVE_NO_MAGICLINKS;
import static dev.mero.core.ops.LinuxSyscalls.RESOLVE_NO_SYMLINKS;
import static dev.mero.core.ops.LinuxSyscalls.STATX_DEV_MAJOR;
import static dev.mero.core.ops.LinuxSyscalls.STATX_DEV_MINOR;
import static dev.mero.core.ops.LinuxSyscalls.STATX_INO;
import static dev.mero.core.ops.LinuxSyscalls.STATX_INO_AT;
import static dev.mero.core.ops.LinuxSyscalls.STATX_MASK;
import static dev.mero.core.ops.LinuxSyscalls.STATX_MODE;
import static dev.mero.core.ops.LinuxSyscalls.STATX_SIZE_AT;
import static dev.mero.core.ops.LinuxSyscalls.S_IFDIR;
import static dev.mero.core.ops.LinuxSyscalls.S_IFMT;
import static dev.mero.core.ops.LinuxSyscalls.S_IFREG;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import dev.mero.core.path.FileNameEncoding;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link ConfinedCalls} through Linux's {@code openat2} (5.6 and later), bound with the foreign-function API: the
 * system calls of {@link KeptMountCalls}, which decides as the Java 17 JNI layer does.
 */
final class LinuxConfinedCalls extends KeptMountCalls {

    /** Set to an errno name ({@code ENOSYS}, {@code EPERM}) to make every {@code openat2} fail so, for tests. */
    static final String FAIL_WITH_PROPERTY = "mero.confinedCalls.failWith";

    private static final long BENEATH = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;

    private final LinuxSyscalls calls;
    private final Charset encoding;
    private final int failWith;

    private LinuxConfinedCalls(LinuxSyscalls calls, Charset encoding, int failWith) {
        this.calls = calls;
        this.encoding = encoding;
        this.failWith = failWith;
    }

    /**
     * Binds the calls and opens the working directory with {@code openat2} once, as every later call would.
     *
     * @return the layer, or {@link ConfinedCalls#NONE} where the kernel lacks {@code openat2} ({@code ENOSYS}),
     *         a seccomp policy refuses it ({@code EPERM}) or any other error says it cannot be used
     */
    static ConfinedCalls probe() {
        String fail = System.getProperty(FAIL_WITH_PROPERTY, "");
        int failWith = "ENOSYS".equals(fail) ? ENOSYS : "EPERM".equals(fail) ? EPERM : 0;
        LinuxConfinedCalls layer = new LinuxConfinedCalls(LinuxSyscalls.forThisMachine(),
                Charset.forName(FileNameEncoding.charset()), failWith);
        NativeScratch scratch = NativeScratch.get();
        scratch.setPath(".", layer.encoding);
        long fd = layer.openat2(scratch, AT_FDCWD, O_PATH | layer.calls.oDirectory | O_CLOEXEC, BENEATH);
        if (fd < 0) {
            return ConfinedCalls.NONE;
        }
        layer.calls.close((int) fd);
        return layer;
    }

    @Override
    public String name() {
        return "openat2";
    }

    @Override
    int openMount(Path root) {
        NativeScratch scratch = NativeScratch.get();
        if (!scratch.setPath(root.toString(), encoding)) {
            return -1;
        }
        // an absolute path: no RESOLVE_BENEATH; no name on the way may be a link
        long fd = openat2(scratch, AT_FDCWD, O_PATH | calls.oDirectory | O_CLOEXEC,
                RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        return fd < 0 ? -1 : (int) fd;
    }

    /**
     * The device (major, minor) and inode of an open descriptor's file, as {@code statx} reports them, or {@code
     * null} when the call fails or does not report the inode.
     */
    @Override
    long[] identityOf(int fd) {
        NativeScratch scratch = NativeScratch.get();
        if (calls.statxIdentity(scratch.capture, fd, scratch.empty, AT_EMPTY_PATH, scratch.statx) != 0) {
            return null;
        }
        return identity(scratch.statx);
    }

    /** One {@code statx} of the path, not following a last link: a directory with the identity given. */
    @Override
    boolean isDirectoryAt(Path root, long[] identity) {
        NativeScratch scratch = NativeScratch.get();
        if (!scratch.setPath(root.toString(), encoding)
                || calls.statxIdentity(scratch.capture, AT_FDCWD, scratch.path, AT_SYMLINK_NOFOLLOW,
                scratch.statx) != 0
                || (scratch.statx.get(JAVA_SHORT, STATX_MODE) & S_IFMT) != S_IFDIR) {
            return false;
        }
        MemorySegment now = scratch.statx;
        return (now.get(JAVA_INT, STATX_MASK) & STATX_INO) != 0
                && identity[0] == Integer.toUnsignedLong(now.get(JAVA_INT, STATX_DEV_MAJOR))
                && identity[1] == Integer.toUnsignedLong(now.get(JAVA_INT, STATX_DEV_MINOR))
                && identity[2] == now.get(JAVA_LONG, STATX_INO_AT);
    }

    @Override
    SeekableByteChannel openRegularBelow(int directory, String relative) {
        NativeScratch scratch = NativeScratch.get();
        if (!scratch.setPath(relative, encoding)) {
            return null;
        }
        long fd = openat2(scratch, directory, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | calls.oNofollow,
                BENEATH);
        if (fd < 0) {
            return null;
        }
        int descriptor = (int) fd;
        boolean regular = false;
        try {
            regular = calls.fstatx(scratch.capture, descriptor, scratch.empty, scratch.statx) == 0
                    && (scratch.statx.get(JAVA_SHORT, STATX_MODE) & S_IFMT) == S_IFREG;
            return regular ? new DescriptorChannel(calls, descriptor, scratch.statx.get(JAVA_LONG, STATX_SIZE_AT))
                    : null;
        } finally {
            if (!regular) {
                // a pipe, device, socket or directory: the JDK's path refuses it with today's message
                calls.close(descriptor);
            }
        }
    }

    @Override
    int openBelow(int directory, String relative, Below how) {
        NativeScratch scratch = NativeScratch.get();
        if (!scratch.setPath(relative, encoding)) {
            return -1;
        }
        long flags = how == Below.DIRECTORY
                ? O_RDONLY | O_NONBLOCK | O_CLOEXEC | calls.oDirectory | calls.oNofollow
                : O_PATH | O_CLOEXEC | calls.oDirectory | calls.oNofollow;
        long fd = openat2(scratch, directory, flags, BENEATH);
        return fd < 0 ? -1 : (int) fd;
    }

    @Override
    List<TypedName> entries(int fd, int max) {
        NativeScratch scratch = NativeScratch.get();
        List<TypedName> names = new ArrayList<>();
        MemorySegment buffer = scratch.entries;
        byte[] name = new byte[256];
        while (true) {
            long n = calls.getdents64(scratch.capture, fd, buffer);
            if (n < 0) {
                return null;
            }
            if (n == 0) {
                return names;
            }
            // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name (NUL-terminated)
            for (long at = 0; at < n; ) {
                int length = Short.toUnsignedInt(buffer.get(JAVA_SHORT, at + 16));
                int type = Byte.toUnsignedInt(buffer.get(JAVA_BYTE, at + 18));
                int size = 0;
                for (long b = at + 19; b < at + length && buffer.get(JAVA_BYTE, b) != 0; b++) {
                    name[size++] = buffer.get(JAVA_BYTE, b);
                }
                at += length;
                if (isDot(name, size)) {
                    continue;
                }
                String decoded = new String(name, 0, size, encoding);
                if (decoded.indexOf('\uFFFD') >= 0) {
                    // the JDK's listing counts it as unusable; let it
                    return null;
                }
                names.add(new TypedName(decoded, TypedName.Type.of(type)));
                if (names.size() > max) {
                    return names;
                }
            }
        }
    }

    private static boolean isDot(byte[] name, int size) {
        return (size == 1 && name[0] == '.') || (size == 2 && name[0] == '.' && name[1] == '.');
    }

    @Override
    ListedFiles filesOf(int fd) {
        return new LinuxListedFiles(calls, fd, encoding);
    }

    @Override
    void close(int fd) {
        calls.close(fd);
    }

    private long openat2(NativeScratch scratch, int directory, long flags, long resolve) {
        if (failWith != 0) {
            return -failWith;
        }
        return calls.openat2(scratch.capture, scratch.how, directory, scratch.path, flags, resolve);
    }

    /** The device (major, minor) and inode a successful {@code statx} wrote, {@code null} without the inode. */
    private static long[] identity(MemorySegment statx) {
        if ((statx.get(JAVA_INT, STATX_MASK) & STATX_INO) == 0) {
            return null;
        }
        return new long[] {Integer.toUnsignedLong(statx.get(JAVA_INT, STATX_DEV_MAJOR)),
                Integer.toUnsignedLong(statx.get(JAVA_INT, STATX_DEV_MINOR)), statx.get(JAVA_LONG, STATX_INO_AT)};
    }

}
