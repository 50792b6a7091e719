package dev.mero.core.path;

import dev.mero.core.PathEntry;
import java.nio.file.Path;

/**
 * A file to read, opened while its path is decided by one open the kernel confines below the mount (no link on
 * the way, nothing outside it): where that open succeeds, the path as written is the real path, so the decision
 * needs no {@code lstat} per name before it and the read no second open after it. The resolver opens only after
 * the decision on the written path allows the read without an approval, so nothing is opened that the path
 * checks refuse; anything but a plain success takes the resolver's usual path, which decides and explains as it
 * always has.
 *
 * <p>One call installs it on its thread ({@link #begin()}), its action {@link #take(Path) takes} the open file,
 * and {@link #close()} uninstalls it and releases a file nothing took. A later decision on the thread (a re-check)
 * opens again and releases the earlier file, so what is taken belongs to the last decision.
 *
 * <p>Internal: public only for the tool operations in {@code dev.mero.core.ops}.
 */
public abstract class ConfirmedOpen implements AutoCloseable {

    private static final ThreadLocal<ConfirmedOpen> CURRENT = new ThreadLocal<>();

    /** The real path of the file now open, {@code null} for none. */
    private Path opened;

    /** For subclasses. */
    protected ConfirmedOpen() {
    }

    /**
     * Installs this open for the decisions the calling thread takes until {@link #take} or {@link #close}.
     *
     * @return this
     */
    public final ConfirmedOpen begin() {
        CURRENT.set(this);
        return this;
    }

    /** The open installed on the calling thread, or {@code null}. */
    static ConfirmedOpen current() {
        return CURRENT.get();
    }

    /** Opens a decided file, releasing an earlier decision's; {@code true} when it is open as a regular file. */
    final boolean confirm(PathEntry mount, Path file) {
        release();
        opened = open(mount, file) ? file : null;
        return opened != null;
    }

    /**
     * Ends the decisions' opens on this thread and tells whether the file the last one opened is the target's.
     *
     * @param realPath the decided target's real path
     * @return {@code true} when that file is open (then the subclass hands it over), else {@code false} (and
     *         nothing is open any more)
     */
    public final boolean take(Path realPath) {
        CURRENT.remove();
        if (opened != null && opened.equals(realPath)) {
            return true;
        }
        release();
        opened = null;
        return false;
    }

    /**
     * Opens a regular file for reading, below its mount, never following a link.
     *
     * @param mount the outermost mount holding the file
     * @param file  the file's path as decided, below the mount's real directory
     * @return {@code true} when it is open and a regular file; {@code false} when it is not open
     */
    protected abstract boolean open(PathEntry mount, Path file);

    /**
     * Whether {@link #open} opens only below a mount that is still the directory it was when the context was built
     * (what {@link PathEntry#requireUnchanged(String)} checks), and fails otherwise: then a decision on a path in
     * one mount leaves that check to the open, and a changed mount is refused on the usual path.
     *
     * @return {@code false} unless a subclass checks the mount itself
     */
    protected boolean opensOnlyBelowUnchangedMounts() {
        return false;
    }

    /** Closes the file {@link #open} opened, if it is still open and not handed over. */
    protected abstract void release();

    /** Uninstalls this open and releases a file that nothing took. */
    @Override
    public final void close() {
        CURRENT.remove();
        release();
        opened = null;
    }
}
