package dev.mero.tools;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Says why an I/O operation failed in words a model can act on. Java's I/O exceptions carry the host path
 * in their message, which a tool must not show, so only the exception's kind and the operating system's
 * reason are used.
 */
final class IoFailures {

    private IoFailures() {
    }

    /**
     * The reason an operation failed, without any path.
     *
     * @param failure the I/O failure
     * @return a short lower-case reason, for example {@code "it does not exist"}
     */
    static String reason(IOException failure) {
        if (failure instanceof NoSuchFileException) {
            return "it does not exist";
        }
        if (failure instanceof AccessDeniedException) {
            return "the operating system refused access";
        }
        if (failure instanceof FileAlreadyExistsException) {
            return "a file is in the way where a directory is needed";
        }
        if (failure instanceof NotDirectoryException) {
            return "a part of the path is not a directory";
        }
        if (failure instanceof FileSystemException fs && fs.getReason() != null && !fs.getReason().isBlank()) {
            // the reason is the operating system's text (strerror), for example "No space left on device"
            return fs.getReason();
        }
        return "an input/output error occurred";
    }
}
