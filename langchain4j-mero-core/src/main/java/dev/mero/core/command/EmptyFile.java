package dev.mero.core.command;

import dev.mero.core.OperationFailedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * An empty, read-only regular file in a private directory of this process, mounted read-only over protected files
 * inside the command sandbox ({@link ProtectedMasks}). Created on first use and again whenever it is no longer an
 * empty regular file (a temporary-file cleaner removed it, say); only this process's user can change it, and no
 * sandbox shows its directory.
 */
final class EmptyFile {

    private static Path file;

    private EmptyFile() {
    }

    /**
     * The empty file, created if needed.
     *
     * @return its path
     * @throws OperationFailedException if it cannot be created
     */
    static synchronized Path path() {
        if (file == null || !isEmptyFile(file)) {
            file = create();
        }
        return file;
    }

    private static boolean isEmptyFile(Path path) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            return attributes.isRegularFile() && attributes.size() == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static Path create() {
        try {
            Path directory = Files.createTempDirectory("mero-protected-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Path empty = Files.createFile(directory.resolve("empty"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r--r--r--")));
            directory.toFile().deleteOnExit();
            empty.toFile().deleteOnExit();
            return empty.toRealPath();
        } catch (IOException | UnsupportedOperationException e) {
            throw new OperationFailedException("The command sandbox could not prepare the empty file that hides "
                    + "protected files; nothing ran.", e);
        }
    }
}
