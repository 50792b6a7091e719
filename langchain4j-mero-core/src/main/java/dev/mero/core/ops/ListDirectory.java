package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
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
        return context.run(Operation.DIRECTORY_LIST, path, null, null, target -> {
            try (SecureDirectory directory = Targets.openDirectory(target)) {
                context.recheck(target);
                // the decision refused a protected directory, so each entry's own name is all left to match
                return DirectoryListing.render(target.virtualPath(), directory, limits.maxListEntries(),
                        name -> context.protectedEntryPattern(target.realPath(), name).isPresent());
            } catch (IOException e) {
                throw failure(context, target, e);
            }
        });
    }

    /**
     * The failure for a directory that could not be opened or read: not a directory (or missing), or an I/O
     * error; a target that moved is reported as the re-check's denial.
     *
     * @param context the context that checked the target
     * @param target  the target
     * @param cause   the failure
     * @return the failure to throw
     */
    static OperationFailedException failure(SecurityContext context, ResolvedPath target, IOException cause) {
        context.recheck(target);
        if (cause instanceof NotDirectoryException || cause instanceof NoSuchFileException
                || cause instanceof FileSystemException fs && fs.getReason() != null
                && fs.getReason().contains("Not a directory")) {
            return notADirectory(target);
        }
        return Targets.failure(context, "list", target, cause);
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
