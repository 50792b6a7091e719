package dev.mero.core.ops;

import static dev.mero.core.ops.LinuxSyscalls.O_CLOEXEC;
import static dev.mero.core.ops.LinuxSyscalls.O_NOCTTY;
import static dev.mero.core.ops.LinuxSyscalls.O_NONBLOCK;
import static dev.mero.core.ops.LinuxSyscalls.O_RDONLY;
import static dev.mero.core.ops.LinuxSyscalls.RESOLVE_BENEATH;
import static dev.mero.core.ops.LinuxSyscalls.RESOLVE_NO_MAGICLINKS;
import static dev.mero.core.ops.LinuxSyscalls.RESOLVE_NO_SYMLINKS;
import static dev.mero.core.ops.LinuxSyscalls.STATX_MODE;
import static dev.mero.core.ops.LinuxSyscalls.STATX_SIZE_AT;
import static dev.mero.core.ops.LinuxSyscalls.S_IFMT;
import static dev.mero.core.ops.LinuxSyscalls.S_IFREG;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.Charset;

/**
 * {@link ListedFiles} on Linux: a descriptor of the directory ({@code O_PATH}, opened by
 * {@link LinuxConfinedCalls#listedFiles}), and per file {@code openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS)} of the single name with {@code O_NONBLOCK | O_NOFOLLOW}, {@code statx} on the new
 * descriptor for its type, {@code pread} into the thread's native buffer and {@code close}. Uses the native scratch
 * memory of the thread that made it, so only that thread uses it.
 */
final class LinuxListedFiles implements ListedFiles {

    private static final long BENEATH = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;

    private final LinuxSyscalls calls;
    private final int directory;
    private final Charset encoding;
    private final NativeScratch scratch = NativeScratch.get();
    private final long flags;
    private int fd = -1;
    private long position;
    private long size;
    private boolean closed;

    /**
     * Takes a directory descriptor, which {@link #close()} closes.
     *
     * @param calls     the bound calls
     * @param directory the directory's descriptor
     * @param encoding  the JVM's file-name encoding
     */
    LinuxListedFiles(LinuxSyscalls calls, int directory, Charset encoding) {
        this.calls = calls;
        this.directory = directory;
        this.encoding = encoding;
        this.flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | calls.oNofollow;
    }

    @Override
    public boolean open(String name) {
        closeFile();
        if (closed || !setName(name)) {
            return false;
        }
        long opened = calls.openat2(scratch.capture, scratch.how, directory, scratch.path, flags, BENEATH);
        if (opened < 0) {
            return false;
        }
        int descriptor = (int) opened;
        if (calls.fstatx(scratch.capture, descriptor, scratch.empty, scratch.statx) != 0
                || (scratch.statx.get(JAVA_SHORT, STATX_MODE) & S_IFMT) != S_IFREG) {
            // a pipe, device, socket or directory swapped in: the JDK's path refuses it as it always has
            calls.close(descriptor);
            return false;
        }
        fd = descriptor;
        position = 0;
        size = scratch.statx.get(JAVA_LONG, STATX_SIZE_AT);
        return true;
    }

    @Override
    public long size() {
        return size;
    }

    /**
     * Writes a single name into the scratch path, NUL-terminated: an ASCII name byte for byte, any other in the
     * file-name encoding if it encodes and decodes back to itself ({@link NativeScratch#setPath}).
     */
    private boolean setName(String name) {
        int length = name.length();
        if (length == 0 || length >= NativeScratch.PATH_BYTES || name.equals(".") || name.equals("..")) {
            return false;
        }
        MemorySegment path = scratch.path;
        for (int i = 0; i < length; i++) {
            char c = name.charAt(i);
            if (c == '/' || c == 0) {
                return false;
            }
            if (c >= 0x80) {
                return scratch.setPath(name, encoding);
            }
            path.set(JAVA_BYTE, i, (byte) c);
        }
        path.set(JAVA_BYTE, length, (byte) 0);
        return true;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (fd < 0) {
            throw new IOException("no file is open");
        }
        MemorySegment buffer = scratch.data;
        long n = calls.pread(scratch.capture, fd, buffer, Math.min(length, buffer.byteSize()), position);
        if (n < 0) {
            throw new IOException("read failed (errno " + -n + ")");
        }
        if (n == 0) {
            return -1;
        }
        MemorySegment.copy(buffer, JAVA_BYTE, 0, into, offset, (int) n);
        position += n;
        return (int) n;
    }

    @Override
    public void closeFile() {
        if (fd >= 0) {
            calls.close(fd);
            fd = -1;
        }
    }

    @Override
    public void close() {
        closeFile();
        if (!closed) {
            closed = true;
            calls.close(directory);
        }
    }
}
