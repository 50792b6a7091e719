package dev.mero.core.path;

import dev.mero.core.SecurityContext;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Opens a checked target without following any symbolic link on the way, closing the window between a
 * check and the {@code open} call in which a directory of the path could be swapped for a link.
 *
 * <p>A {@link ResolvedPath#realPath()} is canonical: when it was checked, none of its names was a link. So it
 * is opened by walking from the file-system root one name at a time, each directory opened relative to the
 * previous one with {@link LinkOption#NOFOLLOW_LINKS} ({@code openat(..., O_NOFOLLOW)} through
 * {@link SecureDirectoryStream}), and the file itself opened relative to its directory, again without
 * following a link. A name swapped for a link since the check makes the open fail
 * ({@link java.nio.file.FileSystemException}) instead of leading elsewhere; the caller then re-checks the
 * target to report why. Where the platform offers no {@link SecureDirectoryStream}, the file is opened by its
 * path with {@link LinkOption#NOFOLLOW_LINKS}, which protects the last name only.
 *
 * <p>Every name is typed with {@code fstatat} before it is opened: a name on the way that is not a directory, or a
 * file that is a pipe, device or socket, is refused without being opened, so a FIFO planted there cannot block the
 * caller. (The tool operations also bound the wait for an entry swapped for a FIFO between that check and the
 * open; this entry point, used by the caller's own code, does not start threads.)
 */
public final class SecureFiles {

    private SecureFiles() {
    }

    /**
     * Opens a checked target's file without following links anywhere in its path.
     *
     * @param target  a target checked by a {@link SecurityContext}
     * @param options open options, e.g. {@code READ} or {@code CREATE, TRUNCATE_EXISTING, WRITE};
     *                {@link LinkOption#NOFOLLOW_LINKS} is always added
     * @return the open channel
     * @throws IOException if a name of the path is no longer a plain directory, the file is a link, or the
     *                     file cannot be opened
     */
    public static SeekableByteChannel newByteChannel(ResolvedPath target, OpenOption... options) throws IOException {
        Path real = Objects.requireNonNull(target, "target").realPath();
        Set<OpenOption> noFollow = new HashSet<>(Set.of(Objects.requireNonNull(options, "options")));
        noFollow.add(LinkOption.NOFOLLOW_LINKS);
        Path parent = real.getParent();
        if (parent == null) {
            throw new IOException("the file-system root is not a file");
        }
        try (DirectoryStream<Path> root = Files.newDirectoryStream(real.getRoot())) {
            if (!(root instanceof SecureDirectoryStream<Path> secureRoot)) {
                return Files.newByteChannel(real, noFollow);
            }
            SecureDirectoryStream<Path> directory = secureRoot;
            try {
                for (Path name : parent) {
                    if (!type(directory, name).isDirectory()) {
                        throw new NotDirectoryException(name.toString());
                    }
                    SecureDirectoryStream<Path> next = directory.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS);
                    if (directory != secureRoot) {
                        directory.close();
                    }
                    directory = next;
                }
                BasicFileAttributes file = typeIfPresent(directory, real.getFileName());
                if (file != null && file.isOther()) {
                    // a pipe, device or socket is never opened: the open of a FIFO blocks until a writer appears
                    throw new FileSystemException(null, null, "it is a pipe, device or socket, not a regular file");
                }
                return directory.newByteChannel(real.getFileName(), noFollow);
            } finally {
                if (directory != secureRoot) {
                    directory.close();
                }
            }
        }
    }

    /** An entry's type, read without following a link and without opening it. */
    private static BasicFileAttributes type(SecureDirectoryStream<Path> directory, Path name) throws IOException {
        return directory.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
                .readAttributes();
    }

    private static BasicFileAttributes typeIfPresent(SecureDirectoryStream<Path> directory, Path name)
            throws IOException {
        try {
            return type(directory, name);
        } catch (NoSuchFileException e) {
            return null;
        }
    }
}
