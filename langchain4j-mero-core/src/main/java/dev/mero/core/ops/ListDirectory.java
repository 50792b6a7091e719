package dev.mero.core.ops;

import dev.mero.core.Messages;
import dev.mero.core.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.NotDirectoryException;

/**
 * {@code list_directory(path)}: the entries of a directory, opened without following a link anywhere
 * ({@link SecureDirectory}). {@code "/"} lists the mounts, as {@code list_roots} does.
 */
final class ListDirectory implements ToolOperation {

    private final SecurityContext context;
    private final OperationLimits limits;

    ListDirectory(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    @Override
    public String run(ToolArguments arguments) {
        String path = arguments.string("path");
        if (path.equals("/")) {
            context.checkScope(Operation.DIRECTORY_LIST);
            return ListRoots.render(context);
        }
        ResolvedPath target = context.guard(Operation.DIRECTORY_LIST, path);
        try (SecureDirectory directory = Targets.openDirectory(target)) {
            context.recheck(target);
            return DirectoryListing.render(target.virtualPath(), directory, limits.maxListEntries());
        } catch (NotDirectoryException | java.nio.file.NoSuchFileException e) {
            context.recheck(target);
            throw notADirectory(target);
        } catch (IOException e) {
            if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null
                    && fs.getReason().contains("Not a directory")) {
                context.recheck(target);
                throw notADirectory(target);
            }
            throw Targets.failure(context, "list", target, e);
        }
    }

    /**
     * The failure for a target that is no directory.
     *
     * @param target the target
     * @return the failure
     */
    static OperationFailedException notADirectory(ResolvedPath target) {
        return new OperationFailedException(Messages.quote(target.virtualPath())
                + " is not a directory or does not exist.");
    }
}
