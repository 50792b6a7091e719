package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.LinkOption;

/**
 * {@code copy_file(source, destination)}: copies a regular file, possibly into another mount, replacing the
 * destination atomically. READ is guarded on the source, WRITE on the destination (its approval request names
 * the source and carries the SHA-256 of the bytes that will be written).
 *
 * <p>A symbolic link is copied as a link ({@code cp -P}): READ on the link's own location, WRITE on the
 * destination's own entry (a link there is replaced, not written through), and the copy keeps the link's text;
 * it is refused unless the link leads to something inside the mounts both where it is and from the destination.
 */
final class CopyFile implements ToolOperation {

    private final SecurityContext context;
    private final OperationLimits limits;

    CopyFile(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    @Override
    public String run(ToolArguments arguments) {
        return context.run(Operation.FILE_READ, arguments.string("source"), LinkOption.NOFOLLOW_LINKS, null, null,
                source -> {
            if (source.isSymbolicLink()) {
                return copyLink(source, arguments.string("destination"));
            }
            FileCopy.Digest digest = FileCopy.digest(context, source, limits.maxCopyBytes(), "copy_file");
            ResolvedPath destination = context.guard(Operation.FILE_WRITE, arguments.string("destination"),
                    "Copy of " + Messages.quote(source.virtualPath()) + " (" + digest.size + " bytes)", digest.sha256);
            if (destination.realPath().equals(source.realPath())) {
                throw new OperationFailedException("The source and the destination are the same file ("
                        + Messages.quote(source.virtualPath()) + "); nothing was copied.");
            }
            try (WriteTarget write = WriteTarget.open(context, destination, "copy_file")) {
                FileCopy.copy(context, source, write, digest, limits.maxCopyBytes(), "copy_file");
                context.recheck(destination);
                return "Copied " + Messages.quote(source.virtualPath()) + " to "
                        + Messages.quote(destination.virtualPath())
                        + " (" + digest.size + " bytes; " + (write.existsAsFile() ? "replaced the file there"
                        : "created the file" + write.parentsNote()) + ").";
            } catch (IOException e) {
                throw Targets.failure(context, "copy to", destination, e);
            }
        });
    }

    private String copyLink(ResolvedPath source, String destinationPath) {
        ResolvedPath destination = context.guard(Operation.FILE_WRITE, destinationPath, LinkOption.NOFOLLOW_LINKS,
                "Copy of the symbolic link " + Messages.quote(source.virtualPath()) + " (the link, not what it points "
                        + "to)", null);
        if (destination.realPath().equals(source.realPath())) {
            throw new OperationFailedException("The source and the destination are the same link ("
                    + Messages.quote(source.virtualPath()) + "); nothing was copied.");
        }
        String text = context.checkLinkTarget(source, destination);
        try (WriteTarget write = WriteTarget.open(context, destination, "copy_file")) {
            SymbolicLinkCopy.place(context, write, text);
            return "Copied the symbolic link " + Messages.quote(source.virtualPath()) + " to "
                    + Messages.quote(destination.virtualPath()) + " as a link with the same text ("
                    + (write.existing.isPresent() ? "replaced what was there" : "created it" + write.parentsNote())
                    + "); what it points to was not copied.";
        } catch (IOException e) {
            throw Targets.failure(context, "copy to", destination, e);
        }
    }
}
