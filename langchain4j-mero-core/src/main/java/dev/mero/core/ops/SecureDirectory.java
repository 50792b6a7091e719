package dev.mero.core.ops;

import dev.mero.core.path.FileNameEncoding;
import dev.mero.core.PathEntry;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * An open directory reached without following any symbolic link: every name from the file-system root down
 * is opened relative to the previous one with {@code O_NOFOLLOW} ({@link SecureDirectoryStream}), so a name
 * swapped for a link after a path check makes the open fail instead of leading elsewhere. Every operation on
 * an entry ({@code openat}, {@code fstatat}, {@code unlinkat}, {@code renameat}) is relative to this open
 * directory and never follows a link at the entry's name either.
 *
 * <p>Nothing is opened before its type is known: an entry is opened as a directory only if {@code fstatat}
 * (without following a link) says it is one, and as a file only if it is not a pipe, device or socket, so a FIFO
 * where a directory or file is expected is refused without being opened (an {@code open} of a FIFO blocks until a
 * writer appears). An entry swapped in between is opened through {@link BoundedOpen}, which bounds the wait, and an
 * opened file is checked to be seekable (a pipe is not), so a swap ends in a refusal, never a hang.
 *
 * <p>An open directory is closed when its last user closes it: a blocked open keeps its directory
 * ({@link #retain()}), because closing a {@link SecureDirectoryStream} waits for every call in progress on it.
 *
 * <p>Where the platform offers no {@link SecureDirectoryStream}, {@link DirectoryAccess} says what stands in for it
 * (descriptor-relative {@code openat} on Java 22+, or, opted in, opens by path), or fails closed.
 */
final class SecureDirectory implements Closeable {

    /** The file-type bits of {@code st_mode}, and the type of a FIFO. */
    private static final int S_IFMT = 0170000;
    private static final int S_IFIFO = 0010000;

    private final Path path;
    private final SecureDirectoryStream<Path> stream;
    /** The kept mount-root handle this directory borrows, or {@code null} when it owns its stream. */
    private final MountRoots.Handle borrowed;
    /** The caller's use and every open in progress; the stream is closed when it reaches 0. */
    private final AtomicInteger users = new AtomicInteger(1);

    /** Runs between an entry's type check and its open, with the entry's name: tests swap the entry there. */
    static volatile Consumer<String> beforeOpen = name -> { };

    private SecureDirectory(Path path, SecureDirectoryStream<Path> stream) {
        this(path, stream, null);
    }

    private SecureDirectory(Path path, SecureDirectoryStream<Path> stream, MountRoots.Handle borrowed) {
        this.path = path;
        this.stream = stream;
        this.borrowed = borrowed;
    }

    /**
     * Opens a canonical real directory inside a mount by walking, name by name without following links, from
     * the mount's kept directory handle ({@link MountRoots}): the result is bound to the mounted directory, and
     * the names above the mount are not walked again on every call.
     *
     * @param entry     the mount the directory is in
     * @param directory an absolute, canonical path at or below the entry's real path
     * @return the open directory
     * @throws IOException if a name is missing, not a directory, or a link, or the mount was replaced
     */
    static SecureDirectory open(PathEntry entry, Path directory) throws IOException {
        Path root = entry.realPath();
        if (!directory.startsWith(root)) {
            return open(directory);
        }
        MountRoots.Handle handle = MountRoots.borrow(entry);
        if (handle == null) {
            return open(directory);
        }
        SecureDirectory mounted = new SecureDirectory(root, handle.stream(), handle);
        if (directory.equals(root)) {
            return mounted;
        }
        try (mounted) {
            return mounted.descend(root.relativize(directory));
        }
    }

    /**
     * An open directory from a stream the confined layer opened ({@link ConfinedCalls#openDirectory}), which it owns.
     *
     * @param path   the directory's canonical path
     * @param stream the stream, opened without following a link
     * @return the open directory
     */
    static SecureDirectory of(Path path, SecureDirectoryStream<Path> stream) {
        return new SecureDirectory(path, stream);
    }

    /** The open stream, for {@link MountRoots} to keep. */
    SecureDirectoryStream<Path> stream() {
        return stream;
    }

    /**
     * Opens a canonical real directory by walking from the root, name by name, without following links.
     *
     * @param directory an absolute, canonical path
     * @return the open directory
     * @throws IOException if a name is missing, not a directory, or a link
     */
    static SecureDirectory open(Path directory) throws IOException {
        SecureDirectoryStream<Path> secureRoot = DirectoryAccess.openRoot(directory);
        SecureDirectory top = new SecureDirectory(directory.getRoot(), secureRoot);
        if (directory.getNameCount() == 0) {
            return top;
        }
        try (top) {
            return top.descend(directory);
        }
    }

    /**
     * Opens the directory that one or more {@code names} lead to below this one, a name at a time, each checked
     * to be a directory before it is opened ({@link #child(String)}). This directory stays open; it belongs to
     * the caller.
     */
    private SecureDirectory descend(Path names) throws IOException {
        SecureDirectory current = this;
        try {
            for (Path name : names) {
                SecureDirectory next = current.child(name.toString());
                if (current != this) {
                    current.close();
                }
                current = next;
            }
            return current;
        } catch (IOException | RuntimeException e) {
            if (current != this) {
                current.close();
            }
            throw e;
        }
    }

    /**
     * Keeps this directory open for one more user, who must {@link #close()} it too.
     *
     * @return this directory
     */
    SecureDirectory retain() {
        users.incrementAndGet();
        return this;
    }

    /** The directory's canonical path, for error messages and the audit log only. */
    Path path() {
        return path;
    }

    /**
     * Opens a subdirectory without following a link.
     *
     * @param name a single name
     * @return the open subdirectory
     * @throws IOException if it is missing, not a directory or a link (which is never opened)
     */
    SecureDirectory child(String name) throws IOException {
        Path file = name(name);
        BasicFileAttributes attributes = attributes(file).orElseThrow(() -> new NoSuchFileException(name));
        if (!attributes.isDirectory()) {
            throw new NotDirectoryException(name);
        }
        beforeOpen.accept(name);
        SecureDirectoryStream<Path> opened = BoundedOpen.open(
                () -> stream.newDirectoryStream(file, LinkOption.NOFOLLOW_LINKS), retain(), releaser(file));
        return new SecureDirectory(path.resolve(file), opened);
    }

    /**
     * The attributes of an entry, of the entry itself if it is a link.
     *
     * @param name a single name
     * @return the attributes, or empty if there is no such entry
     * @throws IOException if they cannot be read
     */
    Optional<BasicFileAttributes> attributes(String name) throws IOException {
        return attributes(name(name));
    }

    private Optional<BasicFileAttributes> attributes(Path file) throws IOException {
        try {
            return Optional.of(stream.getFileAttributeView(file, BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).readAttributes());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /**
     * A single name as a path of this file system.
     *
     * @throws FileSystemException if the JVM's file-name encoding cannot represent it
     */
    private static Path name(String name) throws FileSystemException {
        try {
            return Path.of(name);
        } catch (InvalidPathException e) {
            throw new FileSystemException(null, null, FileNameEncoding.unusableNameReason());
        }
    }

    /**
     * The POSIX permissions of an entry, if the platform has them.
     *
     * @param name a single name
     * @return the permissions, or empty
     */
    Optional<Set<PosixFilePermission>> posixPermissions(String name) {
        try {
            PosixFileAttributeView view = stream.getFileAttributeView(name(name), PosixFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS);
            return view == null ? Optional.empty() : Optional.of(view.readAttributes().permissions());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Sets the POSIX permissions of an entry, where the platform has them.
     *
     * @param name        a single name
     * @param permissions the permissions
     * @throws IOException if they cannot be set
     */
    void setPosixPermissions(String name, Set<PosixFilePermission> permissions) throws IOException {
        Path file = name(name);
        PosixFileAttributeView view = stream.getFileAttributeView(file, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view != null) {
            requireNoPipe(file, name);
            // the platform sets them through an open of the entry, which a pipe swapped in would block
            BoundedOpen.open(() -> {
                view.setPermissions(permissions);
                return () -> { };
            }, retain(), releaser(file));
        }
    }

    /**
     * Opens an entry as a file, never following a link at its name.
     *
     * @param name    a single name
     * @param options open options
     * @return the channel
     * @throws IOException if it cannot be opened
     */
    SeekableByteChannel newByteChannel(String name, OpenOption... options) throws IOException {
        Path file = name(name);
        Set<OpenOption> noFollow = new HashSet<>(List.of(options));
        noFollow.add(LinkOption.NOFOLLOW_LINKS);
        Optional<BasicFileAttributes> before = requireNoPipe(file, name);
        beforeOpen.accept(name);
        SeekableByteChannel channel = BoundedOpen.open(() -> stream.newByteChannel(file, noFollow), retain(),
                releaser(file));
        try {
            requireFile(channel, file, before, noFollow.contains(StandardOpenOption.APPEND));
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Opens for reading an entry whose type a listing of this directory (or {@code read_file}'s look at its
     * attributes) has just read, without following a link, as a regular file: its type is not read again before
     * the open (a walk reads every entry's type already, and one more {@code fstatat} per file was a tenth of a
     * search). An entry swapped for a pipe since then is opened
     * through {@link BoundedOpen} and refused when the channel cannot seek, as with {@link #newByteChannel}.
     *
     * @param name a single name, listed as a regular file
     * @return the channel
     * @throws IOException if it cannot be opened, or is no longer a regular file
     */
    SeekableByteChannel openListedFile(String name) throws IOException {
        Path file = name(name);
        Set<OpenOption> read = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        beforeOpen.accept(name);
        SeekableByteChannel channel = BoundedOpen.open(() -> stream.newByteChannel(file, read), retain(),
                releaser(file));
        try {
            requireFile(channel, file, Optional.empty(), false);
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** Refuses an entry that is a pipe, device or socket, which is never opened; returns its attributes. */
    private Optional<BasicFileAttributes> requireNoPipe(Path file, String name) throws IOException {
        Optional<BasicFileAttributes> attributes = attributes(file);
        if (attributes.isPresent() && attributes.get().isOther()) {
            throw notAFile();
        }
        return attributes;
    }

    /**
     * Checks that an opened channel is the file that was checked, not a pipe swapped in: a pipe cannot seek; a
     * channel opened to append does not seek, so its name must still be the file it was before the open.
     */
    private void requireFile(SeekableByteChannel channel, Path file, Optional<BasicFileAttributes> before,
                             boolean append) throws IOException {
        if (!append) {
            try {
                channel.position();
                return;
            } catch (IOException e) {
                throw notAFile();
            }
        }
        Optional<BasicFileAttributes> after = attributes(file);
        boolean same = after.isPresent() && after.get().isRegularFile()
                && (before.isEmpty() || Objects.equals(before.get().fileKey(), after.get().fileKey()));
        if (!same) {
            throw notAFile();
        }
    }

    private static FileSystemException notAFile() {
        return new FileSystemException(null, null, "it is a pipe, device or socket, not a regular file or directory");
    }

    /** What {@link BoundedOpen} runs, on the caller's thread, when an open of an entry takes a while. */
    private Runnable releaser(Path file) {
        return () -> releasePipe(file);
    }

    /**
     * Lets a blocked open of an entry return, on an opener thread: if the entry is a pipe now, opens it for reading
     * and writing (which never blocks on Linux) and closes it again. Keeps this directory open while it runs.
     */
    private void releasePipe(Path file) {
        retain();
        boolean started = BoundedOpen.release(() -> {
            try {
                if (isPipe(file)) {
                    stream.newByteChannel(file, Set.of(StandardOpenOption.READ, StandardOpenOption.WRITE,
                            LinkOption.NOFOLLOW_LINKS)).close();
                }
            } catch (IOException | RuntimeException e) {
                // nothing to release, or not allowed to: the caller gives up after its bound
            } finally {
                closeQuietly();
            }
        });
        if (!started) {
            closeQuietly();
        }
    }

    /** Whether an entry is a FIFO (not a device, which is never opened to release anything). */
    private boolean isPipe(Path file) throws IOException {
        Object mode = Files.getAttribute(path.resolve(file), "unix:mode", LinkOption.NOFOLLOW_LINKS);
        return mode instanceof Integer bits && (bits & S_IFMT) == S_IFIFO;
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            // a directory handle that cannot be closed holds nothing else
        }
    }

    /**
     * Renames an entry into another open directory ({@code renameat}), atomically replacing what is there
     * (a link at the target is replaced, never followed).
     *
     * @param name       the entry's name here
     * @param target     the directory to move it into, may be this one
     * @param targetName its new name there
     * @throws IOException if the rename fails, e.g. across file systems
     */
    void move(String name, SecureDirectory target, String targetName) throws IOException {
        stream.move(name(name), target.stream, name(targetName));
    }

    /**
     * Removes a file or a link ({@code unlinkat}); a link is removed, not followed.
     *
     * @param name a single name
     * @throws IOException if it cannot be removed
     */
    void deleteFile(String name) throws IOException {
        stream.deleteFile(name(name));
    }

    /**
     * Removes an empty directory.
     *
     * @param name a single name
     * @throws IOException if it is not empty or cannot be removed
     */
    void deleteDirectory(String name) throws IOException {
        stream.deleteDirectory(name(name));
    }

    /**
     * The names in this directory, at most {@code max + 1} of them so that a caller can tell it was cut.
     *
     * @param max how many names the caller wants at most
     * @return the names, in directory order
     * @throws IOException if the directory cannot be read
     */
    List<String> names(int max) throws IOException {
        List<String> names = new ArrayList<>();
        scan(name -> {
            names.add(name);
            return names.size() <= max;
        });
        return names;
    }

    /**
     * Hands the names in this directory to a visitor until it returns {@code false}. A directory can be read
     * once.
     *
     * @param visitor receives each name; returns whether to go on
     * @throws IOException if the directory cannot be read
     */
    void scan(Predicate<String> visitor) throws IOException {
        scan(visitor, name -> { });
    }

    /**
     * Hands the names in this directory to a visitor until it returns {@code false}; a name the JVM's file-name
     * encoding cannot represent (see {@link FileNameEncoding}) cannot be opened or checked by name, so it goes to
     * {@code unusable} instead, escaped for display. A directory can be read once.
     *
     * @param visitor receives each name; returns whether to go on
     * @param unusable receives each name that cannot be used, its bytes that are not printable ASCII as
     *                 {@code \xHH}
     * @throws IOException if the directory cannot be read
     */
    void scan(Predicate<String> visitor, Consumer<String> unusable) throws IOException {
        if (borrowed != null) {
            // a kept handle is never iterated (a stream iterates once); list a private copy of it ("." is
            // this very directory, never a pipe)
            try (SecureDirectory own = new SecureDirectory(path,
                    stream.newDirectoryStream(Path.of("."), LinkOption.NOFOLLOW_LINKS))) {
                own.scan(visitor, unusable);
            }
            return;
        }
        try {
            for (Path entry : stream) {
                Path fileName = entry.getFileName();
                String name = fileName.toString();
                if (name.indexOf('\uFFFD') >= 0 && !representable(fileName, name)) {
                    unusable.accept(UnusableName.escaped(fileName));
                } else if (!visitor.test(name)) {
                    return;
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
    }

    /** Whether a name read from the directory, decoded lossily, still names the same entry. */
    private static boolean representable(Path fileName, String decoded) {
        try {
            return Path.of(decoded).equals(fileName);
        } catch (InvalidPathException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        if (users.decrementAndGet() != 0) {
            return;
        }
        if (borrowed != null) {
            borrowed.release();
        } else {
            stream.close();
        }
    }
}
