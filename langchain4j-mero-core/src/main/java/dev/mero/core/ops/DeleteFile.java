package dev.mero.core.ops;

import dev.mero.core.Messages;
import dev.mero.core.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * {@code delete_file(path)}: removes a file ({@code unlinkat} relative to its open directory, so a link is
 * removed, never followed). A missing file is reported as already absent; a directory is refused.
 */
final class DeleteFile implements ToolOperation {

    private final SecurityContext context;

    DeleteFile(SecurityContext context) {
        this.context = context;
    }

    @Override
    public String run(ToolArguments arguments) {
        return context.run(Operation.FILE_DELETE, arguments.string("path"), null, null, target -> {
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
