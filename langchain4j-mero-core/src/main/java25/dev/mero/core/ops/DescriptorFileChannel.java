package dev.mero.core.ops;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.NonReadableChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A regular file the portable directory layer opened ({@link DescriptorDirectoryStream#newByteChannel}), read and
 * written through its descriptor with {@link PosixCalls}: the JDK opens files only by path, and reopening the
 * descriptor by a path (Linux's {@code /proc/self/fd}) is what systems without {@code /proc} cannot do. Bytes go
 * through a native buffer of at most {@value #CHUNK} bytes per call. Mapping and locking are not offered.
 *
 * <p>Every call and the close hold the channel's lock, so a close never lets a call reach a descriptor number the
 * process has since reused. The calls are not interruptible: a regular file does not block.
 */
final class DescriptorFileChannel extends FileChannel {

    private static final int CHUNK = 64 * 1024;

    private final PosixCalls calls;
    private final int fd;
    private final boolean readable;
    private final boolean writable;
    private final Object lock = new Object();

    /**
     * Takes over an open descriptor, which the channel closes.
     *
     * @param calls    the calls of this machine
     * @param fd       a regular file's descriptor
     * @param readable whether it was opened to read
     * @param writable whether it was opened to write
     */
    DescriptorFileChannel(PosixCalls calls, int fd, boolean readable, boolean writable) {
        this.calls = calls;
        this.fd = fd;
        this.readable = readable;
        this.writable = writable;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return (int) transfer(dst, -1, false);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        requireNonNegative(position);
        return (int) transfer(dst, position, false);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            if (!dsts[i].hasRemaining()) {
                continue;
            }
            int n = read(dsts[i]);
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            total += n;
            if (dsts[i].hasRemaining()) {
                break;
            }
        }
        return total;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return (int) transfer(src, -1, true);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        requireNonNegative(position);
        return (int) transfer(src, position, true);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        long total = 0;
        for (int i = offset; i < offset + length; i++) {
            int n = write(srcs[i]);
            total += n;
            if (srcs[i].hasRemaining()) {
                break;
            }
        }
        return total;
    }

    /** One {@code read}/{@code write} (or {@code pread}/{@code pwrite} at a position) of up to one chunk. */
    private long transfer(ByteBuffer buffer, long position, boolean out) throws IOException {
        if (out && !writable) {
            throw new NonWritableChannelException();
        }
        if (!out && !readable) {
            throw new NonReadableChannelException();
        }
        synchronized (lock) {
            requireOpen();
            int want = Math.min(buffer.remaining(), CHUNK);
            if (want == 0) {
                return 0;
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment bytes = arena.allocate(want);
                if (out) {
                    bytes.copyFrom(MemorySegment.ofBuffer(buffer.slice(buffer.position(), want)));
                    long n = calls.write(fd, bytes, position);
                    buffer.position(buffer.position() + (int) n);
                    return n;
                }
                long n = calls.read(fd, bytes, position);
                if (n == 0) {
                    return -1;
                }
                buffer.put(bytes.asSlice(0, n).asByteBuffer());
                return n;
            }
        }
    }

    @Override
    public long position() throws IOException {
        synchronized (lock) {
            requireOpen();
            return calls.lseek(fd, 0, PosixCalls.SEEK_CUR);
        }
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        requireNonNegative(newPosition);
        synchronized (lock) {
            requireOpen();
            calls.lseek(fd, newPosition, PosixCalls.SEEK_SET);
            return this;
        }
    }

    /** The size of the open file, read from its descriptor. */
    @Override
    public long size() throws IOException {
        synchronized (lock) {
            requireOpen();
            return calls.fstat(fd).size();
        }
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        requireNonNegative(size);
        if (!writable) {
            throw new NonWritableChannelException();
        }
        synchronized (lock) {
            requireOpen();
            long position = calls.lseek(fd, 0, PosixCalls.SEEK_CUR);
            if (size < calls.fstat(fd).size()) {
                calls.ftruncate(fd, size);
            }
            if (position > size) {
                calls.lseek(fd, size, PosixCalls.SEEK_SET);
            }
            return this;
        }
    }

    /** {@code fsync}: data and metadata, whatever {@code metaData} asks. */
    @Override
    public void force(boolean metaData) throws IOException {
        synchronized (lock) {
            requireOpen();
            calls.fsync(fd);
        }
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        requireNonNegative(position);
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(CHUNK, Math.max(count, 0)));
        long done = 0;
        while (done < count) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), count - done));
            int n = read(buffer, position + done);
            if (n <= 0) {
                break;
            }
            buffer.flip();
            while (buffer.hasRemaining()) {
                target.write(buffer);
            }
            done += n;
        }
        return done;
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        requireNonNegative(position);
        ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(CHUNK, Math.max(count, 0)));
        long done = 0;
        while (done < count) {
            buffer.clear().limit((int) Math.min(buffer.capacity(), count - done));
            int n = src.read(buffer);
            if (n <= 0) {
                break;
            }
            buffer.flip();
            while (buffer.hasRemaining()) {
                write(buffer, position + done + buffer.position());
            }
            done += n;
        }
        return done;
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) {
        throw new UnsupportedOperationException("the portable directory layer does not map files");
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) {
        throw new UnsupportedOperationException("the portable directory layer does not lock files");
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) {
        throw new UnsupportedOperationException("the portable directory layer does not lock files");
    }

    @Override
    protected void implCloseChannel() {
        synchronized (lock) {
            calls.close(fd);
        }
    }

    private void requireOpen() throws ClosedChannelException {
        if (!isOpen()) {
            throw new ClosedChannelException();
        }
    }

    private static void requireNonNegative(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative position or size");
        }
    }
}
