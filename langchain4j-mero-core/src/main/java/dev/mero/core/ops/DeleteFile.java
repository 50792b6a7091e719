package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * {@code delete_file(path)}: removes a file ({@code unlinkat} relative to its open directory, so a link is
 * removed, never followed). As for {@code rm}, a symbolic link at the path is the thing deleted: DELETE is
 * decided on the link's own location, and the link must lead inside the mounts or nowhere (a dangling link can be
 * tidied away); what it points to is never touched. A missing file is reported as already absent; a directory is
 * refused.
 */
final class DeleteFile implements ToolOperation {

    private final SecurityContext context;

    DeleteFile(SecurityContext context) {
        this.context = context;
    }

    @Override
    public String run(ToolArguments arguments) {
        return context.run(Operation.FILE_DELETE, arguments.string("path"), LinkOption.NOFOLLOW_LINKS, null, null,
                target -> {
            if (target.isMountRoot()) {
                throw isADirectory(target);
            }
            try (SecureDirectory parent = Targets.openParent(target)) {
                context.recheck(target);
                Optional<BasicFileAttributes> attributes = parent.attributes(Targets.name(target));
                if (attributes.isEmpty()) {
                    return absent(target);
                }
                if (attributes.get().isDirectory()) {
                    throw isADirectory(target);
                }
                parent.deleteFile(Targets.name(target));
                if (attributes.get().isSymbolicLink()) {
                    return "Deleted the symbolic link " + Messages.quote(target.virtualPath()) + "; what it pointed to "
                            + "was not touched.";
                }
                return "Deleted " + Messages.quote(target.virtualPath()) + ".";
            } catch (NoSuchFileException e) {
                context.recheck(target);
                return absent(target);
            } catch (IOException e) {
                throw Targets.failure(context, "delete", target, e);
            }
        });
    }

    private static String absent(ResolvedPath target) {
        return Messages.quote(target.virtualPath()) + " does not exist (already absent); nothing was deleted.";
    }

    private static OperationFailedException isADirectory(ResolvedPath target) {
        return new OperationFailedException(Messages.quote(target.virtualPath()) + " is a directory; use "
                + "delete_directory to delete directories.");
    }
}
