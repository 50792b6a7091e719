package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Creates missing directories inside a mount one level at a time. Each missing level is guarded on its own
 * ({@link Operation#DIRECTORY_CREATE}: scope, WRITE there, approval, audit); its parent is opened without
 * following links right before the {@code mkdir}, and the new directory is opened the same way right after
 * and re-checked, so that nothing is created through a link or outside the mount.
 */
final class Directories {

    private Directories() {
    }

    /**
     * Makes sure a directory exists, creating it and its missing ancestors below the mount root.
     *
     * @param context   the context that decides every level
     * @param directory the real directory that must exist, inside {@code within}'s mount
     * @param within    a target guarded by the caller whose entry holds the directory; if it is the directory
     *                  itself it must have been guarded for {@link Operation#DIRECTORY_CREATE}
     * @return how many directories were created
     * @throws dev.mero.core.MeroToolsException if a level is refused, a file is in the way, or a level moved
     */
    static int ensure(SecurityContext context, Path directory, ResolvedPath within) {
        Path root = within.entry().realPath();
        if (!directory.startsWith(root)) {
            throw new PathAccessDeniedException("Path " + Messages.quote(within.virtualPath()) + " lies outside its "
                    + "mount; nothing was created.");
        }
        // every missing level is guarded (and approved) before the first one is created, so that a refusal of
        // a deeper level leaves nothing behind
        List<ResolvedPath> missing = new ArrayList<>();
        String virtual = within.entry().mountPoint();
        Path real = root;
        for (Path name : root.relativize(directory)) {
            if (name.toString().isEmpty()) {
                continue;
            }
            virtual = virtual + "/" + name;
            real = real.resolve(name);
            if (!missing.isEmpty() || !existingDirectory(virtual, real)) {
                // create_directory guarded its own target already; every other level is guarded here
                ResolvedPath level = real.equals(within.realPath()) ? context.recheck(within)
                        : context.guard(Operation.DIRECTORY_CREATE, virtual);
                if (!level.realPath().equals(real)) {
                    throw changed(virtual);
                }
                missing.add(level);
            }
        }
        int created = 0;
        for (ResolvedPath level : missing) {
            if (createLevel(context, level)) {
                created++;
            }
        }
        return created;
    }

    /** Creates one guarded level if it is still missing; returns whether it did. */
    // "try": opening the directories without following links is the check; their handles need no other use
    @SuppressWarnings("try")
    private static boolean createLevel(SecurityContext context, ResolvedPath level) {
        String virtual = level.virtualPath();
        Path real = level.realPath();
        if (existingDirectory(virtual, real)) {
            return false;
        }
        try (SecureDirectory parent = SecureDirectory.open(real.getParent())) {
            context.recheck(level);
            Files.createDirectory(real);
        } catch (FileAlreadyExistsException e) {
            if (existingDirectory(virtual, real)) {
                return false;
            }
            throw inTheWay(virtual);
        } catch (IOException e) {
            throw Targets.failure(context, "create the directory", level, e);
        }
        try (SecureDirectory created = SecureDirectory.open(real)) {
            context.recheck(level);
            return true;
        } catch (IOException | RuntimeException e) {
            // a name on the way was swapped while the directory was made: take the empty directory back
            try {
                Files.deleteIfExists(real);
            } catch (IOException ignored) {
                // the re-check below explains the refusal
            }
            context.recheck(level);
            throw changed(virtual);
        }
    }

    private static boolean existingDirectory(String virtual, Path real) {
        try (SecureDirectory parent = SecureDirectory.open(real.getParent())) {
            Optional<BasicFileAttributes> attributes = parent.attributes(real.getFileName().toString());
            if (attributes.isEmpty()) {
                return false;
            }
            if (attributes.get().isDirectory()) {
                return true;
            }
            throw inTheWay(virtual);
        } catch (IOException e) {
            throw new OperationFailedException("Could not create " + Messages.quote(virtual) + ": "
                    + Messages.ioReason(e) + ".", e);
        }
    }

    private static OperationFailedException inTheWay(String virtual) {
        return new OperationFailedException(Messages.quote(virtual) + " exists and is not a directory, so nothing "
                + "can be created below it.");
    }

    private static PathAccessDeniedException changed(String virtual) {
        return new PathAccessDeniedException("Path " + Messages.quote(virtual) + " changed while it was being "
                + "created; nothing was created there. Check the path and try again.");
    }
}
