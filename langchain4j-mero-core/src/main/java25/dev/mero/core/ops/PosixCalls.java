package dev.mero.core.ops;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

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
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;

/**
 * The POSIX calls of the portable directory layer ({@link DescriptorDirectoryStream}), bound through the
 * foreign-function API from the C library: {@code openat}, {@code unlinkat}, {@code renameat}, {@code close},
 * {@code strerror}; {@code fstat} and {@code fstatat} for the type and attributes of an open descriptor or of an
 * entry; {@code fdopendir}, {@code readdir} and {@code closedir} for listings; {@code read}, {@code write},
 * {@code pread}, {@code pwrite}, {@code lseek}, {@code ftruncate}, {@code fsync} and {@code fchmod} for the files
 * it opens ({@link DescriptorFileChannel}). No path of {@code /proc} is read: the layer serves systems without one.
 * Flag and error numbers and structure layouts differ between systems and architectures, so they come from a table
 * ({@link PosixTable}); a system without a row is not served ({@link #forThisMachine()} fails and the caller fails
 * closed), nor is one whose row disagrees with what the JDK sees ({@link PosixSelfCheck}).
 */
final class PosixCalls {

    /** {@code S_IFMT} and the types ({@code <sys/stat.h>}): the same on every system of the table. */
    static final int S_IFMT = 0170000;
    static final int S_IFDIR = 0040000;
    static final int S_IFREG = 0100000;
    static final int S_IFLNK = 0120000;
    /** {@code lseek} whence values, the same everywhere. */
    static final int SEEK_SET = 0;
    static final int SEEK_CUR = 1;
    static final int SEEK_END = 2;

    /**
     * The room given to a {@code struct stat}, whatever a row says its size is: a row that says too little must never
     * let the C library write past the buffer (144 bytes on every system of the table).
     */
    private static final long STAT_ROOM = 512;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    final PosixTable table;
    private final Charset encoding;
    private final MethodHandle openat;
    private final MethodHandle unlinkat;
    private final MethodHandle renameat;
    private final MethodHandle close;
    private final MethodHandle strerror;
    private final MethodHandle fstat;
    private final MethodHandle fstatat;
    private final MethodHandle fdopendir;
    private final MethodHandle readdir;
    private final MethodHandle closedir;
    private final MethodHandle read;
    private final MethodHandle write;
    private final MethodHandle pread;
    private final MethodHandle pwrite;
    private final MethodHandle lseek;
    private final MethodHandle ftruncate;
    private final MethodHandle fsync;
    private final MethodHandle fchmod;

    /**
     * Binds the calls of a row; nothing is checked against the machine (see {@link PosixSelfCheck}).
     *
     * @param table the row
     * @throws UnsupportedOperationException if the C library lacks a symbol
     */
    PosixCalls(PosixTable table) {
        requireInside(table.stat());
        this.table = table;
        this.encoding = Charset.forName(FileNameEncoding.charset());
        Linker.Option errno = Linker.Option.captureCallState("errno");
        PosixTable.Symbols names = table.symbols();
        openat = bind("openat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT),
                Linker.Option.firstVariadicArg(3), errno);
        unlinkat = bind("unlinkat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), errno);
        renameat = bind("renameat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), errno);
        close = bind("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        strerror = bind("strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
        fstat = bind(names.fstat(), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), errno);
        fstatat = bind(names.fstatat(), FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT), errno);
        fdopendir = bind(names.fdopendir(), FunctionDescriptor.of(ADDRESS, JAVA_INT), errno);
        readdir = bind(names.readdir(), FunctionDescriptor.of(ADDRESS, ADDRESS));
        closedir = bind("closedir", FunctionDescriptor.of(JAVA_INT, ADDRESS));
        read = bind("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno);
        write = bind("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG), errno);
        pread = bind("pread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), errno);
        pwrite = bind("pwrite", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG), errno);
        lseek = bind("lseek", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT), errno);
        ftruncate = bind("ftruncate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG), errno);
        fsync = bind("fsync", FunctionDescriptor.of(JAVA_INT, JAVA_INT), errno);
        fchmod = bind("fchmod", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT), errno);
    }

    /** Every field the row names lies inside its {@code struct stat}, and that inside the room given to it. */
    private static void requireInside(PosixTable.StatLayout at) {
        int[][] fields = {{at.dev(), at.devSize()}, {at.ino(), 8}, {at.mode(), at.modeSize()},
            {at.nlink(), at.nlinkSize()}, {at.uid(), 4}, {at.gid(), 4}, {at.fileSize(), 8}, {at.atime(), 16},
            {at.mtime(), 16}, {at.ctime(), 16}, {at.birthtime() < 0 ? 0 : at.birthtime(), 16}};
        boolean inside = at.size() <= STAT_ROOM;
        for (int[] field : fields) {
            inside &= field[0] >= 0 && field[0] + field[1] <= at.size();
        }
        if (!inside) {
            throw new UnsupportedOperationException("the table's struct stat does not hold its fields");
        }
    }

    /**
     * The calls of this machine, checked against the JDK's own view of its files.
     *
     * @return the bound calls
     * @throws UnsupportedOperationException where the table has no row for this system and architecture, or its
     *                                       row disagrees with the machine
     */
    static PosixCalls forThisMachine() {
        PosixCalls calls = new PosixCalls(PosixTable.of(System.getProperty("os.name", ""),
                System.getProperty("os.arch", "")));
        PosixSelfCheck.verify(calls);
        return calls;
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
        return (int) checked(name, (arena, capture) ->
                (int) openat.invokeExact(capture, directory, native_(arena, name), flags, mode));
    }

    /** {@code unlinkat(directory, name, flags)}. */
    void unlinkat(int directory, String name, int flags) throws IOException {
        checked(name, (arena, capture) -> (int) unlinkat.invokeExact(capture, directory, native_(arena, name), flags));
    }

    /** {@code renameat(from, name, to, newName)}. */
    void renameat(int from, String name, int to, String newName) throws IOException {
        checked(name, (arena, capture) ->
                (int) renameat.invokeExact(capture, from, native_(arena, name), to, native_(arena, newName)));
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

    /**
     * {@code fstat(fd)}: the attributes of an open descriptor, whatever its name leads to now.
     *
     * @throws IOException if they cannot be read
     */
    DescriptorAttributes fstat(int fd) throws IOException {
        try (Arena buffers = Arena.ofConfined()) {
            MemorySegment buffer = buffers.allocate(STAT_ROOM, 8);
            checked(null, (arena, capture) -> (int) fstat.invokeExact(capture, fd, buffer));
            return attributes(buffer);
        }
    }

    /**
     * {@code fstatat(directory, name, ..., follow ? 0 : AT_SYMLINK_NOFOLLOW)}: an entry's attributes, of the link
     * itself unless asked to follow it.
     *
     * @throws IOException if they cannot be read
     */
    DescriptorAttributes fstatat(int directory, String name, boolean follow) throws IOException {
        int flags = follow ? 0 : table.flags().atSymlinkNofollow();
        try (Arena buffers = Arena.ofConfined()) {
            MemorySegment buffer = buffers.allocate(STAT_ROOM, 8);
            checked(name, (arena, capture) ->
                    (int) fstatat.invokeExact(capture, directory, native_(arena, name), buffer, flags));
            return attributes(buffer);
        }
    }

    /** The fields of a {@code struct stat}, where this system's row says they are. */
    private DescriptorAttributes attributes(MemorySegment stat) {
        PosixTable.StatLayout at = table.stat();
        int mode = (int) unsigned(stat, at.mode(), at.modeSize());
        return new DescriptorAttributes(mode, stat.get(JAVA_LONG, at.ino()), signed(stat, at.dev(), at.devSize()),
                stat.get(JAVA_LONG, at.fileSize()), unsigned(stat, at.nlink(), at.nlinkSize()),
                stat.get(JAVA_INT, at.uid()), stat.get(JAVA_INT, at.gid()), time(stat, at.atime()),
                time(stat, at.mtime()), time(stat, at.ctime()),
                at.birthtime() < 0 ? null : time(stat, at.birthtime()));
    }

    /** As the JDK widens it: {@code (jlong) st_dev}, sign-extended where {@code dev_t} is a 32-bit int. */
    private static long signed(MemorySegment stat, int offset, int size) {
        return size == 4 ? stat.get(JAVA_INT, offset) : stat.get(JAVA_LONG, offset);
    }

    private static long unsigned(MemorySegment stat, int offset, int size) {
        return switch (size) {
            case 2 -> Short.toUnsignedLong(stat.get(JAVA_SHORT, offset));
            case 4 -> Integer.toUnsignedLong(stat.get(JAVA_INT, offset));
            default -> stat.get(JAVA_LONG, offset);
        };
    }

    private static FileTime time(MemorySegment stat, int offset) {
        return FileTime.from(Instant.ofEpochSecond(stat.get(JAVA_LONG, offset), stat.get(JAVA_LONG, offset + 8L)));
    }

    /**
     * {@code fdopendir(fd)}: a directory stream that owns {@code fd} from then on, closed with {@link #closedir}.
     *
     * @throws IOException if it cannot be made ({@code fd} is then still the caller's)
     */
    MemorySegment fdopendir(int fd) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = arena.allocate(CAPTURE);
            MemorySegment dir = (MemorySegment) fdopendir.invokeExact(capture, fd);
            if (dir.equals(MemorySegment.NULL)) {
                throw failure(errno(capture), null);
            }
            return dir;
        } catch (IOException | RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * {@code readdir(dir)}: the next entry's name as a single-name path that keeps the name's exact bytes, as the
     * JDK's own listings do (a name the JVM's file-name encoding cannot represent is then shown by its bytes and
     * refused when used, never read under another name), {@code null} at the end. {@code readdir} reports an error
     * as it reports the end, so an error (an I/O error of the directory itself) ends the listing early: a listing
     * may then be short, never longer, and nothing is opened by it.
     */
    Path readdir(MemorySegment dir) {
        try {
            MemorySegment entry = (MemorySegment) readdir.invokeExact(dir);
            if (entry.equals(MemorySegment.NULL)) {
                return null;
            }
            PosixTable.DirentLayout at = table.dirent();
            MemorySegment name = entry.reinterpret((long) at.name() + at.nameMax()).asSlice(at.name());
            long length = 0;
            while (length < at.nameMax() && name.get(JAVA_BYTE, length) != 0) {
                length++;
            }
            return NativeName.path(name.asSlice(0, length).toArray(JAVA_BYTE), encoding);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code closedir(dir)}, which closes its descriptor too. */
    void closedir(MemorySegment dir) {
        try {
            int ignored = (int) closedir.invokeExact(dir);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /**
     * {@code read(fd, buffer, length)}, or {@code pread} at {@code position} unless it is negative.
     *
     * @return the bytes read, 0 at the end
     * @throws IOException if the read fails
     */
    long read(int fd, MemorySegment buffer, long position) throws IOException {
        return checked(null, (arena, capture) -> position < 0
                ? (long) read.invokeExact(capture, fd, buffer, buffer.byteSize())
                : (long) pread.invokeExact(capture, fd, buffer, buffer.byteSize(), position));
    }

    /**
     * {@code write(fd, buffer, length)}, or {@code pwrite} at {@code position} unless it is negative.
     *
     * @return the bytes written
     * @throws IOException if the write fails
     */
    long write(int fd, MemorySegment buffer, long position) throws IOException {
        return checked(null, (arena, capture) -> position < 0
                ? (long) write.invokeExact(capture, fd, buffer, buffer.byteSize())
                : (long) pwrite.invokeExact(capture, fd, buffer, buffer.byteSize(), position));
    }

    /** {@code lseek(fd, offset, whence)}: the new position. */
    long lseek(int fd, long offset, int whence) throws IOException {
        return checked(null, (arena, capture) -> (long) lseek.invokeExact(capture, fd, offset, whence));
    }

    /** {@code ftruncate(fd, size)}. */
    void ftruncate(int fd, long size) throws IOException {
        checked(null, (arena, capture) -> (int) ftruncate.invokeExact(capture, fd, size));
    }

    /** {@code fsync(fd)}. */
    void fsync(int fd) throws IOException {
        checked(null, (arena, capture) -> (int) fsync.invokeExact(capture, fd));
    }

    /** {@code fchmod(fd, mode)}. */
    void fchmod(int fd, int mode) throws IOException {
        checked(null, (arena, capture) -> (int) fchmod.invokeExact(capture, fd, mode));
    }

    /** One native call with its {@code errno} captured; the arena lives as long as the call (its names). */
    @FunctionalInterface
    private interface Call {
        long invoke(Arena arena, MemorySegment capture) throws Throwable;
    }

    /**
     * Runs a call that reports a failure as a negative result and its cause in {@code errno}.
     *
     * @param name the name the call was given, for the exception ({@code null} for a descriptor's call)
     * @return the call's result
     * @throws IOException the exception the JDK gives for the same error
     */
    private long checked(String name, Call call) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = arena.allocate(CAPTURE);
            long result = call.invoke(arena, capture);
            if (result < 0) {
                throw failure(errno(capture), name);
            }
            return result;
        } catch (IOException | RuntimeException | Error e) {
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
        MemorySegment.copy(bytes, 0, text, JAVA_BYTE, 0, bytes.length);
        return text;
    }

    private static int errno(MemorySegment capture) {
        return (int) ERRNO.get(capture, 0L);
    }

    /** The exception the JDK's own file system gives for an error number, so callers explain it as always. */
    private IOException failure(int errno, String name) {
        PosixTable.Errors is = table.errors();
        if (errno == is.enoent()) {
            return new NoSuchFileException(name);
        } else if (errno == is.eexist()) {
            return new FileAlreadyExistsException(name);
        } else if (errno == is.enotdir()) {
            return new NotDirectoryException(name);
        } else if (errno == is.eacces() || errno == is.eperm()) {
            return new AccessDeniedException(name);
        } else if (errno == is.enotempty()) {
            return new DirectoryNotEmptyException(name);
        } else if (errno == is.enxio()) {
            // a pipe without a reader, opened non-blocking to write; or a device without its driver
            return new FileSystemException(name, null,
                    "it is a pipe, device or socket, not a regular file or directory");
        } else if (errno == is.eloop()) {
            return new FileSystemException(name, null,
                    reason(errno) + " or unable to access attributes of symbolic link");
        }
        return new FileSystemException(name, null, reason(errno));
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
