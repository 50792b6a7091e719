package dev.mero.core.ops;

import static java.nio.file.StandardOpenOption.READ;

import dev.mero.core.message.Messages;
import dev.mero.core.OperationFailedException;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Copies a regular file's bytes into a destination atomically, bounded in size, and bound to a digest: the
 * source is digested first (the digest goes into the approval request), and the copy is refused, leaving the
 * destination as it was, if the bytes copied are not the bytes digested.
 */
final class FileCopy {

    private FileCopy() {
    }

    /** The size and SHA-256 of a source file. */
    static final class Digest {
        final long size;
        final String sha256;

        Digest(long size, String sha256) {
            this.size = size;
            this.sha256 = sha256;
        }
    }

    /**
     * Digests a source file, refusing one that is not a regular file or is larger than the limit.
     *
     * @param context  the context that checked the source
     * @param source   the checked source
     * @param maxBytes the largest file copied
     * @param tool     the tool, for messages
     * @return the digest
     */
    static Digest digest(SecurityContext context, ResolvedPath source, long maxBytes, String tool) {
        if (source.isMountRoot()) {
            throw new OperationFailedException(Messages.quote(source.virtualPath()) + " is a directory, not a regular "
                    + "file; " + tool + " copies files only.");
        }
        try (SecureDirectory parent = Targets.openParent(source)) {
            return stream(context, source, parent, maxBytes, tool, null);
        } catch (IOException e) {
            throw Targets.failure(context, "read", source, e);
        }
    }

    /**
     * Copies a source into a prepared destination, atomically.
     *
     * @param context     the context that checked both
     * @param source      the checked source
     * @param destination the prepared destination
     * @param expected    the digest taken before approval
     * @param maxBytes    the largest file copied
     * @param tool        the tool, for messages
     * @throws IOException if reading or writing fails
     */
    static void copy(SecurityContext context, ResolvedPath source, WriteTarget destination, Digest expected,
                     long maxBytes, String tool) throws IOException {
        try (SecureDirectory parent = Targets.openParent(source)) {
            AtomicWrite.replace(destination.parent, destination.name,
                    AtomicWrite.mayRemoveStale(context, destination.target), out -> {
                Digest copied = stream(context, source, parent, maxBytes, tool, out);
                if (!copied.sha256.equals(expected.sha256)) {
                    throw new OperationFailedException(Messages.quote(source.virtualPath()) + " changed while it was "
                            + "being copied; nothing was written. Try again.");
                }
            });
        }
    }

    private static Digest stream(SecurityContext context, ResolvedPath source, SecureDirectory parent, long maxBytes,
                                 String tool, SeekableByteChannel out) throws IOException {
        context.recheck(source);
        String name = Targets.name(source);
        BasicFileAttributes attributes = parent.attributes(name).orElseThrow(() -> Targets.missing(source));
        if (!attributes.isRegularFile()) {
            throw Targets.notAFile(source, attributes, tool);
        }
        MessageDigest digest = sha256();
        long total = 0;
        try (SeekableByteChannel in = parent.newByteChannel(name, READ)) {
            context.recheck(source);
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            while (in.read(buffer) >= 0) {
                buffer.flip();
                total += buffer.remaining();
                if (total > maxBytes) {
                    throw new OperationFailedException(Messages.quote(source.virtualPath()) + " is larger than "
                            + maxBytes + " bytes, more than " + tool + " copies.");
                }
                digest.update(buffer.duplicate());
                if (out != null) {
                    while (buffer.hasRemaining()) {
                        out.write(buffer);
                    }
                }
                buffer.clear();
            }
        }
        return new Digest(total, HexFormat.of().formatHex(digest.digest()));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
