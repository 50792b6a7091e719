package dev.mero.tools;

import dev.mero.core.Messages;
import java.io.IOException;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.TreeSet;

/**
 * The entries of one directory as a model reads them: sorted by name, directories marked with a trailing
 * {@code '/'}, at most a given number shown. Memory is bounded by that number and time by
 * {@link #MAX_SCANNED}, whatever the directory holds.
 */
final class DirectoryListing {

    /** Most entries ever read from one directory; a larger directory is reported as such. */
    static final int MAX_SCANNED = 100_000;

    private DirectoryListing() {
    }

    /**
     * Lists a directory.
     *
     * @param virtualPath the directory as the agent names it, for the header
     * @param directory   the real directory
     * @param maxEntries  how many entries to show at most
     * @return the listing text
     * @throws IOException if the directory cannot be read
     */
    static String render(String virtualPath, Path directory, int maxEntries) throws IOException {
        TreeSet<String> shown = new TreeSet<>();
        int total = 0;
        boolean incomplete = false;
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
            for (Path entry : stream) {
                if (total == MAX_SCANNED) {
                    incomplete = true;
                    break;
                }
                total++;
                shown.add(entry.getFileName().toString());
                if (shown.size() > maxEntries) {
                    shown.pollLast();
                }
            }
        } catch (DirectoryIteratorException e) {
            throw e.getCause();
        }
        if (total == 0) {
            return Messages.quote(virtualPath) + " is an empty directory.";
        }
        StringBuilder out = new StringBuilder()
                .append("Contents of ").append(Messages.quote(virtualPath)).append(" (")
                .append(incomplete ? "more than " + total : total).append(total == 1 ? " entry" : " entries")
                .append("; directories end with '/'):");
        for (String name : shown) {
            out.append('\n').append(displayName(name));
            if (Files.isDirectory(directory.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
                out.append('/');
            }
        }
        if (incomplete) {
            out.append("\n[Showing ").append(shown.size()).append(" entries in name order out of the first ")
                    .append(total).append(" found; the directory has more entries than can be listed.]");
        } else if (shown.size() < total) {
            out.append("\n[Showing the first ").append(shown.size()).append(" of ").append(total)
                    .append(" entries in name order; the rest are not shown.]");
        }
        return out.toString();
    }

    /** A name as it is, unless it holds characters that could forge or hide lines of the listing. */
    private static String displayName(String name) {
        return name.codePoints().anyMatch(Messages::isControlOrInvisible) ? Messages.quote(name) : name;
    }
}
