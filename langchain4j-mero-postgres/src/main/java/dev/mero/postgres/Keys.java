package dev.mero.postgres;

import dev.mero.core.InvalidInputException;
import dev.mero.core.message.Messages;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Makes every key the store writes round-trip exactly and fit an index. PostgreSQL text holds neither NUL
 * nor an unpaired UTF-16 surrogate (the driver writes the latter as {@code ?}, so two different keys would
 * share a row): such a key is refused with {@link InvalidInputException} before any SQL runs. A key longer
 * than {@link #MAX_RAW} characters is stored as its SHA-256 digest, because a btree row holds at most
 * 2,704 bytes; a short key that looks like a digest is digested too, so no chosen key can equal another's
 * digest.
 */
final class Keys {

    /** The longest key stored as it is, in characters (at most 4 bytes each in UTF-8). */
    static final int MAX_RAW = 256;

    /** The longest approval request id accepted (the core's default ids are 36-character UUIDs). */
    static final int MAX_ID = 256;

    private static final String DIGEST = "sha256:";

    private Keys() {
    }

    /**
     * Refuses a value PostgreSQL cannot store exactly.
     *
     * @param what  what the value is, for the message ("call id")
     * @param value the value
     * @return the value
     * @throws InvalidInputException if it holds NUL or an unpaired surrogate
     */
    static String exact(String what, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean unpaired = Character.isHighSurrogate(c)
                    ? i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(++i))
                    : Character.isLowSurrogate(c);
            if (c == '\u0000' || unpaired) {
                throw new InvalidInputException("Invalid input: the " + what + " " + Messages.quote(value)
                        + " holds " + (c == '\u0000' ? "a NUL character" : "an unpaired UTF-16 surrogate")
                        + ", which the policy store cannot keep exactly. Expected a " + what
                        + " of valid Unicode text without NUL.");
            }
        }
        return value;
    }

    /**
     * The form a key is stored in: itself when short, its digest when long.
     *
     * @param what  what the key is, for the message
     * @param value the key
     * @return the stored form
     * @throws InvalidInputException if the key cannot be stored exactly
     */
    static String stored(String what, String value) {
        exact(what, value);
        if (value.length() <= MAX_RAW && !value.startsWith(DIGEST)) {
            return value;
        }
        return DIGEST + sha256(value);
    }

    /**
     * An approval request id: exact and short enough to be listed and decided by itself.
     *
     * @param id the id
     * @return the id
     * @throws InvalidInputException if it cannot be stored exactly or is longer than {@link #MAX_ID}
     */
    static String id(String id) {
        exact("request id", id);
        if (id.length() > MAX_ID) {
            throw new InvalidInputException("Invalid input: the request id " + Messages.quote(id.substring(0, 40))
                    + "... is " + id.length() + " characters long. Expected at most " + MAX_ID + ".");
        }
        return id;
    }

    /**
     * A text kept for reading (a replayed result, an audit field) with each character PostgreSQL cannot store
     * replaced by U+FFFD, so that writing it never fails.
     *
     * @param value the text, may be {@code null}
     * @return the storable text, or {@code null}
     */
    static String storable(String value) {
        if (value == null) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1));
            boolean bad = c == '\u0000' || (!pair && Character.isSurrogate(c));
            if (bad && out == null) {
                out = new StringBuilder(value.length()).append(value, 0, i);
            }
            if (out != null) {
                out.append(bad ? '\uFFFD' : c);
                if (pair) {
                    out.append(value.charAt(i + 1));
                }
            }
            if (pair) {
                i++;
            }
        }
        return out == null ? value : out.toString();
    }

    private static String sha256(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
