package dev.mero.core.ops;

import dev.mero.core.path.FileNameEncoding;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;

/**
 * A directory entry whose name the JVM's file-name encoding cannot represent (see {@link FileNameEncoding}),
 * shown by its bytes: printable ASCII as it is, every other byte as {@code \xHH}, so a listing names it without
 * the JVM having to decode it.
 */
final class UnusableName {

    /** Why such a name cannot be read, and the fix. */
    static final String WHY = FileNameEncoding.isUtf8()
            ? "its bytes are not valid UTF-8, the JVM's file-name encoding, so it cannot be read; rename it"
            : "the JVM's file-name encoding is " + FileNameEncoding.charset() + ", not UTF-8, so it cannot be read; "
                    + "start the JVM with " + FileNameEncoding.FIX;
    /** What a listing appends to such a name. */
    static final String NOTE = "[name not readable: " + WHY + "]";

    private UnusableName() {
    }

    /**
     * The bytes of a single name, escaped.
     *
     * @param fileName a single name as read from a directory (it keeps the name's bytes)
     * @return e.g. {@code caf\xC3\xA9.txt}
     */
    static String escaped(Path fileName) {
        // a path's URI is the one public view of its bytes: percent-encoded, the name last
        String uri = fileName.toUri().getRawPath();
        if (uri.endsWith("/")) {
            uri = uri.substring(0, uri.length() - 1);
        }
        String encoded = uri.substring(uri.lastIndexOf('/') + 1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '%' && i + 2 < encoded.length()) {
                bytes.write(Integer.parseInt(encoded.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                bytes.write(c);
            }
        }
        StringBuilder out = new StringBuilder();
        for (byte b : bytes.toByteArray()) {
            int value = b & 0xFF;
            if (value >= 0x20 && value < 0x7F && value != '\\') {
                out.append((char) value);
            } else {
                out.append(String.format("\\x%02X", value));
            }
        }
        return out.toString();
    }
}
