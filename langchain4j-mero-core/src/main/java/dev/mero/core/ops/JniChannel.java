package dev.mero.core.ops;

import java.io.IOException;
import java.nio.ByteBuffer;

/** {@link DescriptorReadChannel} through {@link JniSyscalls}: {@code pread} straight into the caller's array. */
final class JniChannel extends DescriptorReadChannel {

    private final int fd;

    JniChannel(int fd, long size) {
        super(size);
        this.fd = fd;
    }

    @Override
    int readAt(ByteBuffer dst, long position) throws IOException {
        int n;
        if (dst.hasArray()) {
            n = JniSyscalls.pread(fd, dst.array(), dst.arrayOffset() + dst.position(), dst.remaining(), position);
            if (n > 0) {
                dst.position(dst.position() + n);
            }
        } else {
            byte[] chunk = new byte[Math.min(dst.remaining(), 32 * 1024)];
            n = JniSyscalls.pread(fd, chunk, 0, chunk.length, position);
            if (n > 0) {
                dst.put(chunk, 0, n);
            }
        }
        if (n < 0) {
            throw new IOException("read failed (errno " + -n + ")");
        }
        return n;
    }

    @Override
    void closeDescriptor() {
        JniSyscalls.close(fd);
    }
}
