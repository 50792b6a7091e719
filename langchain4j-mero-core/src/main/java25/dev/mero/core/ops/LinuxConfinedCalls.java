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
import dev.mero.core.path.PathResolver;
import dev.mero.core.PathEntry;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link ConfinedCalls} through Linux's {@code openat2} (5.6 and later), bound with the foreign-function API.
 *
 * <p>Every open starts at the mount's own directory descriptor, opened once with {@code RESOLVE_NO_SYMLINKS} (no
 * name on the way is a link, as the name-by-name walk requires) and kept only if the kernel says it is the
 * mounted directory itself (its identity, read through the descriptor, equals the one the entry recorded). Below
 * it, {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS} make the kernel refuse any path that
 * would leave the mount, cross a link (a checked real path has none) or jump through {@code /proc}; {@code
 * O_NONBLOCK} keeps a pipe swapped in from blocking the open, and the type is read from the open descriptor, so
 * what is read is what was checked to be a regular file.
 */
final class LinuxConfinedCalls implements ConfinedCalls {

    /** Set to an errno name ({@code ENOSYS}, {@code EPERM}) to make every {@code openat2} fail so, for tests. */
    static final String FAIL_WITH_PROPERTY = "mero.confinedCalls.failWith";

    /** The most mount descriptors kept open at once, as {@link MountRoots#MAX_OPEN}. */
    static final int MAX_OPEN = 64;

    private static final long BENEATH = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;

    private final LinuxSyscalls calls;
    private final Charset encoding;
    private final int failWith;
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
    public SeekableByteChannel openRegularFile(PathEntry entry, Path file) {
        return open(entry, file, false);
    }

    /**
     * Checks the mount as {@link PathEntry#requireUnchanged} does, through the kernel: one {@code statx} of its
     * path, not following a last link, must find a directory with the identity of the kept descriptor (which
     * {@link #borrow} checked to be the mounted directory), so no JDK attribute object is built per read.
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
            NativeScratch scratch = NativeScratch.get();
            if (checkMount && !mount.isStillAt(scratch, entry.realPath())) {
                return null;
            }
            if (!scratch.setPath(PathResolver.relative(entry.realPath(), file), encoding)) {
                return null;
            }
            long fd = openat2(scratch, mount.fd, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | calls.oNofollow,
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
        } finally {
            mount.release();
        }
    }

    @Override
    public List<TypedName> list(PathEntry entry, SecureDirectory directory, int max) {
        int fd = reopen(entry, directory, O_RDONLY | O_NONBLOCK | O_CLOEXEC | calls.oDirectory | calls.oNofollow);
        if (fd < 0) {
            return null;
        }
        try {
            return entries(NativeScratch.get(), fd, max);
        } finally {
            calls.close(fd);
        }
    }

    /**
     * Opens a walk's open directory again from its mount's kept descriptor, confined below the mount and checked to
     * be that very directory.
     *
     * @return the new descriptor, or -1 where the directory is not below the mount, the name cannot be passed, the
     *         open fails or it finds another directory
     */
    private int reopen(PathEntry entry, SecureDirectory directory, int flags) {
        Path root = entry.realPath();
        if (!directory.path().startsWith(root)) {
            return -1;
        }
        Mount mount = borrow(entry);
        if (mount == null) {
            return -1;
        }
        try {
            NativeScratch scratch = NativeScratch.get();
            String relative = PathResolver.relative(root, directory.path());
            if (!scratch.setPath(relative.isEmpty() ? "." : relative, encoding)) {
                return -1;
            }
            long opened = openat2(scratch, mount.fd, flags, BENEATH);
            if (opened < 0) {
                return -1;
            }
            int fd = (int) opened;
            if (!sameDirectory(fd, directory)) {
                calls.close(fd);
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
            NativeScratch scratch = NativeScratch.get();
            if (!scratch.setPath(PathResolver.relative(root, directory), encoding)) {
                return null;
            }
            long opened = openat2(scratch, mount.fd,
                    O_RDONLY | O_NONBLOCK | O_CLOEXEC | calls.oDirectory | calls.oNofollow, BENEATH);
            if (opened < 0) {
                return null;
            }
            fd = (int) opened;
            // the JDK opens its own descriptor of this very directory through the descriptor's /proc entry, which
            // names the open directory, not a path: no name is looked up again, and a directory never blocks
            DirectoryStream<Path> stream = Files.newDirectoryStream(descriptorPath(fd));
            if (stream instanceof SecureDirectoryStream<Path> secure) {
                return SecureDirectory.of(directory, secure);
            }
            stream.close();
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        } finally {
            if (fd >= 0) {
                calls.close(fd);
            }
            mount.release();
        }
    }

    /** The entries of an open directory, or {@code null} if one cannot be represented or the read fails. */
    private List<TypedName> entries(NativeScratch scratch, int fd, int max) {
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

    private long openat2(NativeScratch scratch, int directory, long flags, long resolve) {
        if (failWith != 0) {
            return -failWith;
        }
        return calls.openat2(scratch.capture, scratch.how, directory, scratch.path, flags, resolve);
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
        NativeScratch scratch = NativeScratch.get();
        if (!scratch.setPath(root.toString(), encoding)) {
            return null;
        }
        // an absolute path: no RESOLVE_BENEATH; no name on the way may be a link
        long fd = openat2(scratch, AT_FDCWD, O_PATH | calls.oDirectory | O_CLOEXEC,
                RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);
        if (fd < 0) {
            return null;
        }
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(descriptorPath((int) fd), BasicFileAttributes.class);
        } catch (IOException | RuntimeException e) {
            calls.close((int) fd);
            return null;
        }
        if (!entry.isMountedDirectory(attributes)) {
            calls.close((int) fd);
            return null;
        }
        Mount opened = new Mount((int) fd, attributes, identityOf(scratch, (int) fd));
        opened.users = 1;
        synchronized (mounts) {
            Mount replaced = mounts.put(root, opened);
            if (replaced != null) {
                replaced.evict();
            }
        }
        return opened;
    }

    /**
     * The device and inode of an open descriptor's file, as {@code statx} reports them, or {@code null} when the
     * call fails or does not report the inode.
     */
    private long[] identityOf(NativeScratch scratch, int fd) {
        if (calls.statxIdentity(scratch.capture, fd, scratch.empty, AT_EMPTY_PATH, scratch.statx) != 0) {
            return null;
        }
        return identity(scratch.statx);
    }

    /** The device (major, minor) and inode a successful {@code statx} wrote, {@code null} without the inode. */
    private static long[] identity(MemorySegment statx) {
        if ((statx.get(JAVA_INT, STATX_MASK) & STATX_INO) == 0) {
            return null;
        }
        return new long[] {Integer.toUnsignedLong(statx.get(JAVA_INT, STATX_DEV_MAJOR)),
                Integer.toUnsignedLong(statx.get(JAVA_INT, STATX_DEV_MINOR)), statx.get(JAVA_LONG, STATX_INO_AT)};
    }

    /** A kept mount descriptor and how many calls use it; closed when evicted and no longer used. */
    private final class Mount {
        final int fd;
        final BasicFileAttributes attributes;
        /** The kept directory's device (major, minor) and inode; {@code null} if they could not be read. */
        private final long[] identity;
        int users;
        boolean evicted;

        Mount(int fd, BasicFileAttributes attributes, long[] identity) {
            this.fd = fd;
            this.attributes = attributes;
            this.identity = identity;
        }

        /**
         * Whether the mount's path still names, without following a last link, the kept directory: a directory
         * with its device and inode (the file key {@link PathEntry#requireUnchanged} compares). Uses the
         * scratch's path and statx buffers.
         */
        boolean isStillAt(NativeScratch scratch, Path root) {
            if (identity == null || !scratch.setPath(root.toString(), encoding)
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

        void release() {
            synchronized (mounts) {
                users--;
                if (evicted && users == 0) {
                    calls.close(fd);
                }
            }
        }

        /** Called holding the lock. */
        void evict() {
            evicted = true;
            if (users == 0) {
                calls.close(fd);
            }
        }
    }

    /**
     * Opens a descriptor ({@code O_PATH}) of a walk's open directory, confined below the mount and checked to be that
     * very directory, from which {@link LinuxListedFiles} opens the listed files.
     */
    @Override
    public ListedFiles listedFiles(PathEntry entry, SecureDirectory directory) {
        int fd = reopen(entry, directory, O_PATH | O_CLOEXEC | calls.oDirectory | calls.oNofollow);
        if (fd < 0) {
            return null;
        }
        try {
            return new LinuxListedFiles(calls, fd, encoding);
        } catch (RuntimeException | Error e) {
            calls.close(fd);
            throw e;
        }
    }
}
