package dev.mero.core.path;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where a symbolic link leads, judged the way the kernel follows it: its text read as written, a relative text
 * taken from the directory that holds the link. Used to decide on a link that is deleted, moved or copied as
 * itself (like {@code rm} and {@code mv}), never to follow one.
 */
final class SymbolicLinks {

    /** The longest link text taken into account ({@code PATH_MAX}); a longer one leads nowhere. */
    static final int MAX_TEXT_LENGTH = 4096;

    private SymbolicLinks() {
    }

    /**
     * The text of a link, as written.
     *
     * @param location the link's canonical location
     * @return its text, or {@code null} when no link is there (any more)
     */
    static String text(Path location) {
        try {
            return Files.readSymbolicLink(location).toString();
        } catch (IOException | UnsupportedOperationException | SecurityException notALinkOrUnreadable) {
            return null;
        }
    }

    /**
     * Where a link with {@code text} leads when it lies in {@code directory}: the canonical path at the end of its
     * chain. {@code directory} is canonical and may end in names that do not exist yet (a destination's missing
     * parents, plain directories once created): {@code ..} is applied name by name to the canonical path reached
     * so far, and every existing name is resolved the moment it is reached, as the kernel does.
     *
     * @param directory the canonical directory the link lies in
     * @param text      the link's text
     * @return the existing target, or empty when the link leads to nothing (missing, looping, unreadable)
     */
    static Optional<Path> leadsTo(Path directory, String text) {
        Path hop = firstHop(directory, text);
        try {
            return hop != null && Files.exists(hop, LinkOption.NOFOLLOW_LINKS) ? Optional.of(hop.toRealPath())
                    : Optional.empty();
        } catch (IOException | SecurityException nowhere) {
            return Optional.empty();
        }
    }

    /**
     * The entry a link with {@code text} names when it lies in {@code directory}, its own last name not followed:
     * the next link of a chain, or the target itself.
     *
     * @param directory the canonical directory the link lies in
     * @param text      the link's text
     * @return the named entry, its directory canonical; {@code null} for a text that names nothing
     */
    static Path firstHop(Path directory, String text) {
        if (text == null || text.isEmpty() || text.length() > MAX_TEXT_LENGTH) {
            return null;
        }
        try {
            Path written = Path.of(text);
            Path current = written.isAbsolute() ? written.getRoot() : directory;
            Path pending = null;
            for (Path name : written) {
                String part = name.toString();
                if (pending != null) {
                    // a name with more after it is a directory on the way: followed, as the kernel follows it
                    current = Files.exists(pending, LinkOption.NOFOLLOW_LINKS) ? pending.toRealPath() : pending;
                    pending = null;
                }
                if (part.equals("..")) {
                    current = current.getParent() == null ? current : current.getParent();
                } else if (!part.equals(".") && !part.isEmpty()) {
                    pending = current.resolve(part);
                }
            }
            return pending != null ? pending : current;
        } catch (IOException | SecurityException | InvalidPathException nowhere) {
            return null;
        }
    }
}
