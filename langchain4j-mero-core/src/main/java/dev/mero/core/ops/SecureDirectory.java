package dev.mero.core.ops;

import dev.mero.core.PathEntry;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * An open directory reached without following any symbolic link: every name from the file-system root down
 * is opened relative to the previous one with {@code O_NOFOLLOW} ({@link SecureDirectoryStream}), so a name
 * swapped for a link after a path check makes the open fail instead of leading elsewhere. Every operation on
 * an entry ({@code openat}, {@code fstatat}, {@code unlinkat}, {@code renameat}) is relative to this open
 * directory and never follows a link at the entry's name either.
 *
 * <p>Fails closed where the platform offers no {@link SecureDirectoryStream}.
 */
final class SecureDirectory implements Closeable {

    private final Path path;
    private final SecureDirectoryStream<Path> stream;
    /** The kept mount-root handle this directory borrows, or {@code null} when it owns its stream. */
    private final MountRoots.Handle borrowed;

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
        if (directory.equals(root)) {
            return new SecureDirectory(directory, handle.stream(), handle);
        }
        try {
            return new SecureDirectory(directory, descend(handle.stream(), root.relativize(directory)));
        } finally {
            handle.release();
        }
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
        DirectoryStream<Path> root = Files.newDirectoryStream(directory.getRoot());
        if (!(root instanceof SecureDirectoryStream<Path> secureRoot)) {
            root.close();
            throw new IOException("this platform offers no secure directory access");
        }
        if (directory.getNameCount() == 0) {
            return new SecureDirectory(directory, secureRoot);
        }
        try (secureRoot) {
            return new SecureDirectory(directory, descend(secureRoot, directory));
        }
    }

    /**
     * Opens the directory that one or more {@code names} lead to below an open one, a name at a time, without
     * following a link. The start stays open; it belongs to the caller.
     */
    private static SecureDirectoryStream<Path> descend(SecureDirectoryStream<Path> start, Path names)
            throws IOException {
        SecureDirectoryStream<Path> current = start;
        try {
            for (Path name : names) {
                SecureDirectoryStream<Path> next = current.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
                if (current != start) {
                    current.close();
                }
                current = next;
            }
            return current;
        } catch (IOException | RuntimeException e) {
            if (current != start) {
                current.close();
            }
            throw e;
        }
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
     * @throws IOException if it is missing, not a directory or a link
     */
    SecureDirectory child(String name) throws IOException {
        return new SecureDirectory(path.resolve(name),
                stream.newDirectoryStream(Path.of(name), LinkOption.NOFOLLOW_LINKS));
    }

    /**
     * The attributes of an entry, of the entry itself if it is a link.
     *
     * @param name a single name
     * @return the attributes, or empty if there is no such entry
     * @throws IOException if they cannot be read
     */
    Optional<BasicFileAttributes> attributes(String name) throws IOException {
        try {
            return Optional.of(stream.getFileAttributeView(Path.of(name), BasicFileAttributeView.class,
                    LinkOption.NOFOLLOW_LINKS).readAttributes());
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /**
     * The POSIX permissions of an entry, if the platform has them.
     *
     * @param name a single name
     * @return the permissions, or empty
     */
    Optional<Set<PosixFilePermission>> posixPermissions(String name) {
        PosixFileAttributeView view = stream.getFileAttributeView(Path.of(name), PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        try {
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
        PosixFileAttributeView view = stream.getFileAttributeView(Path.of(name), PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        if (view != null) {
            view.setPermissions(permissions);
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
        Set<OpenOption> noFollow = new HashSet<>(List.of(options));
        noFollow.add(LinkOption.NOFOLLOW_LINKS);
        return stream.newByteChannel(Path.of(name), noFollow);
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
        stream.move(Path.of(name), target.stream, Path.of(targetName));
    }

    /**
     * Removes a file or a link ({@code unlinkat}); a link is removed, not followed.
     *
     * @param name a single name
     * @throws IOException if it cannot be removed
     */
    void deleteFile(String name) throws IOException {
        stream.deleteFile(Path.of(name));
    }

    /**
     * Removes an empty directory.
     *
     * @param name a single name
     * @throws IOException if it is not empty or cannot be removed
     */
    void deleteDirectory(String name) throws IOException {
        stream.deleteDirectory(Path.of(name));
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
        if (borrowed != null) {
            // a kept handle is never iterated (a stream iterates once); list a private copy of it
            try (SecureDirectory own = new SecureDirectory(path,
                    stream.newDirectoryStream(Path.of("."), LinkOption.NOFOLLOW_LINKS))) {
                own.scan(visitor);
            }
            return;
        }
        try {
            for (Path entry : stream) {
                if (!visitor.test(entry.getFileName().toString())) {
                    return;
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
    }

    @Override
    public void close() throws IOException {
        if (borrowed != null) {
            borrowed.release();
        } else {
            stream.close();
        }
    }
}
