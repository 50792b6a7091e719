package dev.mero.core.ops;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.file.Path;

/**
 * A name read from a directory as bytes ({@code readdir}), made into a path that keeps those bytes, as the JDK's
 * own listings do. A name the JVM's file-name encoding decodes is {@code Path.of} its text; one it cannot decode
 * is built from a {@code file:} URI whose percent-escapes carry the exact bytes (the one public way to make such a
 * path), so that {@link UnusableName} shows it by its bytes and every use refuses it, as on the JDK's path.
 */
final class NativeName {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private NativeName() {
    }

    /**
     * The single-name path of a directory entry.
     *
     * @param bytes    the name's bytes, without the terminating NUL; never empty, never with a {@code /}
     * @param encoding the JVM's file-name encoding
     * @return the name as a path with exactly these bytes
     */
    static Path path(byte[] bytes, Charset encoding) {
        try {
            return Path.of(encoding.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            StringBuilder uri = new StringBuilder("file:///");
            for (byte b : bytes) {
                int value = b & 0xFF;
                uri.append('%').append(HEX[value >> 4]).append(HEX[value & 0xF]);
            }
            return Path.of(URI.create(uri.toString())).getFileName();
        }
    }

    /**
     * Whether a listed name is {@code .} or {@code ..}, which a listing leaves out.
     *
     * @param name a single name
     * @return {@code true} for {@code .} and {@code ..}
     */
    static boolean isDotOrDotDot(Path name) {
        String text = name.toString();
        return ".".equals(text) || "..".equals(text);
    }
}
