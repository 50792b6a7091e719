package dev.mero.core.ops;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A read-only channel over a file descriptor the {@code openat2} layer opened: {@code pread} through the
 * foreign-function API into the thread's native buffer, copied into the caller's buffer. The descriptor was never
 * reachable by path from Java, so handing it to the JDK (which opens by path) is not possible without a magic
 * link, which is exactly what the open refused; reading it here keeps the kernel's confinement whole.
 *
 * <p>Reads and the close are serialised, so a close on another thread never lets a read reach a descriptor
 * number the process has since reused.
 */
final class DescriptorChannel implements SeekableByteChannel {

    private final LinuxSyscalls calls;
    private final int fd;
    private final long size;
    private long position;
    private boolean open = true;

    DescriptorChannel(LinuxSyscalls calls, int fd, long size) {
        this.calls = calls;
        this.fd = fd;
        this.size = size;
    }

    @Override
    public synchronized int read(ByteBuffer dst) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        NativeScratch scratch = NativeScratch.get();
        MemorySegment buffer = scratch.data;
        long want = Math.min(dst.remaining(), buffer.byteSize());
        long n = calls.pread(scratch.capture, fd, buffer, want, position);
        if (n < 0) {
            throw new IOException("read failed (errno " + -n + ")");
        }
        if (n == 0) {
            return -1;
        }
        if (dst.hasArray()) {
            // straight into the caller's array: no slice or buffer view of the native memory per read
            MemorySegment.copy(buffer, JAVA_BYTE, 0, dst.array(), dst.arrayOffset() + dst.position(), (int) n);
            dst.position(dst.position() + (int) n);
        } else {
            dst.put(buffer.asSlice(0, n).asByteBuffer());
        }
        position += n;
        return (int) n;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public synchronized long position() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        return position;
    }

    @Override
    public synchronized SeekableByteChannel position(long newPosition) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position");
        }
        position = newPosition;
        return this;
    }

    /** The file's size when it was opened, read from the open descriptor. */
    @Override
    public synchronized long size() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long newSize) {
        throw new NonWritableChannelException();
    }

    @Override
    public synchronized boolean isOpen() {
        return open;
    }

    @Override
    public synchronized void close() {
        if (open) {
            open = false;
            calls.close(fd);
        }
    }
}
