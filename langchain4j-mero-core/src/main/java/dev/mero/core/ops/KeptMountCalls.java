package dev.mero.core.ops;

import dev.mero.core.PathEntry;
import dev.mero.core.path.PathResolver;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link ConfinedCalls} from a kept descriptor of each mount's directory, whatever binds the system calls (the
 * foreign-function API on Java 22+, JNI on Java 17): the decisions both bindings make the same way live here, the
 * calls themselves in the subclass.
 *
 * <p>Every open starts at the mount's own directory descriptor, opened once with no link on the way and kept only
 * if it is the mounted directory itself (its JDK file key, read through the descriptor, equals the one the entry
 * recorded). Below it, {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS} make the kernel refuse
 * any path that would leave the mount, cross a link (a checked real path has none) or jump through {@code /proc};
 * {@code O_NONBLOCK} keeps a pipe swapped in from blocking the open, and the type is read from the open
 * descriptor, so what is read is what was checked to be a regular file.
 */
abstract class KeptMountCalls implements ConfinedCalls {

    /** The most mount descriptors kept open at once, as {@link MountRoots#MAX_OPEN}. */
    static final int MAX_OPEN = 64;

    /** What {@link #openBelow} opens. */
    enum Below {
        /** A directory to list: {@code O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_NOFOLLOW}. */
        DIRECTORY,
        /** A directory to open files from: {@code O_PATH | O_DIRECTORY | O_NOFOLLOW}. */
        DIRECTORY_PATH
    }

    private final Map<Path, Mount> mounts = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, Mount> eldest) {
            if (size() <= MAX_OPEN) {
                return false;
            }
            eldest.getValue().evict();
            return true;
        }
    };

    /**
     * Opens a mount's directory by its absolute path ({@code O_PATH | O_DIRECTORY}, no link on the way).
     *
     * @param root the mount's real path
     * @return the descriptor, or -1
     */
    abstract int openMount(Path root);

    /**
     * The device and inode of an open descriptor's file.
     *
     * @param fd the descriptor
     * @return them, or {@code null} when they cannot be read
     */
    abstract long[] identityOf(int fd);

    /**
     * Whether a path, not following a last link, is a directory with the given device and inode.
     *
     * @param root     the path
     * @param identity what {@link #identityOf} read
     * @return whether it is
     */
    abstract boolean isDirectoryAt(Path root, long[] identity);

    /**
     * Opens a regular file for reading below a directory descriptor, confined and non-blocking, never following a
     * link, and checks its type on the new descriptor.
     *
     * @param directory the directory's descriptor
     * @param relative  the file's path below it
     * @return the channel, or {@code null} for anything but a plain success (the descriptor closed)
     */
    abstract SeekableByteChannel openRegularBelow(int directory, String relative);

    /**
     * Opens a directory below a directory descriptor, confined.
     *
     * @param directory the directory's descriptor
     * @param relative  the directory's path below it, {@code "."} for the directory itself
     * @param how       how
     * @return the descriptor, or -1
     */
    abstract int openBelow(int directory, String relative, Below how);

    /**
     * The entries of an open directory, with their types.
     *
     * @param fd  a descriptor opened {@link Below#DIRECTORY}
     * @param max how many the caller wants at most: at most one more is returned
     * @return the entries (not {@code .} and {@code ..}), in directory order, a mutable list; or {@code null} if one
     *         cannot be represented or the read fails
     */
    abstract List<TypedName> entries(int fd, int max);

    /**
     * The files of a directory, for a search.
     *
     * @param fd a descriptor opened {@link Below#DIRECTORY_PATH}, which the result closes
     * @return them
     */
    abstract ListedFiles filesOf(int fd);

    /**
     * Closes a descriptor.
     *
     * @param fd the descriptor
     */
    abstract void close(int fd);

    @Override
    public SeekableByteChannel openRegularFile(PathEntry entry, Path file) {
        return open(entry, file, false);
    }

    /**
     * Checks the mount as {@link PathEntry#requireUnchanged} does, through the kernel: its path, not following a last
     * link, must find a directory with the device and inode of the kept descriptor (which {@link #borrow} checked to
     * be the mounted directory), so no JDK attribute object is built per read.
     */
    @Override
    public SeekableByteChannel openRegularFileOfUnchangedMount(PathEntry entry, Path file) {
        return open(entry, file, true);
    }

    private SeekableByteChannel open(PathEntry entry, Path file, boolean checkMount) {
        Mount mount = borrow(entry);
        if (mount == null) {
            return null;
        }
        try {
            if (checkMount && (mount.identity == null || !isDirectoryAt(entry.realPath(), mount.identity))) {
                return null;
            }
            return openRegularBelow(mount.fd, PathResolver.relative(entry.realPath(), file));
        } finally {
            mount.release();
        }
    }

    @Override
    public List<TypedName> list(PathEntry entry, SecureDirectory directory, int max) {
        int fd = reopen(entry, directory, Below.DIRECTORY);
        if (fd < 0) {
            return null;
        }
        try {
            return entries(fd, max);
        } finally {
            close(fd);
        }
    }

    /**
     * Opens a descriptor ({@code O_PATH}) of a walk's open directory, confined below the mount and checked to be that
     * very directory, from which the files are opened.
     */
    @Override
    public ListedFiles listedFiles(PathEntry entry, SecureDirectory directory) {
        int fd = reopen(entry, directory, Below.DIRECTORY_PATH);
        if (fd < 0) {
            return null;
        }
        try {
            return filesOf(fd);
        } catch (RuntimeException | Error e) {
            close(fd);
            throw e;
        }
    }

    /**
     * Opens a walk's open directory again from its mount's kept descriptor, confined below the mount and checked to
     * be that very directory.
     *
     * @return the new descriptor, or -1 where the directory is not below the mount, the name cannot be passed, the
     *         open fails or it finds another directory
     */
    private int reopen(PathEntry entry, SecureDirectory directory, Below how) {
        Path root = entry.realPath();
        if (!directory.path().startsWith(root)) {
            return -1;
        }
        Mount mount = borrow(entry);
        if (mount == null) {
            return -1;
        }
        try {
            String relative = PathResolver.relative(root, directory.path());
            int fd = openBelow(mount.fd, relative.isEmpty() ? "." : relative, how);
            if (fd < 0) {
                return -1;
            }
            if (!sameDirectory(fd, directory)) {
                close(fd);
                return -1;
            }
            return fd;
        } finally {
            mount.release();
        }
    }

    @Override
    public SecureDirectory openDirectory(PathEntry entry, Path directory) {
        Path root = entry.realPath();
        if (!directory.startsWith(root) || directory.equals(root)) {
            return null;
        }
        Mount mount = borrow(entry);
        if (mount == null) {
            return null;
        }
        int fd = -1;
        try {
            fd = openBelow(mount.fd, PathResolver.relative(root, directory), Below.DIRECTORY);
            if (fd < 0) {
                return null;
            }
            // the JDK opens its own descriptor of this very directory through the descriptor's /proc entry, which
            // names the open directory, not a path: no name is looked up again, and a directory never blocks
            DirectoryStream<Path> stream = Files.newDirectoryStream(descriptorPath(fd));
            if (stream instanceof SecureDirectoryStream) {
                return SecureDirectory.of(directory, (SecureDirectoryStream<Path>) stream);
            }
            stream.close();
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        } finally {
            if (fd >= 0) {
                close(fd);
            }
            mount.release();
        }
    }

    /**
     * Whether a descriptor is the very directory the JDK's walk opened (the same file key, both read from open
     * descriptors: this one through its {@code /proc/self/fd} entry, which follows the descriptor, not a path).
     */
    private static boolean sameDirectory(int fd, SecureDirectory directory) {
        try {
            Object theirs = directory.stream().getFileAttributeView(BasicFileAttributeView.class).readAttributes()
                    .fileKey();
            BasicFileAttributes mine = Files.readAttributes(descriptorPath(fd), BasicFileAttributes.class);
            return theirs != null && mine.isDirectory() && theirs.equals(mine.fileKey());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static Path descriptorPath(int fd) {
        return Path.of("/proc/self/fd/" + fd);
    }

    /**
     * Borrows the kept descriptor of an entry's directory, opening it on first use; the caller must
     * {@link Mount#release()} it.
     *
     * @return the descriptor, or {@code null} where it cannot be opened or is not the mounted directory
     */
    private Mount borrow(PathEntry entry) {
        Path root = entry.realPath();
        synchronized (mounts) {
            Mount kept = mounts.get(root);
            if (kept != null && entry.isMountedDirectory(kept.attributes)) {
                kept.users++;
                return kept;
            }
        }
        int fd = openMount(root);
        if (fd < 0) {
            return null;
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(descriptorPath(fd), BasicFileAttributes.class);
        } catch (IOException | RuntimeException e) {
            close(fd);
            return null;
        }
        if (!entry.isMountedDirectory(attributes)) {
            close(fd);
            return null;
        }
        Mount opened = new Mount(fd, attributes, identityOf(fd));
        opened.users = 1;
        synchronized (mounts) {
            Mount replaced = mounts.put(root, opened);
            if (replaced != null) {
                replaced.evict();
            }
        }
        return opened;
    }

    /** A kept mount descriptor and how many calls use it; closed when evicted and no longer used. */
    private final class Mount {
        final int fd;
        final BasicFileAttributes attributes;
        /** The kept directory's device and inode; {@code null} if they could not be read. */
        final long[] identity;
        int users;
        boolean evicted;

        Mount(int fd, BasicFileAttributes attributes, long[] identity) {
            this.fd = fd;
            this.attributes = attributes;
            this.identity = identity;
        }

        void release() {
            synchronized (mounts) {
                users--;
                if (evicted && users == 0) {
                    close(fd);
                }
            }
        }

        /** Called holding the lock. */
        void evict() {
            evicted = true;
            if (users == 0) {
                close(fd);
            }
        }
    }
}
