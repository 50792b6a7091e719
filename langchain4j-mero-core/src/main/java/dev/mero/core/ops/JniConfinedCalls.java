package dev.mero.core.ops;

import dev.mero.core.PathEntry;
import dev.mero.core.path.FileNameEncoding;
import dev.mero.core.path.PathResolver;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
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
import java.util.Set;

/**
 * {@link ConfinedCalls} on Java 17, through Linux's {@code openat2} (5.6 and later) and {@code getdents64} bound
 * with JNI ({@link JniSyscalls}): the Java 25 layer's confined, non-blocking opens and typed listings, made as that
 * layer makes them through the foreign-function API. Java 17 can open a file or directory only by a blocking
 * {@code open}, so without this layer each open runs on an opener thread ({@link BoundedOpen}) in case a pipe was
 * swapped in; here the kernel refuses to block, and the caller opens on its own thread.
 *
 * <p>Every open starts at the mount's own directory descriptor, opened once with {@code RESOLVE_NO_SYMLINKS} and
 * kept only if it is the mounted directory itself (its JDK file key equals the one the entry recorded). Below it,
 * {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS} and {@code O_NOFOLLOW | O_NONBLOCK}, and the
 * type read from the open descriptor: what is read is what was checked to be a regular file.
 */
final class JniConfinedCalls implements ConfinedCalls {

    /** The most mount descriptors kept open at once, as the Java 25 layer. */
    static final int MAX_OPEN = 64;

    /** Encodings in which every ASCII character but NUL is its own single byte, and decodes back to itself. */
    private static final Set<Charset> ASCII_SUPERSETS = Set.of(StandardCharsets.UTF_8, StandardCharsets.US_ASCII,
            StandardCharsets.ISO_8859_1);

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

    private JniConfinedCalls(Charset encoding, int failWith) {
        this.encoding = encoding;
        this.failWith = failWith;
    }

    /**
     * Loads the library and opens the working directory with {@code openat2} once, as every later call would.
     *
     * @return the layer, or {@link ConfinedCalls#NONE} where the library is missing or cannot be loaded, the kernel
     *         lacks {@code openat2} ({@code ENOSYS}), a seccomp policy refuses it ({@code EPERM}) or any other error
     *         says it cannot be used ({@code -Dmero.confinedCalls.failWith=ENOSYS|EPERM} forces those two)
     */
    static ConfinedCalls probe() {
        if (!JniSyscalls.LOADED) {
            return ConfinedCalls.NONE;
        }
        String fail = System.getProperty("mero.confinedCalls.failWith", "");
        int failWith = "ENOSYS".equals(fail) ? JniSyscalls.ENOSYS : "EPERM".equals(fail) ? JniSyscalls.EPERM : 0;
        JniConfinedCalls layer = new JniConfinedCalls(Charset.forName(FileNameEncoding.charset()), failWith);
        int fd = layer.openat2(JniSyscalls.AT_FDCWD, new byte[] {'.'}, JniSyscalls.OPEN_PROBE, null);
        if (fd < 0) {
            return ConfinedCalls.NONE;
        }
        JniSyscalls.close(fd);
        return layer;
    }

    @Override
    public String name() {
        return "openat2-jni";
    }

    @Override
    public SeekableByteChannel openRegularFile(PathEntry entry, Path file) {
        return open(entry, file, false);
    }

    /**
     * Checks the mount as {@link PathEntry#requireUnchanged} does, through the kernel: an {@code lstat} of its path
     * must find a directory with the device and inode of the kept descriptor (which {@link #borrow} checked to be
     * the mounted directory).
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
            long[] stat = new long[JniSyscalls.STAT_LONGS];
            if (checkMount && !mount.isStillAt(stat)) {
                return null;
            }
            byte[] name = bytes(PathResolver.relative(entry.realPath(), file));
            if (name == null) {
                return null;
            }
            int fd = openat2(mount.fd, name, JniSyscalls.OPEN_FILE, stat);
            if (fd < 0) {
                return null;
            }
            if ((stat[JniSyscalls.MODE] & JniSyscalls.S_IFMT) != JniSyscalls.S_IFREG) {
                // a pipe, device, socket or directory: the JDK's path refuses it with today's message
                JniSyscalls.close(fd);
                return null;
            }
            return new JniChannel(fd, stat[JniSyscalls.SIZE]);
        } finally {
            mount.release();
        }
    }

    @Override
    public List<TypedName> list(PathEntry entry, SecureDirectory directory, int max) {
        int fd = reopen(entry, directory, JniSyscalls.OPEN_DIRECTORY);
        if (fd < 0) {
            return null;
        }
        try {
            return entries(fd, max);
        } finally {
            JniSyscalls.close(fd);
        }
    }

    /**
     * Opens a walk's open directory again from its mount's kept descriptor, confined below the mount and checked to
     * be that very directory.
     *
     * @return the new descriptor, or -1 where the directory is not below the mount, the name cannot be passed, the
     *         open fails or it finds another directory
     */
    private int reopen(PathEntry entry, SecureDirectory directory, int how) {
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
            byte[] name = bytes(relative.isEmpty() ? "." : relative);
            if (name == null) {
                return -1;
            }
            int fd = openat2(mount.fd, name, how, null);
            if (fd < 0) {
                return -1;
            }
            if (!sameDirectory(fd, directory)) {
                JniSyscalls.close(fd);
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
            byte[] name = bytes(PathResolver.relative(root, directory));
            if (name == null) {
                return null;
            }
            fd = openat2(mount.fd, name, JniSyscalls.OPEN_DIRECTORY, null);
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
                JniSyscalls.close(fd);
            }
            mount.release();
        }
    }

    /**
     * Opens a descriptor ({@code O_PATH}) of a walk's open directory, confined below the mount and checked to be that
     * very directory, from which {@link JniListedFiles} opens the listed files.
     */
    @Override
    public ListedFiles listedFiles(PathEntry entry, SecureDirectory directory) {
        int fd = reopen(entry, directory, JniSyscalls.OPEN_DIRECTORY_PATH);
        if (fd < 0) {
            return null;
        }
        return new JniListedFiles(fd, this::bytes);
    }

    /** The entries of an open directory, or {@code null} if one cannot be represented or the read fails. */
    private List<TypedName> entries(int fd, int max) {
        List<TypedName> names = new ArrayList<>();
        byte[] buffer = new byte[32 * 1024];
        while (true) {
            int n = JniSyscalls.getdents64(fd, buffer);
            if (n < 0) {
                return null;
            }
            if (n == 0) {
                return names;
            }
            // struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name (NUL-terminated)
            for (int at = 0; at < n; ) {
                int length = (buffer[at + 16] & 0xff) | (buffer[at + 17] & 0xff) << 8;
                int type = buffer[at + 18] & 0xff;
                int end = at + 19;
                while (end < at + length && buffer[end] != 0) {
                    end++;
                }
                int size = end - (at + 19);
                boolean dot = (size == 1 && buffer[at + 19] == '.')
                        || (size == 2 && buffer[at + 19] == '.' && buffer[at + 20] == '.');
                if (!dot) {
                    String decoded = new String(buffer, at + 19, size, encoding);
                    if (decoded.indexOf('\uFFFD') >= 0) {
                        // the JDK's listing counts it as unusable; let it
                        return null;
                    }
                    names.add(new TypedName(decoded, TypedName.Type.of(type)));
                    if (names.size() > max) {
                        return names;
                    }
                }
                at += length;
            }
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
     * A name's bytes in the JVM's file-name encoding, or {@code null} when it cannot be represented (a name that
     * cannot is never passed to the kernel; the JDK's path decides it).
     */
    byte[] bytes(String name) {
        if (ASCII_SUPERSETS.contains(encoding) && isPlainAscii(name)) {
            return name.getBytes(StandardCharsets.ISO_8859_1);
        }
        if (name.indexOf('\uFFFD') >= 0 || name.indexOf('\0') >= 0) {
            return null;
        }
        byte[] bytes = name.getBytes(encoding);
        return new String(bytes, encoding).equals(name) ? bytes : null;
    }

    /** Whether every character is ASCII other than NUL. */
    private static boolean isPlainAscii(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == 0 || c >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private int openat2(int directory, byte[] name, int how, long[] stat) {
        if (failWith != 0) {
            return -failWith;
        }
        return JniSyscalls.openat2(directory, name, how, stat);
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
        byte[] name = bytes(root.toString());
        if (name == null) {
            return null;
        }
        long[] stat = new long[JniSyscalls.STAT_LONGS];
        // an absolute path: no RESOLVE_BENEATH; no name on the way may be a link
        int fd = openat2(JniSyscalls.AT_FDCWD, name, JniSyscalls.OPEN_MOUNT, stat);
        if (fd < 0) {
            return null;
        }
        BasicFileAttributes attributes;
        try {
            // the JDK's file key of the descriptor's own directory (its /proc entry names the open file, not a path)
            attributes = Files.readAttributes(descriptorPath(fd), BasicFileAttributes.class);
        } catch (IOException | RuntimeException e) {
            JniSyscalls.close(fd);
            return null;
        }
        if (!entry.isMountedDirectory(attributes)) {
            JniSyscalls.close(fd);
            return null;
        }
        Mount opened = new Mount(fd, attributes, name, stat[JniSyscalls.DEVICE], stat[JniSyscalls.INODE]);
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
        /** The mount's absolute path, encoded. */
        private final byte[] root;
        private final long device;
        private final long inode;
        int users;
        boolean evicted;

        Mount(int fd, BasicFileAttributes attributes, byte[] root, long device, long inode) {
            this.fd = fd;
            this.attributes = attributes;
            this.root = root;
            this.device = device;
            this.inode = inode;
        }

        /**
         * Whether the mount's path still names, without following a last link, the kept directory: a directory with
         * its device and inode.
         */
        boolean isStillAt(long[] stat) {
            return JniSyscalls.lstat(root, stat) == 0
                    && (stat[JniSyscalls.MODE] & JniSyscalls.S_IFMT) == JniSyscalls.S_IFDIR
                    && stat[JniSyscalls.DEVICE] == device && stat[JniSyscalls.INODE] == inode;
        }

        void release() {
            synchronized (mounts) {
                users--;
                if (evicted && users == 0) {
                    JniSyscalls.close(fd);
                }
            }
        }

        /** Called holding the lock. */
        void evict() {
            evicted = true;
            if (users == 0) {
                JniSyscalls.close(fd);
            }
        }
    }
}
