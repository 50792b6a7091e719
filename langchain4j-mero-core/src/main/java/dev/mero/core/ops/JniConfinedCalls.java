package dev.mero.core.ops;

import dev.mero.core.path.FileNameEncoding;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link ConfinedCalls} on Java 17, through Linux's {@code openat2} (5.6 and later) and {@code getdents64} bound
 * with JNI ({@link JniSyscalls}): the Java 25 layer's confined, non-blocking opens and typed listings, decided as
 * that layer decides them ({@link KeptMountCalls}). Java 17 can open a file or directory only by a blocking
 * {@code open}, so without this layer each open runs on an opener thread ({@link BoundedOpen}) in case a pipe was
 * swapped in; here the kernel refuses to block, and the caller opens on its own thread.
 */
final class JniConfinedCalls extends KeptMountCalls {

    private final Charset encoding;
    private final int failWith;

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
    int openMount(Path root) {
        byte[] name = bytes(root.toString());
        // an absolute path: no RESOLVE_BENEATH; no name on the way may be a link
        return name == null ? -1 : openat2(JniSyscalls.AT_FDCWD, name, JniSyscalls.OPEN_MOUNT, null);
    }

    @Override
    long[] identityOf(int fd) {
        long[] stat = new long[JniSyscalls.STAT_LONGS];
        return JniSyscalls.fstat(fd, stat) == 0 ? new long[] {stat[JniSyscalls.DEVICE], stat[JniSyscalls.INODE]}
                : null;
    }

    @Override
    boolean isDirectoryAt(Path root, long[] identity) {
        byte[] name = bytes(root.toString());
        long[] stat = new long[JniSyscalls.STAT_LONGS];
        return name != null && JniSyscalls.lstat(name, stat) == 0
                && (stat[JniSyscalls.MODE] & JniSyscalls.S_IFMT) == JniSyscalls.S_IFDIR
                && stat[JniSyscalls.DEVICE] == identity[0] && stat[JniSyscalls.INODE] == identity[1];
    }

    @Override
    SeekableByteChannel openRegularBelow(int directory, String relative) {
        byte[] name = bytes(relative);
        if (name == null) {
            return null;
        }
        long[] stat = new long[JniSyscalls.STAT_LONGS];
        int fd = openat2(directory, name, JniSyscalls.OPEN_FILE, stat);
        if (fd < 0) {
            return null;
        }
        if ((stat[JniSyscalls.MODE] & JniSyscalls.S_IFMT) != JniSyscalls.S_IFREG) {
            // a pipe, device, socket or directory: the JDK's path refuses it with today's message
            JniSyscalls.close(fd);
            return null;
        }
        return new JniChannel(fd, stat[JniSyscalls.SIZE]);
    }

    @Override
    int openBelow(int directory, String relative, Below how) {
        byte[] name = bytes(relative);
        return name == null ? -1 : openat2(directory, name,
                how == Below.DIRECTORY ? JniSyscalls.OPEN_DIRECTORY : JniSyscalls.OPEN_DIRECTORY_PATH, null);
    }

    @Override
    List<TypedName> entries(int fd, int max) {
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

    @Override
    ListedFiles filesOf(int fd) {
        return new JniListedFiles(fd, this::bytes);
    }

    @Override
    void close(int fd) {
        JniSyscalls.close(fd);
    }

    /** A name's bytes, or {@code null} when it cannot be represented ({@link KernelName}). */
    byte[] bytes(String name) {
        return KernelName.encode(name, encoding);
    }

    private int openat2(int directory, byte[] name, int how, long[] stat) {
        if (failWith != 0) {
            return -failWith;
        }
        return JniSyscalls.openat2(directory, name, how, stat);
    }
}
