package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * {@code move_file(source, destination)}: renames a regular file, possibly into another mount. READ and
 * DELETE are guarded on the source, WRITE on the destination; an existing destination is refused. The rename
 * is {@code renameat} between the two open directories (no link followed); across file systems the file is
 * copied atomically, then the source removed.
 *
 * <p>A symbolic link is moved as a link ({@code mv}): READ and DELETE on the link's own location, WRITE on the
 * destination's own entry, the link's text kept; refused unless the link leads to something inside the mounts
 * both where it is and from the destination. What it points to is never moved.
 */
final class MoveFile implements ToolOperation {

    private final SecurityContext context;
    private final OperationLimits limits;

    MoveFile(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    @Override
    public String run(ToolArguments arguments) {
        ResolvedPath source = context.guard(arguments.string("source"), LinkOption.NOFOLLOW_LINKS, Permission.READ,
                Permission.DELETE);
        boolean link = source.isSymbolicLink();
        FileCopy.Digest digest = link ? null : FileCopy.digest(context, source, limits.maxCopyBytes(), "move_file");
        ResolvedPath destination = link
                ? context.guard(Operation.FILE_WRITE, arguments.string("destination"), LinkOption.NOFOLLOW_LINKS,
                        "Move of the symbolic link " + Messages.quote(source.virtualPath()) + " (the link, not what "
                                + "it points to)", null)
                : context.guard(Operation.FILE_WRITE, arguments.string("destination"),
                        "Move of " + Messages.quote(source.virtualPath()) + " (" + digest.size + " bytes)",
                        digest.sha256);
        if (destination.realPath().equals(source.realPath())) {
            throw new OperationFailedException("The source and the destination are the same " + (link ? "link" : "file")
                    + " (" + Messages.quote(source.virtualPath()) + "); nothing was moved.");
        }
        String linkText = link ? context.checkLinkTarget(source, destination) : null;
        try (WriteTarget write = WriteTarget.open(context, destination, "move_file");
             SecureDirectory sourceParent = Targets.openParent(source)) {
            if (write.existing.isPresent()) {
                throw new OperationFailedException(Messages.quote(destination.virtualPath()) + " already exists; "
                        + "move_file does not replace files. Delete it first or choose another name.");
            }
            context.recheck(source);
            BasicFileAttributes attributes = sourceParent.attributes(Targets.name(source))
                    .orElseThrow(() -> Targets.missing(source));
            if (link && !attributes.isSymbolicLink()) {
                throw new OperationFailedException(Messages.quote(source.virtualPath()) + " changed while it was being "
                        + "moved; nothing was moved. Check it and try again.");
            }
            if (!link && !attributes.isRegularFile()) {
                throw Targets.notAFile(source, attributes, "move_file");
            }
            context.recheck(destination);
            boolean copied = false;
            try {
                sourceParent.move(Targets.name(source), write.parent, write.name);
            } catch (AtomicMoveNotSupportedException e) {
                copied = true;
            } catch (FileSystemException e) {
                if (e.getReason() == null || !e.getReason().toLowerCase().contains("cross-device")) {
                    throw e;
                }
                copied = true;
            }
            if (copied && link) {
                SymbolicLinkCopy.place(context, write, linkText);
            } else if (copied) {
                FileCopy.copy(context, source, write, digest, limits.maxCopyBytes(), "move_file");
            }
            if (copied) {
                sourceParent.deleteFile(Targets.name(source));
            }
            String parents = write.parentsNote().replace(" and its", "; created its");
            if (link) {
                // no re-check of the destination: it is now a link, and was renamed within the open directories
                return "Moved the symbolic link " + Messages.quote(source.virtualPath()) + " to "
                        + Messages.quote(destination.virtualPath()) + " (the link with its text" + parents
                        + "); what it points to was not moved.";
            }
            context.recheck(destination);
            return "Moved " + Messages.quote(source.virtualPath()) + " to " + Messages.quote(destination.virtualPath())
                    + " (" + digest.size + " bytes" + parents + ").";
        } catch (IOException e) {
            throw Targets.failure(context, "move", source, e);
        }
    }
}
