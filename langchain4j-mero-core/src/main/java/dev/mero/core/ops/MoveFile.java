package dev.mero.core.ops;

import dev.mero.core.Messages;
import dev.mero.core.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.Permission;
import dev.mero.core.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystemException;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * {@code move_file(source, destination)}: renames a regular file, possibly into another mount. READ and
 * DELETE are guarded on the source, WRITE on the destination; an existing destination is refused. The rename
 * is {@code renameat} between the two open directories (no link followed); across file systems the file is
 * copied atomically, then the source removed.
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
        ResolvedPath source = context.guard(arguments.string("source"), Permission.READ, Permission.DELETE);
        FileCopy.Digest digest = FileCopy.digest(context, source, limits.maxCopyBytes(), "move_file");
        ResolvedPath destination = context.guard(Operation.FILE_WRITE, arguments.string("destination"),
                "Move of " + Messages.quote(source.virtualPath()) + " (" + digest.size + " bytes)", digest.sha256);
        if (destination.realPath().equals(source.realPath())) {
            throw new OperationFailedException("The source and the destination are the same file ("
                    + Messages.quote(source.virtualPath()) + "); nothing was moved.");
        }
        try (WriteTarget write = WriteTarget.open(context, destination, "move_file");
             SecureDirectory sourceParent = Targets.openParent(source)) {
            if (write.existing.isPresent()) {
                throw new OperationFailedException(Messages.quote(destination.virtualPath()) + " already exists; "
                        + "move_file does not replace files. Delete it first or choose another name.");
            }
            context.recheck(source);
            BasicFileAttributes attributes = sourceParent.attributes(Targets.name(source))
                    .orElseThrow(() -> Targets.missing(source));
            if (!attributes.isRegularFile()) {
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
            if (copied) {
                FileCopy.copy(context, source, write, digest, limits.maxCopyBytes(), "move_file");
                sourceParent.deleteFile(Targets.name(source));
            }
            context.recheck(destination);
            return "Moved " + Messages.quote(source.virtualPath()) + " to " + Messages.quote(destination.virtualPath())
                    + " (" + digest.size + " bytes" + write.parentsNote().replace(" and its", "; created its") + ").";
        } catch (IOException e) {
            throw Targets.failure(context, "move", source, e);
        }
    }
}
