package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.OperationFailedException;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * What the operations share about a checked target: opening its directory without following links, naming
 * its type, and turning an I/O failure into a message for the model.
 */
final class Targets {

    private Targets() {
    }

    /**
     * Opens the directory that holds a target, without following a link anywhere.
     *
     * @param target a checked target below its mount root
     * @return the open parent directory
     * @throws IOException if a name on the way is no longer a plain directory
     */
    static SecureDirectory openParent(ResolvedPath target) throws IOException {
        return SecureDirectory.open(target.entry(), target.realPath().getParent());
    }

    /**
     * Opens a target that is a regular file for reading with one open the kernel confines below its mount
     * ({@link ConfinedCalls}), where this JVM and kernel offer it.
     *
     * @param target a checked target below its mount root
     * @return the open file, or {@code null}: then open it through {@link #openParent} as always, whose checks
     *         decide and explain anything but a plain success
     */
    static SeekableByteChannel openConfined(ResolvedPath target) {
        Path file = target.realPath();
        if (target.isMountRoot() || !file.startsWith(target.entry().realPath())) {
            return null;
        }
        return ConfinedCalls.current().openRegularFile(target.entry(), file);
    }

    /**
     * Opens a target that is a directory, without following a link anywhere.
     *
     * @param target a checked target
     * @return the open directory
     * @throws IOException if it or a name on the way is not a plain directory
     */
    static SecureDirectory openDirectory(ResolvedPath target) throws IOException {
        return SecureDirectory.open(target.entry(), target.realPath());
    }

    /**
     * The target's own name in its directory.
     *
     * @param target a checked target
     * @return the last name of its real path
     */
    static String name(ResolvedPath target) {
        return target.realPath().getFileName().toString();
    }

    /**
     * The virtual path of a name below a checked directory.
     *
     * @param directory the directory's virtual path
     * @param relative  a relative path below it, with {@code '/'} separators
     * @return the virtual path
     */
    static String child(String directory, String relative) {
        return relative.isEmpty() ? directory : directory + "/" + relative;
    }

    /**
     * Names a file type for a message.
     *
     * @param attributes the attributes read without following a link
     * @return e.g. {@code "a directory"} or {@code "a device, pipe or socket"}
     */
    static String kind(BasicFileAttributes attributes) {
        if (attributes.isRegularFile()) {
            return "a file";
        }
        if (attributes.isDirectory()) {
            return "a directory";
        }
        if (attributes.isSymbolicLink()) {
            return "a symbolic link";
        }
        return "a device, pipe or socket";
    }

    /**
     * The failure for a target that is not a regular file.
     *
     * @param target     the target
     * @param attributes its attributes
     * @param tool       the tool that needs a file
     * @return the failure, pointing to the right tool
     */
    static OperationFailedException notAFile(ResolvedPath target, BasicFileAttributes attributes, String tool) {
        String hint = attributes.isDirectory() ? " Use list_directory to see its entries." : "";
        return new OperationFailedException(Messages.quote(target.virtualPath()) + " is " + kind(attributes)
                + ", not a regular file; " + tool + " works on regular files only." + hint);
    }

    /**
     * The failure for a target that does not exist.
     *
     * @param target the target
     * @return the failure
     */
    static OperationFailedException missing(ResolvedPath target) {
        return new OperationFailedException(Messages.quote(target.virtualPath())
                + " is not a file or does not exist.");
    }

    /**
     * An I/O failure as the model should read it. A target that moved while it was used is reported as the
     * denial the re-check raises, not as an I/O error; the host path never reaches the model.
     *
     * @param context the context that checked the target
     * @param action  what was tried, e.g. {@code "read"}
     * @param target  the target
     * @param cause   the failure
     * @return the failure to throw
     */
    static OperationFailedException failure(SecurityContext context, String action, ResolvedPath target,
                                            IOException cause) {
        context.recheck(target);
        return new OperationFailedException("Could not " + action + " " + Messages.quote(target.virtualPath())
                + ": " + Messages.ioReason(cause) + ".", cause);
    }

    /**
     * The last name of a relative path.
     *
     * @param relative a relative path with {@code '/'} separators
     * @return its last name
     */
    static String lastName(String relative) {
        return relative.substring(relative.lastIndexOf('/') + 1);
    }

    /**
     * The real path of a relative name below a directory, for containment checks.
     *
     * @param directory the directory's real path
     * @param relative  a relative path with {@code '/'} separators
     * @return the joined path
     */
    static Path below(Path directory, String relative) {
        return relative.isEmpty() ? directory : directory.resolve(relative);
    }
}
