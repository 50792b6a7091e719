package dev.mero.core.path;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The JVM's file-name encoding ({@code sun.jnu.encoding}), fixed at start-up from the locale. A JVM started
 * without a UTF-8 locale (no {@code LANG}, or {@code LC_ALL=C}, as MCP clients often start servers) cannot name
 * a file whose name is not ASCII: such a name is refused with a reason that names the cause and the fix, instead
 * of failing as an internal error, and a host application can warn at start.
 */
public final class FileNameEncoding {

    /** The fix every message names. */
    public static final String FIX = "LANG=C.UTF-8";

    private FileNameEncoding() {
    }

    /**
     * The charset file names are encoded in.
     *
     * @return e.g. {@code "UTF-8"} or {@code "ANSI_X3.4-1968"}
     */
    public static String charset() {
        return System.getProperty("sun.jnu.encoding", Charset.defaultCharset().name());
    }

    /**
     * Tells whether every file name can be represented.
     *
     * @return {@code true} if file names are UTF-8
     */
    public static boolean isUtf8() {
        try {
            return Charset.forName(charset()).equals(StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * A warning for the operator, to print or log at start, when file names are not UTF-8.
     *
     * @return the warning, or empty when file names are UTF-8
     */
    public static Optional<String> startupWarning() {
        if (isUtf8()) {
            return Optional.empty();
        }
        return Optional.of("The JVM encodes file names as " + charset() + " (sun.jnu.encoding), not UTF-8, because "
                + "it was started without a UTF-8 locale: files whose names are not ASCII cannot be read, written or "
                + "listed by name. Start it with " + FIX + " in its environment (for example "
                + "\"env " + FIX + " java -jar ...\").");
    }

    /**
     * Why a name cannot be used, for a refusal the model reads: the cause and the fix, no host path.
     *
     * @return the reason
     */
    public static String unusableNameReason() {
        return "the name cannot be represented in this JVM's file-name encoding (" + charset() + "; it was started "
                + "without a UTF-8 locale); the operator must start it with " + FIX;
    }
}
