package dev.mero.core.ops;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.Charset;

/**
 * One thread's native memory for the {@code openat2} layer's calls, allocated once per thread and freed with it
 * (an automatic arena): no allocation per call, and no sharing between threads.
 */
final class NativeScratch {

    /** The longest path passed to the kernel, {@code PATH_MAX} with its terminating NUL. */
    static final int PATH_BYTES = 4096;

    private static final ThreadLocal<NativeScratch> OF_THREAD = ThreadLocal.withInitial(NativeScratch::new);

    final MemorySegment capture;
    final MemorySegment how;
    final MemorySegment statx;
    final MemorySegment empty;
    final MemorySegment path;
    final MemorySegment entries;
    final MemorySegment data;

    private NativeScratch() {
        Arena arena = Arena.ofAuto();
        capture = LinuxSyscalls.captureOf(arena);
        how = arena.allocate(LinuxSyscalls.OPEN_HOW_BYTES, 8);
        statx = arena.allocate(LinuxSyscalls.STATX_BYTES, 8);
        empty = arena.allocate(1);
        path = arena.allocate(PATH_BYTES);
        entries = arena.allocate(32 * 1024, 8);
        data = arena.allocate(64 * 1024, 8);
    }

    /**
     * The calling thread's scratch memory.
     *
     * @return it
     */
    static NativeScratch get() {
        return OF_THREAD.get();
    }

    /**
     * Writes a path into {@link #path}, NUL-terminated, in the JVM's file-name encoding.
     *
     * @param name     the path
     * @param encoding the JVM's file-name encoding
     * @return whether it fits and can be represented (a name that cannot is never passed to the kernel)
     */
    boolean setPath(String name, Charset encoding) {
        int length = name.length();
        if (length < PATH_BYTES && KernelName.isByteForByte(name, encoding)) {
            // the common name: one byte a character in each of these encodings, which the JDK copies straight
            // from the string (NUL-terminated) without encoding it into a byte array first
            path.setString(0, name, encoding);
            return true;
        }
        byte[] bytes = KernelName.encode(name, encoding);
        if (bytes == null || bytes.length >= PATH_BYTES) {
            return false;
        }
        MemorySegment.copy(bytes, 0, path, JAVA_BYTE, 0, bytes.length);
        path.set(JAVA_BYTE, bytes.length, (byte) 0);
        return true;
    }
}
