package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.OperationFailedException;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * The file a writing operation is about to replace or create, with its directory open: the target is not a
 * mount root or a directory, its missing parents were created level by level ({@link Directories}), it was
 * re-checked, and what is at its name now was read without following a link. A device, pipe or socket is
 * refused before anything is opened for writing.
 */
final class WriteTarget implements Closeable {

    final ResolvedPath target;
    final SecureDirectory parent;
    final String name;
    final Optional<BasicFileAttributes> existing;
    final int createdParents;

    private WriteTarget(ResolvedPath target, SecureDirectory parent, Optional<BasicFileAttributes> existing,
                        int createdParents) {
        this.target = target;
        this.parent = parent;
        this.name = Targets.name(target);
        this.existing = existing;
        this.createdParents = createdParents;
    }

    /**
     * Prepares a guarded write target.
     *
     * @param context the context that guarded it
     * @param target  the guarded target
     * @param tool    the tool's name, for messages
     * @return the prepared target; close it
     */
    static WriteTarget open(SecurityContext context, ResolvedPath target, String tool) {
        if (target.isMountRoot()) {
            throw directory(target);
        }
        int created = Directories.ensure(context, target.realPath().getParent(), target);
        SecureDirectory parent = null;
        try {
            parent = Targets.openParent(target);
            context.recheck(target);
            Optional<BasicFileAttributes> existing = parent.attributes(Targets.name(target));
            if (existing.isPresent() && existing.get().isDirectory()) {
                throw directory(target);
            }
            if (existing.isPresent() && !existing.get().isRegularFile() && !existing.get().isSymbolicLink()) {
                throw Targets.notAFile(target, existing.get(), tool);
            }
            WriteTarget prepared = new WriteTarget(target, parent, existing, created);
            parent = null;
            return prepared;
        } catch (IOException e) {
            throw Targets.failure(context, "write", target, e);
        } finally {
            closeQuietly(parent);
        }
    }

    /**
     * Tells whether a regular file is at the target's name now (a link there counts as absent: it is replaced).
     *
     * @return {@code true} for an existing regular file
     */
    boolean existsAsFile() {
        return existing.isPresent() && existing.get().isRegularFile();
    }

    /**
     * The note about parents created, for results.
     *
     * @return {@code ""} or {@code " and its missing parent directories"}
     */
    String parentsNote() {
        return createdParents == 0 ? "" : " and its missing parent directories";
    }

    @Override
    public void close() {
        closeQuietly(parent);
    }

    private static OperationFailedException directory(ResolvedPath target) {
        return new OperationFailedException(Messages.quote(target.virtualPath()) + " is a directory; give the path "
                + "of a file inside it, for example " + Messages.quote(target.virtualPath() + "/notes.txt") + ".");
    }

    private static void closeQuietly(SecureDirectory directory) {
        if (directory != null) {
            try {
                directory.close();
            } catch (IOException ignored) {
                // closing a directory descriptor loses nothing
            }
        }
    }
}
