package dev.mero.core.ops;

import dev.mero.core.PathEntry;
import dev.mero.core.path.FileNameEncoding;
import dev.mero.core.path.PathResolver;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link ConfinedCalls} on Java 17, through Linux's {@code openat2} (5.6 and later) bound with JNI
 * ({@link JniSyscalls}): {@code read_file}'s one confined, non-blocking open, as the Java 25 layer makes it through
 * the foreign-function API. Java 17 can open a file only by a blocking {@code open}, so without this layer every
 * open of a file runs on an opener thread ({@link BoundedOpen}) in case a pipe was swapped in; here the kernel
 * refuses to block, and the caller opens on its own thread.
 *
 * <p>Every open starts at the mount's own directory descriptor, opened once with {@code RESOLVE_NO_SYMLINKS} and
 * kept only if it is the mounted directory itself (its JDK file key equals the one the entry recorded). Below it,
 * {@code RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS} and {@code O_NOFOLLOW | O_NONBLOCK}, and the
 * type read from the open descriptor: what is read is what was checked to be a regular file. Walks are not served
 * ({@link #walks()}): they take the JDK's path, as on Java 17 without this layer.
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
    public boolean walks() {
        return false;
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
        return null;
    }

    @Override
    public SecureDirectory openDirectory(PathEntry entry, Path directory) {
        return null;
    }

    /**
     * A name's bytes in the JVM's file-name encoding, or {@code null} when it cannot be represented (a name that
     * cannot is never passed to the kernel; the JDK's path decides it).
     */
    private byte[] bytes(String name) {
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
            attributes = Files.readAttributes(Path.of("/proc/self/fd/" + fd), BasicFileAttributes.class);
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
