package dev.mero.core.ops;

import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.util.Iterator;
import java.util.Set;

/**
 * The weaker mode's directory ({@link WeakerPathOpens}): the {@link SecureDirectoryStream} operations done by
 * path, each entry's last name never followed ({@link LinkOption#NOFOLLOW_LINKS}, checked to be no link before a
 * directory is opened). Every other name of the path is resolved again by the kernel at each call, so a directory
 * on the way swapped for a link between the checks and the call leads where the link points: the race the
 * weaker mode accepts, documented in {@code docs/paths-and-permissions.md}.
 */
final class PathDirectoryStream implements SecureDirectoryStream<Path> {

    private final Path directory;
    private final DirectoryStream<Path> listing;

    private PathDirectoryStream(Path directory, DirectoryStream<Path> listing) {
        this.directory = directory;
        this.listing = listing;
    }

    /**
     * Opens a directory by its path.
     *
     * @param directory an absolute path
     * @return the open directory
     * @throws IOException if it is not a directory or cannot be read
     */
    static PathDirectoryStream open(Path directory) throws IOException {
        return new PathDirectoryStream(directory, Files.newDirectoryStream(directory));
    }

    @Override
    public SecureDirectoryStream<Path> newDirectoryStream(Path path, LinkOption... options) throws IOException {
        Path child = directory.resolve(path);
        if (!Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
            // a link, even to a directory, is never opened as one
            throw new NotDirectoryException(child.toString());
        }
        return open(child);
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options,
                                              FileAttribute<?>... attrs) throws IOException {
        return Files.newByteChannel(directory.resolve(path), options, attrs);
    }

    @Override
    public void deleteFile(Path path) throws IOException {
        Path file = directory.resolve(path);
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileSystemException(file.toString(), null, "Is a directory");
        }
        Files.delete(file);
    }

    @Override
    public void deleteDirectory(Path path) throws IOException {
        Path child = directory.resolve(path);
        if (!Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)) {
            throw new NotDirectoryException(child.toString());
        }
        Files.delete(child);
    }

    @Override
    public void move(Path srcpath, SecureDirectoryStream<Path> targetdir, Path targetpath) throws IOException {
        if (!(targetdir instanceof PathDirectoryStream target)) {
            throw new ProviderMismatchException();
        }
        // a rename: replaces what is at the target, a link there included, and never follows one
        Files.move(directory.resolve(srcpath), target.directory.resolve(targetpath), StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Class<V> type) {
        return Files.getFileAttributeView(directory, type, LinkOption.NOFOLLOW_LINKS);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        return Files.getFileAttributeView(directory.resolve(path), type, options);
    }

    @Override
    public Iterator<Path> iterator() {
        return listing.iterator();
    }

    @Override
    public void close() throws IOException {
        listing.close();
    }
}
