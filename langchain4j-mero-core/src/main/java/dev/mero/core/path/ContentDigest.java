package dev.mero.core.path;

import dev.mero.core.guard.Operation;
import dev.mero.core.message.Messages;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The SHA-256 digest, in lower-case hex, that binds a decision to exact content: an approval of a write
 * covers the digest of the complete new content (or edit), a remembered approval matches only the same
 * digest, and the audit log records the digest instead of the content.
 *
 * <pre>{@code
 * byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
 * ResolvedPath target = context.guard(Operation.FILE_WRITE, "/ws/a.txt", preview, ContentDigest.of(bytes));
 * // write exactly `bytes`: the approval covered them and nothing else
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class ContentDigest {

    /** Characters in a digest: 64 lower-case hex digits. */
    public static final int LENGTH = 64;

    private ContentDigest() {
    }

    /**
     * The digest of bytes.
     *
     * @param content the bytes
     * @return 64 lower-case hex digits
     */
    public static String of(byte[] content) {
        Objects.requireNonNull(content, "content");
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("SHA-256 is missing from this JVM; every Java platform must provide it",
                    impossible);
        }
    }

    /**
     * The digest of a text's UTF-8 encoding.
     *
     * @param content the text
     * @return 64 lower-case hex digits
     */
    public static String of(String content) {
        return of(Objects.requireNonNull(content, "content").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Tells whether a text is a digest as {@link #of(byte[])} writes it.
     *
     * @param digest the text
     * @return {@code true} for exactly 64 lower-case hex digits
     */
    public static boolean isDigest(String digest) {
        if (digest == null || digest.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            char c = digest.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /**
     * Checks an optional digest given by a caller.
     *
     * @param digest a digest or {@code null}
     * @return the digest, possibly {@code null}
     * @throws IllegalArgumentException if a digest is given that is not 64 lower-case hex digits
     */
    public static String requireDigestOrNull(String digest) {
        if (digest != null && !isDigest(digest)) {
            throw new IllegalArgumentException("Invalid content digest " + Messages.quote(digest)
                    + ": give the 64 lower-case hex digits of ContentDigest.of(...)");
        }
        return digest;
    }
}
