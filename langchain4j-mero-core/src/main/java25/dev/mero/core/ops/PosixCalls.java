package dev.mero.core.ops;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.mero.core.path.FileNameEncoding;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.Charset;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;

/**
 * The POSIX calls of the portable directory layer ({@link DescriptorDirectoryStream}), bound through the
 * foreign-function API from the C library: {@code openat}, {@code unlinkat}, {@code renameat}, {@code close} and
 * {@code strerror}. Their flag and error numbers differ between systems and architectures, so they come from a
 * small table ({@link Table}); a system without one is not served ({@link #forThisMachine()} fails and the caller
 * fails closed). Only Linux is in the table: the layer reads an open descriptor's type and lists it through
 * {@code /proc/self/fd}, which other systems do not have in that form.
 */
final class PosixCalls {

    /**
     * One system's numbers.
     *
     * @param atFdcwd     {@code AT_FDCWD}
     * @param oDirectory  {@code O_DIRECTORY}
     * @param oNofollow   {@code O_NOFOLLOW}
     * @param atRemovedir {@code AT_REMOVEDIR}
     */
    record Table(int atFdcwd, int oDirectory, int oNofollow, int atRemovedir) {
        // the same on every Linux architecture in the table
        static final int O_RDONLY = 0;
        static final int O_WRONLY = 1;
        static final int O_RDWR = 2;
        static final int O_CREAT = 0x40;
        static final int O_EXCL = 0x80;
        static final int O_NOCTTY = 0x100;
        static final int O_TRUNC = 0x200;
        static final int O_APPEND = 0x400;
        static final int O_NONBLOCK = 0x800;
        static final int O_CLOEXEC = 0x80000;
        static final int EACCES = 13;
        static final int ENOENT = 2;
        static final int EEXIST = 17;
        static final int ENOTDIR = 20;
        static final int ELOOP = 40;
        static final int ENOTEMPTY = 39;
        static final int EPERM = 1;
        static final int ENXIO = 6;
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    final Table table;
    private final Charset encoding;
    private final MethodHandle openat;
    private final MethodHandle unlinkat;
    private final MethodHandle renameat;
    private final MethodHandle close;
    private final MethodHandle strerror;

    private PosixCalls(Table table) {
        this.table = table;
        this.encoding = Charset.forName(FileNameEncoding.charset());
        Linker.Option errno = Linker.Option.captureCallState("errno");
        openat = bind("openat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
                Linker.Option.firstVariadicArg(3), errno);
        unlinkat = bind("unlinkat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), errno);
        renameat = bind("renameat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), errno);
        close = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        strerror = bind("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /**
     * The calls of this machine.
     *
     * @return the bound calls
     * @throws UnsupportedOperationException where the table has no row for this system and architecture
     */
    static PosixCalls forThisMachine() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.startsWith("linux")) {
            throw new UnsupportedOperationException("no table for " + os);
        }
        return switch (arch) {
            case "amd64", "x86_64" -> new PosixCalls(new Table(-100, 0x10000, 0x20000, 0x200));
            case "aarch64" -> new PosixCalls(new Table(-100, 0x4000, 0x8000, 0x200));
            default -> throw new UnsupportedOperationException("no table for " + arch);
        };
    }

    private static MethodHandle bind(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsupportedOperationException("no " + name + " in the C library"));
        return LINKER.downcallHandle(symbol, descriptor, options);
    }

    /**
     * {@code openat(directory, name, flags, mode)}.
     *
     * @return the new descriptor
     * @throws IOException as the JDK reports the same error
     */
    int openat(int directory, String name, int flags, int mode) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = arena.allocate(CAPTURE);
            int fd = (int) openat.invokeExact(capture, directory, native_(arena, name), flags, mode);
            if (fd < 0) {
                throw failure(errno(capture), name);
            }
            return fd;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code unlinkat(directory, name, flags)}. */
    void unlinkat(int directory, String name, int flags) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = arena.allocate(CAPTURE);
            if ((int) unlinkat.invokeExact(capture, directory, native_(arena, name), flags) < 0) {
                throw failure(errno(capture), name);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code renameat(from, name, to, newName)}. */
    void renameat(int from, String name, int to, String newName) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = arena.allocate(CAPTURE);
            if ((int) renameat.invokeExact(capture, from, native_(arena, name), to, native_(arena, newName)) < 0) {
                throw failure(errno(capture), name);
            }
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code close(fd)}; its outcome tells nothing a caller could act on. */
    void close(int fd) {
        try {
            int ignored = (int) close.invokeExact(fd);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** A name in the JVM's file-name encoding, NUL-terminated; one that it cannot represent is never passed. */
    private MemorySegment native_(Arena arena, String name) throws FileSystemException {
        byte[] bytes = name.getBytes(encoding);
        if (name.indexOf('\0') >= 0 || name.indexOf('\uFFFD') >= 0 || !new String(bytes, encoding).equals(name)) {
            throw new FileSystemException(null, null, FileNameEncoding.unusableNameReason());
        }
        MemorySegment text = arena.allocate(bytes.length + 1L);
        MemorySegment.copy(bytes, 0, text, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, bytes.length);
        return text;
    }

    private static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    /** The exception the JDK's own file system gives for an error number, so callers explain it as always. */
    private IOException failure(int errno, String name) {
        return switch (errno) {
            case Table.ENOENT -> new NoSuchFileException(name);
            case Table.EEXIST -> new FileAlreadyExistsException(name);
            case Table.ENOTDIR -> new NotDirectoryException(name);
            case Table.EACCES, Table.EPERM -> new AccessDeniedException(name);
            case Table.ENOTEMPTY -> new DirectoryNotEmptyException(name);
            // a pipe without a reader, opened non-blocking to write; or a device without its driver
            case Table.ENXIO -> new FileSystemException(name, null,
                    "it is a pipe, device or socket, not a regular file or directory");
            case Table.ELOOP -> new FileSystemException(name, null,
                    reason(errno) + " or unable to access attributes of symbolic link");
            default -> new FileSystemException(name, null, reason(errno));
        };
    }

    private String reason(int errno) {
        try {
            MemorySegment text = (MemorySegment) strerror.invokeExact(errno);
            return text.reinterpret(1024).getString(0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
