package dev.mero.core.ops;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.attribute.PosixFilePermission;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/**
 * Replaces a file atomically: the new content goes to a fresh temporary file in the same directory (opened
 * {@code O_CREAT|O_EXCL|O_NOFOLLOW} relative to the directory), which is then renamed over the target
 * ({@code renameat}). A reader sees the old file or the new one, never a half-written one; a link at the
 * target's name is replaced, never followed; a failure removes the temporary file and leaves the target as it
 * was. The old file's POSIX permissions are kept.
 */
final class AtomicWrite {

    private static final SecureRandom RANDOM = new SecureRandom();

    private AtomicWrite() {
    }

    /** Writes new content into an open channel. */
    @FunctionalInterface
    interface Content {

        /**
         * Writes the content.
         *
         * @param out the temporary file
         * @throws IOException if it cannot be written
         */
        void writeTo(SeekableByteChannel out) throws IOException;
    }

    /**
     * Writes bytes into a file, replacing it.
     *
     * @param directory the open directory that holds the file
     * @param name      the file's name in it
     * @param bytes     the new content
     * @throws IOException if the content cannot be written or renamed into place
     */
    static void replace(SecureDirectory directory, String name, byte[] bytes) throws IOException {
        replace(directory, name, out -> {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        });
    }

    /**
     * Writes content into a file, replacing it.
     *
     * @param directory the open directory that holds the file
     * @param name      the file's name in it
     * @param content   writes the new content
     * @throws IOException if the content cannot be written or renamed into place
     */
    static void replace(SecureDirectory directory, String name, Content content) throws IOException {
        Optional<Set<PosixFilePermission>> permissions = directory.posixPermissions(name);
        String temporary = temporaryName(name);
        boolean renamed = false;
        try {
            try (SeekableByteChannel out = directory.newByteChannel(temporary, CREATE_NEW, WRITE)) {
                content.writeTo(out);
                if (out instanceof FileChannel file) {
                    file.force(true);
                }
            }
            if (permissions.isPresent()) {
                directory.setPosixPermissions(temporary, permissions.get());
            }
            directory.move(temporary, directory, name);
            renamed = true;
        } finally {
            if (!renamed) {
                try {
                    directory.deleteFile(temporary);
                } catch (IOException ignored) {
                    // never created, or already gone
                }
            }
        }
    }

    /** A hidden name next to the target, unique and at most 255 bytes long. */
    private static String temporaryName(String name) {
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        String base = name.length() > 100 ? "file" : name;
        return "." + base + ".mero-" + HexFormat.of().formatHex(random) + ".tmp";
    }
}
