package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;

/**
 * {@code delete_directory(path, recursive?)}: removes an empty directory, or with {@code recursive} everything
 * below it. Before anything is removed, the whole tree is walked without following links and checked: no
 * mount lies inside it, DELETE is granted everywhere, and it fits the entry bound; a refusal removes nothing.
 * Removal goes through open directories ({@code unlinkat}), so a link is removed, never followed. A symbolic
 * link at the path itself is refused and left in place, whatever it points to: the call is ambiguous (the link,
 * or the tree it leads to?), so the refusal names both ways on, {@code delete_file} for the link and the
 * directory's own path for the tree; a link that leads out of the mounts is refused as a denial.
 */
final class DeleteDirectory implements ToolOperation {

    private final SecurityContext context;
    private final OperationLimits limits;

    DeleteDirectory(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    @Override
    public String run(ToolArguments arguments) {
        boolean recursive = arguments.optionalBoolean("recursive").orElse(false);
        return context.run(Operation.FILE_DELETE, arguments.string("path"), LinkOption.NOFOLLOW_LINKS, null, null,
                target -> {
            if (target.isMountRoot()) {
                throw new PathAccessDeniedException("Path " + Messages.quote(target.virtualPath()) + " is a mount; a "
                        + "mount itself cannot be deleted. Delete what is inside it instead.");
            }
            try (SecureDirectory parent = Targets.openParent(target)) {
                context.recheck(target);
                String name = Targets.name(target);
                Optional<BasicFileAttributes> attributes = parent.attributes(name);
                if (attributes.isEmpty()) {
                    return absent(target);
                }
                if (attributes.get().isSymbolicLink()) {
                    throw isALink(target);
                }
                if (!attributes.get().isDirectory()) {
                    throw new OperationFailedException(Messages.quote(target.virtualPath()) + " is not a directory; use "
                            + "delete_file to delete files.");
                }
                if (!recursive) {
                    try {
                        parent.deleteDirectory(name);
                    } catch (DirectoryNotEmptyException e) {
                        throw new OperationFailedException(Messages.quote(target.virtualPath()) + " is not empty; set "
                                + "recursive to true to delete it with everything inside.");
                    }
                    return "Deleted the empty directory " + Messages.quote(target.virtualPath()) + ".";
                }
                int entries = checkTree(target);
                context.recheck(target);
                try (SecureDirectory directory = parent.child(name)) {
                    deleteContents(directory, 1, new int[] {entries * 2 + 16});
                }
                parent.deleteDirectory(name);
                return "Deleted " + Messages.quote(target.virtualPath()) + " and the " + entries
                        + (entries == 1 ? " entry" : " entries") + " inside it.";
            } catch (NoSuchFileException e) {
                context.recheck(target);
                return absent(target);
            } catch (IOException e) {
                throw Targets.failure(context, "delete", target, e);
            }
        });
    }

    /** Walks the whole tree and refuses before anything is removed; returns how many entries it holds. */
    private int checkTree(ResolvedPath target) throws IOException {
        for (PathEntry entry : context.paths()) {
            if (entry.realPath().startsWith(target.realPath())) {
                throw new PathAccessDeniedException("Path " + Messages.quote(target.virtualPath()) + " contains the "
                        + "mount " + Messages.quote(entry.mountPoint()) + ", which cannot be deleted; nothing was "
                        + "deleted.");
            }
        }
        String[] protectedBy = {null};
        TreeWalk.Outcome outcome = TreeWalk.walk(context, target, TreeWalk.MAX_DEPTH, limits.maxScanEntries(),
                Long.MAX_VALUE, Permission.DELETE, new TreeWalk.Visitor() {
                    @Override
                    public boolean visit(String relative, int depth, BasicFileAttributes attributes,
                                         SecureDirectory parent, String name) {
                        return true;
                    }

                    @Override
                    public boolean protectedEntry(String relative, int depth, BasicFileAttributes attributes,
                                                  String pattern) {
                        protectedBy[0] = pattern;
                        return false;
                    }
                });
        if (protectedBy[0] != null) {
            throw new PathAccessDeniedException("Path " + Messages.quote(target.virtualPath()) + " holds a file or "
                    + "directory protected by the pattern " + Messages.quote(protectedBy[0]) + ", which may not be "
                    + "deleted; nothing was deleted. Delete the other entries one by one.");
        }
        if (outcome.deniedDirectories > 0) {
            throw new PathAccessDeniedException("Path " + Messages.quote(target.virtualPath()) + " holds directories "
                    + "where DELETE is not granted; nothing was deleted.");
        }
        if (!outcome.complete() || outcome.notEntered > 0) {
            throw new OperationFailedException(Messages.quote(target.virtualPath()) + " holds more than "
                    + limits.maxScanEntries() + " entries or is nested more than " + TreeWalk.MAX_DEPTH
                    + " levels deep, more than delete_directory removes at once; nothing was deleted. Delete its "
                    + "subdirectories one by one.");
        }
        return outcome.entries;
    }

    /**
     * Removes everything inside an open directory, depth first, without following links.
     *
     * @param directory the open directory
     * @param depth     its depth below the deleted tree's top, 1 for the top
     * @param budget    how many more entries may be removed, counted down
     * @throws IOException if an entry cannot be removed
     */
    static void deleteContents(SecureDirectory directory, int depth, int[] budget) throws IOException {
        if (depth > TreeWalk.MAX_DEPTH) {
            throw new OperationFailedException("The directory grew deeper while it was being deleted; stopped.");
        }
        for (String name : directory.names(budget[0])) {
            if (--budget[0] < 0) {
                throw new OperationFailedException("The directory grew while it was being deleted; stopped.");
            }
            Optional<BasicFileAttributes> attributes = directory.attributes(name);
            if (attributes.isEmpty()) {
                continue;
            }
            if (attributes.get().isDirectory()) {
                try (SecureDirectory child = directory.child(name)) {
                    deleteContents(child, depth + 1, budget);
                }
                directory.deleteDirectory(name);
            } else {
                directory.deleteFile(name);
            }
        }
    }

    private OperationFailedException isALink(ResolvedPath target) {
        String where = target.linkTarget().filter(Files::isDirectory).flatMap(context::virtualPathOf)
                .map(path -> ", or delete_directory on " + Messages.quote(path) + " to delete what it points to")
                .orElse("");
        return new OperationFailedException(Messages.quote(target.virtualPath()) + " is a symbolic link, not a "
                + "directory; delete_directory never deletes through a link, and nothing was deleted. Use delete_file "
                + "to remove the link itself" + where + ".");
    }

    private static String absent(ResolvedPath target) {
        return Messages.quote(target.virtualPath()) + " does not exist (already absent); nothing was deleted.";
    }
}
