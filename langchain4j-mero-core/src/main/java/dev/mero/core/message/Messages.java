package dev.mero.core.message;

import dev.mero.core.Permission;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The few formatting rules every message of the library shares, so that a model reads one vocabulary.
 *
 * <p>Values are quoted in single quotes, and permission sets are rendered in declaration order as
 * {@code ['READ', 'WRITE']}, exactly as the specification's messages show them. Control, invisible and
 * bidirectional characters inside a value are escaped, so a hostile file name can neither break a message
 * into several lines nor hide part of it from the person or model reading it.
 */
public final class Messages {

    /**
     * Operating-system reasons a plain {@link IOException} from a read or write carries as its whole message; they
     * name no path, so a model may see them.
     */
    private static final Set<String> SYSTEM_REASONS = Set.of("No space left on device",
            "Disk quota exceeded", "Read-only file system", "File too large", "Input/output error");

    private Messages() {
    }

    /**
     * Quotes a value for a message: {@code abc} becomes {@code 'abc'}; a quote, a backslash and any
     * control or formatting character are escaped.
     *
     * @param value the value, may be {@code null}
     * @return the quoted value, or {@code None} (unquoted) for {@code null}
     */
    public static String quote(String value) {
        if (value == null) {
            return "None";
        }
        StringBuilder out = new StringBuilder(value.length() + 2).append('\'');
        value.codePoints().forEach(cp -> appendEscaped(out, cp));
        return out.append('\'').toString();
    }

    /**
     * The sentence of a refusal for permissions beyond a context's ceiling, the same wherever the ceiling is
     * checked: {@code Context 'x' lacks permission(s) ['WRITE'] (has: ['READ']).}
     *
     * @param contextName the context's name
     * @param missing     the permissions the ceiling lacks
     * @param has         the ceiling
     * @return the message
     */
    public static String lacksPermissions(String contextName, Collection<Permission> missing,
                                          Collection<Permission> has) {
        return "Context " + quote(contextName) + " lacks permission(s) " + permissions(missing) + " (has: "
                + permissions(has) + ").";
    }

    /**
     * Renders permissions as {@code ['READ', 'WRITE']}, in declaration order, without duplicates.
     *
     * @param permissions the permissions, may be empty
     * @return the rendered list
     */
    public static String permissions(Collection<Permission> permissions) {
        Objects.requireNonNull(permissions, "permissions");
        EnumSet<Permission> sorted = permissions.isEmpty()
                ? EnumSet.noneOf(Permission.class) : EnumSet.copyOf(permissions);
        StringJoiner joiner = new StringJoiner(", ", "[", "]");
        for (Permission permission : sorted) {
            joiner.add("'" + permission.name() + "'");
        }
        return joiner.toString();
    }

    /**
     * Tells whether a code point is one that must never appear raw in a path, a command or a message:
     * a control character (C0, DEL, C1) or an invisible formatting character (zero-width, bidirectional
     * override, byte-order mark, ...).
     *
     * @param codePoint the code point
     * @return {@code true} for a control or formatting character
     */
    public static boolean isControlOrInvisible(int codePoint) {
        int type = Character.getType(codePoint);
        return type == Character.CONTROL || type == Character.FORMAT
                || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
                || type == Character.SURROGATE;
    }

    /**
     * Renders a code point as {@code U+0000} for messages that name an offending character.
     *
     * @param codePoint the code point
     * @return its {@code U+0041}-style form
     */
    public static String codePoint(int codePoint) {
        return String.format("U+%04X", codePoint);
    }

    /**
     * Describes an I/O failure in words a model can act on, without a Java class name, a stack trace or the
     * host path that the exception's own message would carry.
     *
     * @param failure the failure
     * @return for example {@code "permission denied"} or {@code "no such file or directory"}
     */
    public static String ioReason(IOException failure) {
        if (failure instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (failure instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (failure instanceof NotDirectoryException) {
            return "a name in the path is not a directory";
        }
        if (failure instanceof FileSystemLoopException) {
            return "too many levels of symbolic links";
        }
        if (failure instanceof FileAlreadyExistsException) {
            return "a file is in the way where a directory is needed";
        }
        if (failure instanceof FileSystemException fs && fs.getReason() != null && !fs.getReason().isBlank()) {
            // the operating system's own words (strerror), e.g. "No space left on device"; never a path
            return fs.getReason();
        }
        if (failure.getMessage() != null && SYSTEM_REASONS.contains(failure.getMessage())) {
            // a failed read or write reports the operating system's words alone, e.g. a full disk
            return failure.getMessage();
        }
        return "an input/output error";
    }

    private static void appendEscaped(StringBuilder out, int cp) {
        switch (cp) {
            case '\'' -> out.append("\\'");
            case '\\' -> out.append("\\\\");
            case '\n' -> out.append("\\n");
            case '\r' -> out.append("\\r");
            case '\t' -> out.append("\\t");
            default -> {
                if (isControlOrInvisible(cp)) {
                    out.append(cp <= 0xFF ? String.format("\\x%02x", cp)
                            : Character.isBmpCodePoint(cp) ? String.format("\\u%04x", cp) : String.format("\\U%08x", cp));
                } else {
                    out.appendCodePoint(cp);
                }
            }
        }
    }
}
