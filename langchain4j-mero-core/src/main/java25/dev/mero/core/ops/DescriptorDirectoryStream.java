package dev.mero.core.ops;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.ClosedDirectoryStreamException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A directory held by its descriptor, for JDKs without a {@link SecureDirectoryStream} (the Java 25 classes of
 * the multi-release jar, {@link PortableDirectories}): every entry is opened with POSIX {@code openat} relative to
 * this descriptor, one name at a time, with {@code O_NOFOLLOW} (a link is never followed, at any level, since a
 * directory is only ever reached this way) and {@code O_NONBLOCK} (a pipe never blocks the open); {@code ..}, a
 * name with a {@code /} and (except to open or read this directory again) {@code .} are refused. A file is typed on its
 * open descriptor ({@code fstat}) before it is used, read and written through that descriptor
 * ({@link DescriptorFileChannel}), removed with {@code unlinkat} and renamed with {@code renameat}.
 *
 * <p>The descriptor's own attributes, an entry's attributes (without following it unless asked) and the listing
 * are read with {@code fstat}, {@code fstatat} and {@code fdopendir}/{@code readdir} on the descriptor (the listing
 * on a second descriptor of the same directory, opened as {@code .}), never through a path, with the JDK's
 * attribute types ({@link DescriptorAttributes}). Nothing of {@code /proc} is read.
 */
final class DescriptorDirectoryStream implements SecureDirectoryStream<Path> {

    private final PosixCalls calls;
    private final PosixTable.Flags flags;
    private final int fd;
    /** The listing's {@code DIR *} while it is being read; {@code null} before and after. */
    private MemorySegment listing;
    private boolean listed;
    private boolean closed;

    private DescriptorDirectoryStream(PosixCalls calls, int fd) {
        this.calls = calls;
        this.flags = calls.table.flags();
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
        PosixTable.Flags flags = calls.table.flags();
        return new DescriptorDirectoryStream(calls, calls.openat(flags.atFdcwd(), root.toString(),
                flags.oRdonly() | flags.oCloexec() | flags.oDirectory(), 0));
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
                flags.oRdonly() | flags.oNonblock() | flags.oCloexec() | flags.oDirectory() | flags.oNofollow(), 0));
    }

    @Override
    public synchronized SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
                                                           FileAttribute<?>... attrs) throws IOException {
        requireOpen();
        String name = single(path, false);
        if (options.contains(StandardOpenOption.SYNC) || options.contains(StandardOpenOption.DSYNC)) {
            // no caller asks for them; refused rather than ignored
            throw new UnsupportedOperationException("the portable directory layer opens no file for synchronous I/O");
        }
        boolean write = options.contains(StandardOpenOption.WRITE) || options.contains(StandardOpenOption.APPEND);
        boolean read = !write || options.contains(StandardOpenOption.READ);
        int access = write ? (read ? flags.oRdwr() : flags.oWronly()) : flags.oRdonly();
        int open = access
                | (options.contains(StandardOpenOption.APPEND) ? flags.oAppend() : 0)
                | (options.contains(StandardOpenOption.CREATE_NEW) ? flags.oCreat() | flags.oExcl()
                        : options.contains(StandardOpenOption.CREATE) ? flags.oCreat() : 0)
                | (write && options.contains(StandardOpenOption.TRUNCATE_EXISTING) ? flags.oTrunc() : 0);
        int opened = calls.openat(fd, name,
                open | flags.oNonblock() | flags.oNoctty() | flags.oCloexec() | flags.oNofollow(), 0666);
        try {
            // the type of the open descriptor: what is read or written is what was checked
            if (!calls.fstat(opened).isRegularFile()) {
                throw new FileSystemException(null, null,
                        "it is a pipe, device or socket, not a regular file or directory");
            }
        } catch (IOException | RuntimeException | Error e) {
            calls.close(opened);
            throw e;
        }
        // a regular file: read and written through this very descriptor, which the channel now owns
        return new DescriptorFileChannel(calls, opened, read, write);
    }

    @Override
    public synchronized void deleteFile(Path path) throws IOException {
        requireOpen();
        calls.unlinkat(fd, single(path, false), 0);
    }

    @Override
    public synchronized void deleteDirectory(Path path) throws IOException {
        requireOpen();
        calls.unlinkat(fd, single(path, false), flags.atRemovedir());
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
        return view(type, new DescriptorAttributeView(this, null, false));
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        try {
            boolean follow = !Arrays.asList(options).contains(LinkOption.NOFOLLOW_LINKS);
            return view(type, new DescriptorAttributeView(this, single(path, true), follow));
        } catch (FileSystemException e) {
            // the interface has no checked failure here: never a view of what .. or a/b lead to
            throw new IllegalArgumentException(e.getReason(), e);
        }
    }

    /** The view if it is of the type asked for (basic, owner or POSIX), else {@code null}, as the JDK answers. */
    private static <V extends FileAttributeView> V view(Class<V> type, DescriptorAttributeView view) {
        return type.isInstance(view) ? type.cast(view) : null;
    }

    /**
     * The attributes of this directory ({@code name} {@code null}) or of an entry.
     *
     * @throws IOException if they cannot be read
     */
    synchronized DescriptorAttributes attributes(String name, boolean follow) throws IOException {
        requireOpen();
        return name == null ? calls.fstat(fd) : calls.fstatat(fd, name, follow);
    }

    /**
     * Sets the permission bits of this directory ({@code name} {@code null}) or of an entry, through a descriptor
     * opened without blocking and (unless asked to follow) without following a link.
     *
     * @throws IOException if they cannot be set
     */
    synchronized void setPermissions(String name, boolean follow, int mode) throws IOException {
        requireOpen();
        if (name == null) {
            calls.fchmod(fd, mode);
            return;
        }
        int opened = calls.openat(fd, name, flags.oRdonly() | flags.oNonblock() | flags.oNoctty() | flags.oCloexec()
                | (follow ? 0 : flags.oNofollow()), 0);
        try {
            calls.fchmod(opened, mode);
        } finally {
            calls.close(opened);
        }
    }

    @Override
    public synchronized Iterator<Path> iterator() {
        if (closed) {
            throw new ClosedDirectoryStreamException();
        }
        if (listed) {
            throw new IllegalStateException("the directory was listed already");
        }
        listed = true;
        try {
            // a descriptor of its own: the listing's offset is not this one's
            int copy = calls.openat(fd, ".", flags.oRdonly() | flags.oNonblock() | flags.oCloexec()
                    | flags.oDirectory(), 0);
            try {
                listing = calls.fdopendir(copy);
            } catch (IOException | RuntimeException | Error e) {
                calls.close(copy);
                throw e;
            }
        } catch (IOException e) {
            throw new DirectoryIteratorException(e);
        }
        return new Names();
    }

    /** The names of the listing, read one {@code readdir} at a time; none after the stream is closed. */
    private final class Names implements Iterator<Path> {
        private Path next;

        @Override
        public boolean hasNext() {
            synchronized (DescriptorDirectoryStream.this) {
                while (next == null && listing != null) {
                    Path name = calls.readdir(listing);
                    if (name == null) {
                        endListing();
                    } else if (!NativeName.isDotOrDotDot(name)) {
                        next = name;
                    }
                }
                return next != null;
            }
        }

        @Override
        public Path next() {
            synchronized (DescriptorDirectoryStream.this) {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Path name = next;
                next = null;
                return name;
            }
        }
    }

    /** Closes the listing's {@code DIR *} and its descriptor. Called holding the lock. */
    private void endListing() {
        if (listing != null) {
            MemorySegment dir = listing;
            listing = null;
            calls.closedir(dir);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            endListing();
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
