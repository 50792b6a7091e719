package dev.mero.core.ops;

import java.io.IOException;
import java.util.function.Function;

/**
 * {@link ListedFiles} through {@link JniSyscalls}: a descriptor of the directory ({@code O_PATH}, opened by
 * {@link JniConfinedCalls#listedFiles}), and per file {@code openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS)} of the single name with {@code O_NONBLOCK | O_NOFOLLOW}, {@code fstat} for its type,
 * {@code pread} straight into the caller's array and {@code close}. Used by one thread, which closes it.
 */
final class JniListedFiles implements ListedFiles {

    private final int directory;
    private final Function<String, byte[]> encoder;
    private final long[] stat = new long[JniSyscalls.STAT_LONGS];
    private int fd = -1;
    private long position;
    private long size;
    private boolean closed;

    /**
     * Takes a directory descriptor, which {@link #close()} closes.
     *
     * @param directory the directory's descriptor
     * @param encoder   a name's bytes in the JVM's file-name encoding, or {@code null} where it has none
     */
    JniListedFiles(int directory, Function<String, byte[]> encoder) {
        this.directory = directory;
        this.encoder = encoder;
    }

    @Override
    public boolean open(String name) {
        closeFile();
        if (closed || name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
            return false;
        }
        byte[] bytes = encoder.apply(name);
        if (bytes == null) {
            return false;
        }
        int descriptor = JniSyscalls.openat2(directory, bytes, JniSyscalls.OPEN_FILE, stat);
        if (descriptor < 0) {
            return false;
        }
        if ((stat[JniSyscalls.MODE] & JniSyscalls.S_IFMT) != JniSyscalls.S_IFREG) {
            // a pipe, device, socket or directory swapped in: the JDK's path refuses it as it always has
            JniSyscalls.close(descriptor);
            return false;
        }
        fd = descriptor;
        position = 0;
        size = stat[JniSyscalls.SIZE];
        return true;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (fd < 0) {
            throw new IOException("no file is open");
        }
        int n = JniSyscalls.pread(fd, into, offset, length, position);
        if (n < 0) {
            throw new IOException("read failed (errno " + -n + ")");
        }
        if (n == 0) {
            return -1;
        }
        position += n;
        return n;
    }

    @Override
    public void closeFile() {
        if (fd >= 0) {
            JniSyscalls.close(fd);
            fd = -1;
        }
    }

    @Override
    public void close() {
        closeFile();
        if (!closed) {
            closed = true;
            JniSyscalls.close(directory);
        }
    }
}
