package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * Creates a symbolic link as a copy of another ({@code cp -P}): the same text, at a prepared destination. The
 * platform offers no {@code symlinkat} relative to an open directory, so the link is made under a fresh
 * temporary name by the directory's checked real path, then found through the open directory (proof that the
 * name was made in that directory, not through a directory swapped for a link meanwhile) and renamed over the
 * destination's name ({@code renameat}); anything else removes the temporary link and leaves the destination
 * as it was.
 */
final class SymbolicLinkCopy {

    private SymbolicLinkCopy() {
    }

    /**
     * Places a link with {@code text} at a prepared destination, replacing a file or link there.
     *
     * @param context     the context that checked the destination
     * @param destination the prepared destination
     * @param text        the link's text, as {@link SecurityContext#checkLinkTarget} checked it
     * @throws IOException if the link cannot be made or renamed into place
     */
    static void place(SecurityContext context, WriteTarget destination, String text) throws IOException {
        String temporary = AtomicWrite.temporaryName(destination.name);
        Path made = destination.parent.path().resolve(temporary);
        context.recheck(destination.target);
        Files.createSymbolicLink(made, Path.of(text));
        boolean renamed = false;
        try {
            Optional<BasicFileAttributes> there = destination.parent.attributes(temporary);
            if (there.isEmpty() || !there.get().isSymbolicLink()) {
                throw new PathAccessDeniedException("Path " + Messages.quote(destination.target.virtualPath())
                        + " changed while the link was being made there; nothing was changed. Check the path and try "
                        + "again.");
            }
            destination.parent.move(temporary, destination.parent, destination.name);
            renamed = true;
        } finally {
            if (!renamed) {
                // made where the checked directory no longer is, or not renamed: take the temporary link back
                Files.deleteIfExists(made);
            }
        }
    }
}
