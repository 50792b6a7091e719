package dev.mero.core.ops;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;

import dev.mero.core.guard.Operation;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.attribute.PosixFilePermission;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Replaces a file atomically: the new content goes to a fresh temporary file in the same directory (opened
 * {@code O_CREAT|O_EXCL|O_NOFOLLOW} relative to the directory), which is then renamed over the target
 * ({@code renameat}). A reader sees the old file or the new one, never a half-written one; a link at the
 * target's name is replaced, never followed; a failure removes the temporary file and leaves the target as it
 * was. The old file's POSIX permissions are kept.
 *
 * <p>A writer killed in the middle (SIGKILL, a power cut) cannot remove its temporary file, so each write first
 * removes the temporary files of the same target whose writing process no longer exists: the temporary name
 * carries the writer's process id. Temporary files of live processes, this one included, are left alone. Removing
 * another writer's file is a deletion, so it happens only where the context may delete without asking
 * ({@link #mayRemoveStale}); elsewhere a write removes nothing but its own temporary file.
 */
final class AtomicWrite {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final long PID = ProcessHandle.current().pid();
    /** How many names of a directory the search for stale temporary files reads at most. */
    private static final int MAX_SCANNED_NAMES = 10_000;
    private static final int RANDOM_HEX_DIGITS = 16;

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
     * @param removeStale whether the stale temporary files of ended writers may be deleted ({@link #mayRemoveStale})
     * @throws IOException if the content cannot be written or renamed into place
     */
    static void replace(SecureDirectory directory, String name, byte[] bytes, boolean removeStale) throws IOException {
        replace(directory, name, removeStale, out -> {
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
     * @param removeStale whether the stale temporary files of ended writers may be deleted ({@link #mayRemoveStale})
     * @param content   writes the new content
     * @throws IOException if the content cannot be written or renamed into place
     */
    static void replace(SecureDirectory directory, String name, boolean removeStale, Content content)
            throws IOException {
        Optional<Set<PosixFilePermission>> permissions = directory.posixPermissions(name);
        if (removeStale) {
            removeStaleTemporaries(directory, name);
        }
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

    /**
     * Tells whether a write may delete the stale temporary files next to its target: the context grants DELETE
     * there, its scopes cover deleting, and no approval is required for DELETE (a write never asks for it).
     *
     * @param context the context that guarded the write
     * @param target  the written target
     * @return {@code true} where such a deletion needs nothing the write was not given
     */
    static boolean mayRemoveStale(SecurityContext context, ResolvedPath target) {
        if (!target.effectivePermissions().contains(Permission.DELETE)
                || target.approvalRequired().contains(Permission.DELETE)
                || context.approvalRequired().contains(Permission.DELETE)) {
            return false;
        }
        return context.scopes().permits(Operation.FILE_DELETE.scope());
    }

    /** A hidden name next to the target, unique, naming this process, and at most 255 bytes long. */
    static String temporaryName(String name) {
        byte[] random = new byte[RANDOM_HEX_DIGITS / 2];
        RANDOM.nextBytes(random);
        return temporaryPrefix(name) + PID + "-" + HexFormat.of().formatHex(random) + ".tmp";
    }

    private static String temporaryPrefix(String name) {
        return "." + (name.length() > 100 ? "file" : name) + ".mero-";
    }

    /** Deletes the temporary files of {@code name} that a writer which no longer runs left behind. */
    private static void removeStaleTemporaries(SecureDirectory directory, String name) {
        String prefix = temporaryPrefix(name);
        List<String> stale = new ArrayList<>();
        int[] scanned = {0};
        try (SecureDirectory listing = directory.child(".")) {
            listing.scan(entry -> {
                if (entry.startsWith(prefix) && ownerIsGone(entry.substring(prefix.length()))) {
                    stale.add(entry);
                }
                return ++scanned[0] < MAX_SCANNED_NAMES;
            });
        } catch (IOException unreadable) {
            return; // the write itself reports what is wrong with the directory
        }
        for (String entry : stale) {
            try {
                directory.deleteFile(entry);
            } catch (IOException alreadyGone) {
                // removed by another writer meanwhile
            }
        }
    }

    /** Whether {@code rest} is {@code <pid>-<16 hex digits>.tmp} of a process other than this one that has ended. */
    static boolean ownerIsGone(String rest) {
        int dash = rest.indexOf('-');
        if (dash < 1 || !rest.endsWith(".tmp") || rest.length() != dash + 1 + RANDOM_HEX_DIGITS + ".tmp".length()) {
            return false;
        }
        long pid;
        try {
            pid = Long.parseLong(rest.substring(0, dash));
            HexFormat.fromHexDigitsToLong(rest, dash + 1, dash + 1 + RANDOM_HEX_DIGITS);
        } catch (IllegalArgumentException | IndexOutOfBoundsException malformed) {
            return false;
        }
        return pid > 0 && pid != PID && ProcessHandle.of(pid).isEmpty();
    }
}
