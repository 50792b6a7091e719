package dev.mero.core.ops;

import java.io.IOException;

/**
 * The regular files of one open directory, opened for {@code search_text} by the kernel's confined calls
 * ({@link ConfinedCalls#listedFiles}): each listed name with one {@code openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS)} relative to a descriptor of that very directory, non-blocking and without following a link,
 * its type read from the open descriptor, read with {@code pread} and closed, without a channel, a cleaner or an
 * opener thread per file: an open that cannot block needs no bound.
 *
 * <p>Only a shortcut to a success, as {@link ConfinedCalls}: {@link #open} answers {@code false} for anything else
 * (a pipe or device swapped in, a link, an error, a name the kernel cannot be given), and the caller takes the JDK's
 * path, which decides as it always has. One file is open at a time; used by one thread, which closes it.
 */
interface ListedFiles extends AutoCloseable {

    /**
     * Opens a listed file, closing the one open before.
     *
     * @param name a single name in the directory
     * @return whether it is open and a regular file; {@code false} when this layer does not decide
     */
    boolean open(String name);

    /**
     * The open file's size, read from its descriptor when it was opened.
     *
     * @return the size in bytes
     */
    long size();

    /**
     * Reads from the open file, from where the last read ended.
     *
     * @param into   the buffer
     * @param offset where to put the first byte
     * @param length how many bytes at most, at least 1
     * @return how many were read, or {@code -1} at the file's end
     * @throws IOException if the read fails
     */
    int read(byte[] into, int offset, int length) throws IOException;

    /** Closes the open file, if any; the directory stays open. */
    void closeFile();

    /** Closes the open file and the directory. */
    @Override
    void close();
}
