package dev.mero.core.ops;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * A name as the confined layers pass it to the kernel, in the JVM's file-name encoding: a name that cannot be
 * represented exactly (a NUL, a character the encoding lacks, one that does not decode back to itself) is never
 * passed, and the JDK's path decides it instead.
 */
final class KernelName {

    /** Encodings in which every ASCII character but NUL is its own single byte, and decodes back to itself. */
    private static final Set<Charset> ASCII_SUPERSETS = Set.of(StandardCharsets.UTF_8, StandardCharsets.US_ASCII,
            StandardCharsets.ISO_8859_1);

    private KernelName() {
    }

    /**
     * Whether a name is passed byte for byte, one byte a character: plain ASCII without NUL, in an encoding where
     * that is its own encoding (the common name, which needs no encoder).
     *
     * @param name     the name
     * @param encoding the JVM's file-name encoding
     * @return whether it is
     */
    static boolean isByteForByte(String name, Charset encoding) {
        if (!ASCII_SUPERSETS.contains(encoding)) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == 0 || c >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /**
     * A name's bytes, checked to decode back to the name.
     *
     * @param name     the name
     * @param encoding the JVM's file-name encoding
     * @return the bytes, without a terminating NUL; or {@code null} when the name cannot be represented exactly
     */
    static byte[] encode(String name, Charset encoding) {
        if (isByteForByte(name, encoding)) {
            return name.getBytes(StandardCharsets.ISO_8859_1);
        }
        if (name.indexOf('\uFFFD') >= 0 || name.indexOf('\0') >= 0) {
            return null;
        }
        byte[] bytes = name.getBytes(encoding);
        return new String(bytes, encoding).equals(name) ? bytes : null;
    }
}
