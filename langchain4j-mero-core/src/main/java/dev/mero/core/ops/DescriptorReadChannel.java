package dev.mero.core.ops;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;

/**
 * A read-only channel over a file descriptor that a confined layer opened ({@link JniConfinedCalls}, the Java 25
 * {@code openat2} layer): positional reads, the size read from the descriptor at the open. The JDK opens by path
 * only, so handing it the descriptor would need a magic link, which is exactly what the open refused; reading it
 * here keeps the kernel's confinement whole.
 *
 * <p>Reads and the close are serialised, so a close on another thread never lets a read reach a descriptor
 * number the process has since reused.
 */
abstract class DescriptorReadChannel implements SeekableByteChannel {

    private final long size;
    private long position;
    private boolean open = true;

    /**
     * A channel at position 0.
     *
     * @param size the file's size when it was opened
     */
    DescriptorReadChannel(long size) {
        this.size = size;
    }

    /**
     * Reads from the descriptor at a position into a buffer with room, advancing the buffer.
     *
     * @param dst      the buffer, with at least one byte remaining
     * @param position where to read
     * @return the bytes read, 0 at the end of the file
     * @throws IOException if the read fails
     */
    abstract int readAt(ByteBuffer dst, long position) throws IOException;

    /** Closes the descriptor; called once. */
    abstract void closeDescriptor();

    @Override
    public final synchronized int read(ByteBuffer dst) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        if (!dst.hasRemaining()) {
            return 0;
        }
        int n = readAt(dst, position);
        if (n == 0) {
            return -1;
        }
        position += n;
        return n;
    }

    @Override
    public final int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public final synchronized long position() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        return position;
    }

    @Override
    public final synchronized SeekableByteChannel position(long newPosition) throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        if (newPosition < 0) {
            throw new IllegalArgumentException("negative position: " + newPosition);
        }
        position = newPosition;
        return this;
    }

    /** The file's size when it was opened, read from the open descriptor. */
    @Override
    public final synchronized long size() throws IOException {
        if (!open) {
            throw new ClosedChannelException();
        }
        return size;
    }

    @Override
    public final SeekableByteChannel truncate(long newSize) {
        throw new NonWritableChannelException();
    }

    @Override
    public final synchronized boolean isOpen() {
        return open;
    }

    @Override
    public final synchronized void close() {
        if (open) {
            open = false;
            closeDescriptor();
        }
    }
}
