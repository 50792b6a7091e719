package dev.mero.core.ops;

import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.List;

/**
 * The kernel's own confinement, where the JVM can reach it: one {@code openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)} from a mount's directory descriptor instead of a name-by-name walk
 * with a type check before each open, and a directory listing with the entries' types ({@code getdents64}'s
 * {@code d_type}) instead of a {@code stat} per entry.
 *
 * <p>Only a shortcut to a success: a call that does not end in a plain success (any error, a link, a type other
 * than the one wanted, a name the JVM cannot represent) answers {@code null} and the caller takes the path it has
 * always taken, whose checks make today's decision and write today's message. So this layer never refuses and
 * never explains anything itself; it only spares the checks where the kernel already guarantees their outcome.
 *
 * <p>On Java 17 a small JNI library built with the core opens files ({@link JniConfinedCalls}) where it loads and
 * the kernel has {@code openat2}, else {@link #NONE} is used; the multi-release jar's Java 25 classes select an
 * implementation through the foreign-function API where the kernel has {@code openat2} and no seccomp policy
 * refuses it ({@link ConfinedCallsSelector}). {@code -Dmero.confinedCalls=off} turns it off.
 */
interface ConfinedCalls {

    /** The system property that turns the layer off ({@code off}); read once, when the layer is selected. */
    String PROPERTY = "mero.confinedCalls";

    /** No kernel confinement reachable: every call takes the JDK's path. */
    ConfinedCalls NONE = new ConfinedCalls() {
        @Override
        public String name() {
            return "none";
        }

        @Override
        public SeekableByteChannel openRegularFile(PathEntry entry, Path file) {
            return null;
        }

        @Override
        public List<TypedName> list(PathEntry entry, SecureDirectory directory, int max) {
            return null;
        }

        @Override
        public SecureDirectory openDirectory(PathEntry entry, Path directory) {
            return null;
        }

        @Override
        public boolean walks() {
            return false;
        }
    };

    /**
     * What the layer uses, for logs and tests.
     *
     * @return e.g. {@code "openat2"}, or {@code "none"}
     */
    String name();

    /**
     * Opens a regular file for reading with one confined {@code openat2} from its mount's directory descriptor,
     * never following a link, never blocking on a pipe, and checks its type on the open descriptor. A success
     * must mean that no name below the mount's directory is a link: {@code read_file} opens the path as written
     * while deciding it ({@link ReadOpen}) and takes a success as proof that it is the real path.
     *
     * @param entry the mount the file is in
     * @param file  the file's path, below the mount's real path: the canonical real path, or a path as written
     *              that is the real path exactly when this open succeeds
     * @return the channel, positioned at 0, whose {@code size()} is the file's size; or {@code null} when this
     *         layer does not decide (then take the JDK's path)
     */
    SeekableByteChannel openRegularFile(PathEntry entry, Path file);

    /**
     * {@link #openRegularFile}, where the mount is still the directory it was when the context was built (what
     * {@link PathEntry#requireUnchanged(String)} checks): {@code read_file}'s decision leaves that check to the open
     * ({@link ReadOpen}). This default checks as {@code requireUnchanged} does; a layer may check through its kept
     * descriptor instead.
     *
     * @param entry the mount the file is in
     * @param file  the file's path, as for {@link #openRegularFile}
     * @return the channel, or {@code null} when the mount changed or this layer does not decide
     */
    default SeekableByteChannel openRegularFileOfUnchangedMount(PathEntry entry, Path file) {
        try {
            entry.requireUnchanged("");
        } catch (PathAccessDeniedException changed) {
            // the decision on the usual path refuses it, with the context's name in its message
            return null;
        }
        return openRegularFile(entry, file);
    }

    /**
     * Lists an open directory's entries with their types as the kernel reports them, reading the directory
     * through a descriptor opened, confined, from the mount's descriptor and checked to be this very directory.
     *
     * @param entry     the mount the directory is in
     * @param directory the open directory
     * @param max       how many entries the caller wants at most: at most one more is returned, the first in
     *                  directory order, as the JDK's listing would give them
     * @return the entries (not {@code .} and {@code ..}), in directory order, a mutable list; or {@code null} when this layer
     *         does not decide (then list it through the JDK)
     */
    List<TypedName> list(PathEntry entry, SecureDirectory directory, int max);

    /**
     * Opens a directory below a mount with one confined {@code openat2(O_DIRECTORY | O_NONBLOCK | O_NOFOLLOW)} from
     * the mount's directory descriptor: no link on the way, nothing outside the mount, and no FIFO in its place
     * can block the open, so a walk enters a directory without the JDK's type check before the open and without
     * handing the open to a thread of its own ({@link BoundedOpen}).
     *
     * @param entry     the mount the directory is in
     * @param directory the directory's canonical real path, below the mount's real path
     * @return the open directory, which the caller closes; or {@code null} when this layer does not decide (then
     *         take the JDK's path)
     */
    SecureDirectory openDirectory(PathEntry entry, Path directory);

    /**
     * Whether walks are served: {@link #list} gives the entries' types, {@link #openDirectory} opens without
     * blocking. A walk plans on it (it reads no attributes where the listing gives types, and opens its directories
     * inline); where it is {@code false}, every walk takes the JDK's path and only files are opened here.
     *
     * @return {@code true} unless this layer opens files only
     */
    default boolean walks() {
        return true;
    }

    /**
     * The layer in use.
     *
     * @return the selected layer, {@link #NONE} when turned off or not available
     */
    static ConfinedCalls current() {
        return Selected.calls;
    }

    /**
     * Opens an open directory's regular files for a search, from a descriptor of that very directory opened confined
     * below the mount and checked to be the directory the walk opened ({@link ListedFiles}).
     *
     * @param entry     the mount the directory is in
     * @param directory the open directory
     * @return the directory's files, which the caller closes; or {@code null} when this layer does not decide (then
     *         open each file through {@link SecureDirectory#openListedFile})
     */
    default ListedFiles listedFiles(PathEntry entry, SecureDirectory directory) {
        return null;
    }

    /** The selected layer; tests replace it to run the JDK's path on Java 25 too. */
    final class Selected {
        static volatile ConfinedCalls calls = select();

        private Selected() {
        }

        static ConfinedCalls select() {
            return "off".equals(System.getProperty(PROPERTY)) ? NONE : ConfinedCallsSelector.select();
        }
    }
}
