package dev.mero.core.ops;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * {@link DescriptorReadChannel} through the foreign-function API: {@code pread} into the thread's native buffer,
 * copied into the caller's buffer.
 */
final class DescriptorChannel extends DescriptorReadChannel {

    private final LinuxSyscalls calls;
    private final int fd;

    DescriptorChannel(LinuxSyscalls calls, int fd, long size) {
        super(size);
        this.calls = calls;
        this.fd = fd;
    }

    @Override
    int readAt(ByteBuffer dst, long position) throws IOException {
        NativeScratch scratch = NativeScratch.get();
        MemorySegment buffer = scratch.data;
        long want = Math.min(dst.remaining(), buffer.byteSize());
        long n = calls.pread(scratch.capture, fd, buffer, want, position);
        if (n < 0) {
            throw new IOException("read failed (errno " + -n + ")");
        }
        if (n == 0) {
            return 0;
        }
        if (dst.hasArray()) {
            // straight into the caller's array: no slice or buffer view of the native memory per read
            MemorySegment.copy(buffer, JAVA_BYTE, 0, dst.array(), dst.arrayOffset() + dst.position(), (int) n);
            dst.position(dst.position() + (int) n);
        } else {
            dst.put(buffer.asSlice(0, n).asByteBuffer());
        }
        return (int) n;
    }

    @Override
    void closeDescriptor() {
        calls.close(fd);
    }
}
