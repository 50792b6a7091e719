package dev.mero.core.ops;

import static dev.mero.core.ops.PosixCalls.Table.O_APPEND;
import static dev.mero.core.ops.PosixCalls.Table.O_CLOEXEC;
import static dev.mero.core.ops.PosixCalls.Table.O_CREAT;
import static dev.mero.core.ops.PosixCalls.Table.O_EXCL;
import static dev.mero.core.ops.PosixCalls.Table.O_NOCTTY;
import static dev.mero.core.ops.PosixCalls.Table.O_NONBLOCK;
import static dev.mero.core.ops.PosixCalls.Table.O_RDONLY;
import static dev.mero.core.ops.PosixCalls.Table.O_RDWR;
import static dev.mero.core.ops.PosixCalls.Table.O_TRUNC;
import static dev.mero.core.ops.PosixCalls.Table.O_WRONLY;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.Set;

/**
 * A directory held by its descriptor, for JDKs without a {@link SecureDirectoryStream} (the Java 25 classes of
 * the multi-release jar, {@link PortableDirectories}): every entry is opened with POSIX {@code openat} relative to
 * this descriptor, one name at a time, with {@code O_NOFOLLOW} (a link is never followed, at any level, since a
 * directory is only ever reached this way) and {@code O_NONBLOCK} (a pipe never blocks the open); {@code ..}, a
 * name with a {@code /} and (except to open or read this directory again) {@code .} are refused. A file is typed on its
 * open descriptor before it is used, removed with {@code unlinkat} and renamed with {@code renameat}.
 *
 * <p>The descriptor's own attributes, an entry's attributes (without following it) and the listing are read
 * through {@code /proc/self/fd/N}, which the kernel resolves to the open descriptor, never to a path: the same
 * {@code fstat}/{@code fstatat}/{@code fdopendir} the JDK's own secure directories make, with the JDK's types.
 */
final class DescriptorDirectoryStream implements SecureDirectoryStream<Path> {

    private final PosixCalls calls;
    private final int fd;
    private DirectoryStream<Path> listing;
    private boolean closed;

    private DescriptorDirectoryStream(PosixCalls calls, int fd) {
        this.calls = calls;
        this.fd = fd;
    }

    /**
     * Opens the file-system root.
     *
     * @param calls the calls of this machine
     * @param root  the root, {@code /}
     * @return the open root
     * @throws IOException if it cannot be opened
     */
    static DescriptorDirectoryStream openRoot(PosixCalls calls, Path root) throws IOException {
        return new DescriptorDirectoryStream(calls, calls.openat(calls.table.atFdcwd(), root.toString(),
                O_RDONLY | O_CLOEXEC | calls.table.oDirectory(), 0));
    }

    /** Where the kernel shows this descriptor as the very file it is open on. */
    private Path descriptor() {
        return Path.of("/proc/self/fd/" + fd);
    }

    /** A single name of this directory: never {@code ..}, never a path of several names, {@code .} only if asked. */
    private String single(Path name, boolean self) throws FileSystemException {
        String text = name.toString();
        boolean dot = ".".equals(text);
        if (name.isAbsolute() || name.getNameCount() != 1 || "..".equals(text) || text.isEmpty() || (dot && !self)) {
            throw new FileSystemException(text, null, "not a single name inside the directory");
        }
        return text;
    }

    @Override
    public synchronized SecureDirectoryStream<Path> newDirectoryStream(Path path, LinkOption... options)
            throws IOException {
        requireOpen();
        return new DescriptorDirectoryStream(calls, calls.openat(fd, single(path, true),
                O_RDONLY | O_NONBLOCK | O_CLOEXEC | calls.table.oDirectory() | calls.table.oNofollow(), 0));
    }

    @Override
    public synchronized SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
                                                           FileAttribute<?>... attrs) throws IOException {
        requireOpen();
        String name = single(path, false);
        boolean write = options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND);
        int flags = (write ? (options.contains(StandardOpenOption.READ) ? O_RDWR : O_WRONLY) : O_RDONLY)
                | (options.contains(StandardOpenOption.APPEND) ? O_APPEND : 0)
                | (options.contains(StandardOpenOption.CREATE_NEW) ? O_CREAT | O_EXCL
                        : options.contains(StandardOpenOption.CREATE) ? O_CREAT : 0)
                | (write && options.contains(StandardOpenOption.TRUNCATE_EXISTING) ? O_TRUNC : 0);
        int opened = calls.openat(fd, name, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | calls.table.oNofollow(),
                0666);
        try {
            Path file = Path.of("/proc/self/fd/" + opened);
            // the type of the open descriptor: what is read or written is what was checked
            if (!Files.readAttributes(file, BasicFileAttributes.class).isRegularFile()) {
                throw new FileSystemException(null, null,
                        "it is a pipe, device or socket, not a regular file or directory");
            }
            // a regular file: opening its descriptor again cannot block, and reaches this very file
            Set<StandardOpenOption> again = EnumSet.noneOf(StandardOpenOption.class);
            for (StandardOpenOption kept : new StandardOpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND, StandardOpenOption.SYNC, StandardOpenOption.DSYNC}) {
                if (options.contains(kept)) {
                    again.add(kept);
                }
            }
            return FileChannel.open(file, again);
        } finally {
            calls.close(opened);
        }
    }

    @Override
    public synchronized void deleteFile(Path path) throws IOException {
        requireOpen();
        calls.unlinkat(fd, single(path, false), 0);
    }

    @Override
    public synchronized void deleteDirectory(Path path) throws IOException {
        requireOpen();
        calls.unlinkat(fd, single(path, false), calls.table.atRemovedir());
    }

    @Override
    public void move(Path srcpath, SecureDirectoryStream<Path> targetdir, Path targetpath) throws IOException {
        if (!(targetdir instanceof DescriptorDirectoryStream target)) {
            throw new ProviderMismatchException();
        }
        synchronized (this) {
            requireOpen();
            synchronized (target) {
                target.requireOpen();
                calls.renameat(fd, single(srcpath, false), target.fd, target.single(targetpath, false));
            }
        }
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Class<V> type) {
        return Files.getFileAttributeView(descriptor(), type);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        try {
            return Files.getFileAttributeView(descriptor().resolve(single(path, true)), type, options);
        } catch (FileSystemException e) {
            // the interface has no checked failure here: never a view of what .. or a/b lead to
            throw new IllegalArgumentException(e.getReason(), e);
        }
    }

    @Override
    public synchronized Iterator<Path> iterator() {
        if (closed) {
            throw new ClosedDirectoryStreamException();
        }
        if (listing != null) {
            throw new IllegalStateException("the directory was listed already");
        }
        try {
            listing = Files.newDirectoryStream(descriptor());
        } catch (IOException e) {
            throw new java.nio.file.DirectoryIteratorException(e);
        }
        return listing.iterator();
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (listing != null) {
                listing.close();
            }
        } finally {
            calls.close(fd);
        }
    }

    private void requireOpen() throws IOException {
        if (closed) {
            throw new ClosedDirectoryStreamException();
        }
    }
}
