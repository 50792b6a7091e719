package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The entries of one directory as a model reads them: sorted by name, directories marked with a trailing
 * {@code '/'}, at most a given number shown. Memory is bounded by that number and time by
 * {@link #MAX_SCANNED}, whatever the directory holds. The directory is read through a
 * {@link SecureDirectory}, so no link is followed anywhere.
 */
final class DirectoryListing {

    /** Most entries ever read from one directory; a larger directory is reported as such. */
    static final int MAX_SCANNED = 100_000;

    /** Follows the name of an entry a protected path covers: listings show it, nothing reads it. */
    static final String PROTECTED_MARK = " [protected]";

    private DirectoryListing() {
    }

    /**
     * Lists a directory.
     *
     * @param virtualPath the directory as the agent names it, for the header
     * @param directory   the open directory (read once)
     * @param maxEntries  how many entries to show at most
     * @return the listing text
     * @throws IOException if the directory cannot be read
     */
    static String render(String virtualPath, SecureDirectory directory, int maxEntries) throws IOException {
        return render(virtualPath, directory, maxEntries, name -> false);
    }

    /**
     * Lists a directory, marking the names of entries a protected path covers.
     *
     * @param virtualPath the directory as the agent names it, for the header
     * @param directory   the open directory (read once)
     * @param maxEntries  how many entries to show at most
     * @param isProtected tells whether a protected path covers an entry of the directory, by name
     * @return the listing text
     * @throws IOException if the directory cannot be read
     */
    static String render(String virtualPath, SecureDirectory directory, int maxEntries,
                         java.util.function.Predicate<String> isProtected) throws IOException {
        TreeSet<String> shown = new TreeSet<>();
        TreeSet<String> unusable = new TreeSet<>();
        int[] total = {0};
        boolean[] incomplete = {false};
        directory.scan(name -> {
            if (total[0] == MAX_SCANNED) {
                incomplete[0] = true;
                return false;
            }
            total[0]++;
            shown.add(name);
            if (shown.size() > maxEntries) {
                shown.pollLast();
            }
            return true;
        }, escaped -> {
            // a name the JVM cannot represent is shown by its bytes, after the others
            total[0]++;
            unusable.add(escaped);
            if (unusable.size() > maxEntries) {
                unusable.pollLast();
            }
        });
        while (shown.size() + unusable.size() > maxEntries && !unusable.isEmpty()) {
            unusable.pollLast();
        }
        if (total[0] == 0) {
            return Messages.quote(virtualPath) + " is an empty directory.";
        }
        StringBuilder out = new StringBuilder()
                .append("Contents of ").append(Messages.quote(virtualPath)).append(" (")
                .append(incomplete[0] ? "more than " + total[0] : total[0])
                .append(total[0] == 1 ? " entry" : " entries").append("; directories end with '/'):");
        for (String name : shown) {
            out.append('\n').append(displayName(name));
            Optional<BasicFileAttributes> attributes = directory.attributes(name);
            if (attributes.isPresent() && attributes.get().isDirectory()) {
                out.append('/');
            }
            if (isProtected.test(name)) {
                out.append(PROTECTED_MARK);
            }
        }
        for (String name : unusable) {
            out.append('\n').append(name).append(' ').append(UnusableName.NOTE);
        }
        if (incomplete[0]) {
            out.append("\n[Showing ").append(shown.size()).append(" entries in name order out of the first ")
                    .append(total[0]).append(" found; the directory has more entries than can be listed.]");
        } else if (shown.size() + unusable.size() < total[0]) {
            out.append("\n[Showing the first ").append(shown.size() + unusable.size()).append(" of ").append(total[0])
                    .append(" entries in name order; the rest are not shown.]");
        }
        return out.toString();
    }

    /** A name as it is, unless it holds characters that could forge or hide lines of the listing. */
    static String displayName(String name) {
        return name.codePoints().anyMatch(Messages::isControlOrInvisible) ? Messages.quote(name) : name;
    }
}
