package dev.mero.core.path;

import dev.mero.core.InvalidInputException;
import dev.mero.core.message.Messages;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The syntactic rules a path must pass before anything looks at the file system. A failure is an ordinary
 * {@link InvalidInputException}: the model gave an argument that cannot be used and should fix it.
 *
 * <p>Nothing is expanded, decoded or normalised here: what is checked is exactly what is used.
 */
final class PathSyntax {

    /** Longest path accepted, in characters (Linux PATH_MAX is 4096 bytes). */
    static final int MAX_PATH_CHARS = 4096;
    /** Longest single name accepted, in UTF-8 bytes (NAME_MAX on common file systems). */
    static final int MAX_NAME_BYTES = 255;

    private PathSyntax() {
    }

    /**
     * Validates a path and splits it into its names, dropping empty names and {@code .}; {@code ..} is
     * kept for the resolver to apply.
     */
    static List<String> components(String path) {
        if (path == null || path.isBlank()) {
            throw new InvalidInputException("The path is empty. Give a path such as 'notes.txt' (relative to the "
                    + "default mount) or '/slug/notes.txt'.");
        }
        if (path.length() > MAX_PATH_CHARS) {
            throw new InvalidInputException("The path is " + path.length() + " characters long; the limit is "
                    + MAX_PATH_CHARS + ". Give a shorter path.");
        }
        for (int i = 0; i < path.length(); ) {
            int cp = path.codePointAt(i);
            if (Messages.isControlOrInvisible(cp)) {
                throw new InvalidInputException("Path " + Messages.quote(path) + " contains the control or invisible "
                        + "character " + Messages.codePoint(cp) + " at index " + i
                        + "; paths may not contain control, zero-width or bidirectional characters.");
            }
            i += Character.charCount(cp);
        }
        if (path.startsWith("~")) {
            throw new InvalidInputException("Path " + Messages.quote(path) + " starts with '~', which is not "
                    + "expanded here. Give a path relative to the default mount or under a mounted slug.");
        }
        int dollar = variableReference(path);
        if (dollar >= 0) {
            throw new InvalidInputException("Path " + Messages.quote(path) + " contains the variable reference "
                    + Messages.quote(path.substring(dollar, Math.min(path.length(), dollar + 2)) + "...")
                    + ", which is not expanded here. Give the literal path.");
        }
        List<String> names = new ArrayList<>();
        // the names between slashes, as path.split("/") gives them, without its array and list
        for (int start = 0, end; start < path.length(); start = end + 1) {
            end = path.indexOf('/', start);
            if (end < 0) {
                end = path.length();
            }
            if (end == start || end == start + 1 && path.charAt(start) == '.') {
                continue;
            }
            String name = path.substring(start, end);
            // a char is at most 3 bytes in UTF-8 (a surrogate pair 4 for 2): only a long name needs encoding
            if (name.length() * 3 > MAX_NAME_BYTES && name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
                throw new InvalidInputException("A name in path " + Messages.quote(abbreviate(path)) + " is longer than "
                        + MAX_NAME_BYTES + " bytes. Give a shorter name.");
            }
            names.add(name);
        }
        return names;
    }

    /** Index of a {@code $NAME}, {@code ${...}} or {@code $(...)} reference, or -1. */
    private static int variableReference(String path) {
        for (int i = path.indexOf('$'); i >= 0 && i + 1 < path.length(); i = path.indexOf('$', i + 1)) {
            char next = path.charAt(i + 1);
            if (next == '{' || next == '(' || next == '_' || Character.isLetter(next)) {
                return i;
            }
        }
        return -1;
    }

    private static String abbreviate(String path) {
        return path.length() <= 80 ? path : path.substring(0, 77) + "...";
    }
}
