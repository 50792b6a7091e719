package dev.mero.core.ops;

import static java.nio.file.StandardOpenOption.READ;

import dev.mero.core.OperationFailedException;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import dev.mero.core.message.Messages;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads a whole regular file of bounded size through its open directory: its type is read without following
 * a link first (a device or pipe is never opened), and the open, from the mount's directory handle, does not
 * follow a link: it reaches the checked file or fails.
 */
final class FileContent {

    private FileContent() {
    }

    /**
     * Reads a file completely.
     *
     * @param context  the context that checked the target
     * @param target   a checked target
     * @param maxBytes the largest file accepted
     * @param tool     the tool, for messages
     * @return the bytes
     * @throws OperationFailedException if it is missing, not a regular file or larger than {@code maxBytes}
     */
    static byte[] read(SecurityContext context, ResolvedPath target, int maxBytes, String tool) {
        if (target.isMountRoot()) {
            throw new OperationFailedException(Messages.quote(target.virtualPath()) + " is a directory, not a "
                    + "regular file; " + tool + " works on regular files only.");
        }
        try (SeekableByteChannel confined = Targets.openConfined(target)) {
            if (confined != null) {
                return read(target, confined, maxBytes, tool);
            }
        } catch (IOException e) {
            throw Targets.failure(context, "read", target, e);
        }
        try (SecureDirectory parent = Targets.openParent(target)) {
            return read(target, parent, maxBytes, tool);
        } catch (IOException e) {
            throw Targets.failure(context, "read", target, e);
        }
    }

    /**
     * Reads a file completely through its already open directory.
     *
     * @param target   a checked target
     * @param parent   its open directory
     * @param maxBytes the largest file accepted
     * @param tool     the tool, for messages
     * @return the bytes
     * @throws IOException if it cannot be read
     */
    static byte[] read(ResolvedPath target, SecureDirectory parent, int maxBytes, String tool) throws IOException {
        String name = Targets.name(target);
        BasicFileAttributes attributes = parent.attributes(name).orElseThrow(() -> Targets.missing(target));
        if (!attributes.isRegularFile()) {
            throw Targets.notAFile(target, attributes, tool);
        }
        try (SeekableByteChannel channel = parent.newByteChannel(name, READ)) {
            return read(target, channel, maxBytes, tool);
        }
    }

    /** Reads an open file completely, refusing one larger than {@code maxBytes}. */
    private static byte[] read(ResolvedPath target, SeekableByteChannel channel, int maxBytes, String tool)
            throws IOException {
        InputStream in = Channels.newInputStream(channel);
        byte[] bytes = in.readNBytes(maxBytes + 1);
        if (bytes.length > maxBytes) {
            throw new OperationFailedException(Messages.quote(target.virtualPath()) + " is larger than "
                    + maxBytes + " bytes, more than " + tool + " handles at once.");
        }
        return bytes;
    }
}
