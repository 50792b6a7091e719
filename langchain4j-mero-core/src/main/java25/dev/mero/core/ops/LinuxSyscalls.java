package dev.mero.core.ops;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * The few Linux system calls the {@code openat2} layer makes, bound through the foreign-function API: {@code
 * openat2} and {@code getdents64} (through {@code syscall(2)}, which every C library has; {@code openat2}'s number
 * is the same on every architecture), {@code statx} (a layout that is the same on every architecture), {@code
 * pread} and {@code close}. Every call returns the kernel's result, or {@code -errno}.
 *
 * <p>The {@code open} flags differ between architectures; x86-64 and AArch64 are known, anything else is not
 * used ({@link #forThisMachine()} fails).
 */
final class LinuxSyscalls {

    static final int AT_FDCWD = -100;
    static final int AT_EMPTY_PATH = 0x1000;
    static final int AT_SYMLINK_NOFOLLOW = 0x100;
    static final int O_RDONLY = 0;
    static final int O_NOCTTY = 0x100;
    static final int O_NONBLOCK = 0x800;
    static final int O_CLOEXEC = 0x80000;
    static final int O_PATH = 0x200000;
    static final long RESOLVE_NO_MAGICLINKS = 0x02;
    static final long RESOLVE_NO_SYMLINKS = 0x04;
    static final long RESOLVE_BENEATH = 0x08;
    static final int STATX_TYPE = 0x1;
    static final int STATX_INO = 0x100;
    static final int STATX_SIZE = 0x200;
    static final int S_IFMT = 0170000;
    static final int S_IFREG = 0100000;
    static final int S_IFDIR = 0040000;
    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int ENOSYS = 38;
    /**
     * {@code struct statx}: 256 bytes; {@code stx_mask} at 0, {@code stx_mode} at 28, {@code stx_ino} at 32,
     * {@code stx_size} at 40, {@code stx_dev_major} and {@code stx_dev_minor} at 136 and 140.
     */
    static final long STATX_BYTES = 256;
    static final long STATX_MASK = 0;
    static final long STATX_MODE = 28;
    static final long STATX_INO_AT = 32;
    static final long STATX_SIZE_AT = 40;
    static final long STATX_DEV_MAJOR = 136;
    static final long STATX_DEV_MINOR = 140;
    /** {@code struct open_how}: flags, mode, resolve, three 64-bit fields. */
    static final long OPEN_HOW_BYTES = 24;

    private static final long SYS_OPENAT2 = 437;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /** {@code O_DIRECTORY} on this architecture. */
    final int oDirectory;
    /** {@code O_NOFOLLOW} on this architecture. */
    final int oNofollow;
    private final long sysGetdents64;

    // static final, so that the JIT compiles each call down to its stub (a handle in a field it cannot trust to
    // stay the same is invoked through a generic path on every call)
    private static final MethodHandle SYSCALL4;
    private static final MethodHandle SYSCALL3;
    private static final MethodHandle STATX;
    private static final MethodHandle PREAD;
    private static final MethodHandle CLOSE;

    static {
        Linker.Option errno = Linker.Option.captureCallState("errno");
        SYSCALL4 = bind("syscall", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, JAVA_LONG),
                Linker.Option.firstVariadicArg(1), errno);
        SYSCALL3 = bind("syscall", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG),
                Linker.Option.firstVariadicArg(1), errno);
        STATX = bind("statx", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS), errno);
        PREAD = bind("pread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), errno);
        CLOSE = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }

    private LinuxSyscalls(int oDirectory, int oNofollow, long sysGetdents64) {
        this.oDirectory = oDirectory;
        this.oNofollow = oNofollow;
        this.sysGetdents64 = sysGetdents64;
    }

    /**
     * The calls of this machine.
     *
     * @return the bound calls
     * @throws UnsupportedOperationException on an architecture whose flags are not known here, or off Linux
     */
    static LinuxSyscalls forThisMachine() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.startsWith("linux")) {
            throw new UnsupportedOperationException("not Linux");
        }
        switch (arch) {
            case "amd64":
            case "x86_64":
                return new LinuxSyscalls(0x10000, 0x20000, 217);
            case "aarch64":
                return new LinuxSyscalls(0x4000, 0x8000, 61);
            default:
                throw new UnsupportedOperationException("no open flags known for " + arch);
        }
    }

    private static MethodHandle bind(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = SymbolLookup.libraryLookup("libc.so.6", Arena.global()).find(name)
                .or(() -> LINKER.defaultLookup().find(name))
                .orElseThrow(() -> new UnsupportedOperationException("no " + name + " in the C library"));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /** Scratch memory for one thread's calls: the errno capture and the {@code open_how}. */
    static MemorySegment captureOf(Arena arena) {
        return arena.allocate(CAPTURE);
    }

    private static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    /**
     * {@code openat2(directory, path, how)}.
     *
     * @return the new descriptor, or {@code -errno}
     */
    long openat2(MemorySegment capture, MemorySegment how, int directory, MemorySegment path, long flags,
                 long resolve) {
        how.set(JAVA_LONG, 0, flags);
        how.set(JAVA_LONG, 8, 0L);
        how.set(JAVA_LONG, 16, resolve);
        try {
            long fd = (long) SYSCALL4.invokeExact(capture, SYS_OPENAT2, (long) directory, path, how, OPEN_HOW_BYTES);
            return fd < 0 ? -errno(capture) : fd;
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /**
     * {@code getdents64(fd, buffer, buffer.byteSize())}.
     *
     * @return the bytes read (0 at the end), or {@code -errno}
     */
    long getdents64(MemorySegment capture, int fd, MemorySegment buffer) {
        try {
            long n = (long) SYSCALL3.invokeExact(capture, sysGetdents64, (long) fd, buffer, buffer.byteSize());
            return n < 0 ? -errno(capture) : n;
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /**
     * {@code statx(fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_SIZE, buffer)}: the open descriptor's own type and
     * size.
     *
     * @return 0, or {@code -errno}
     */
    int fstatx(MemorySegment capture, int fd, MemorySegment empty, MemorySegment buffer) {
        try {
            int r = (int) STATX.invokeExact(capture, fd, empty, AT_EMPTY_PATH, STATX_TYPE | STATX_SIZE, buffer);
            return r < 0 ? -errno(capture) : r;
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /**
     * {@code statx(directory, path, flags, STATX_TYPE | STATX_INO, buffer)}: a file's type and identity (the
     * device in {@code stx_dev_major}/{@code stx_dev_minor}, the inode in {@code stx_ino}).
     *
     * @return 0, or {@code -errno}
     */
    int statxIdentity(MemorySegment capture, int directory, MemorySegment path, int flags, MemorySegment buffer) {
        try {
            int r = (int) STATX.invokeExact(capture, directory, path, flags, STATX_TYPE | STATX_INO, buffer);
            return r < 0 ? -errno(capture) : r;
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /**
     * {@code pread(fd, buffer, count, offset)}, again while interrupted by a signal.
     *
     * @return the bytes read (0 at the end), or {@code -errno}
     */
    long pread(MemorySegment capture, int fd, MemorySegment buffer, long count, long offset) {
        try {
            while (true) {
                long n = (long) PREAD.invokeExact(capture, fd, buffer, count, offset);
                if (n >= 0) {
                    return n;
                }
                int errno = errno(capture);
                if (errno != EINTR) {
                    return -errno;
                }
            }
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    /** {@code close(fd)}; its outcome tells nothing a caller could act on. */
    void close(int fd) {
        try {
            int ignored = (int) CLOSE.invokeExact(fd);
        } catch (Throwable t) {
            throw rethrown(t);
        }
    }

    private static RuntimeException rethrown(Throwable t) {
        if (t instanceof RuntimeException runtime) {
            return runtime;
        }
        if (t instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(t);
    }
}
