package dev.mero.core.ops;

import dev.mero.core.PathEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Mount-root directories kept open, so that a target is opened by walking from its mount's directory handle
 * instead of from the file-system root on every call. A handle is opened once by the no-follow walk from the
 * root and kept only if the kernel says it is the mounted directory itself (the entry's file key, read from the
 * open handle): every later open below it is bound to that directory, whatever is renamed meanwhile.
 *
 * <p>At most {@link #MAX_OPEN} handles are open at once, the least recently used closed first; a handle is
 * closed only when no open call is using it. Shared by every context and thread; the handles are only ever
 * used as the directory of {@code openat}-style calls, which the platform serialises against their close.
 */
final class MountRoots {

    /** The most mount-root handles kept open at once, so that many mounts never exhaust file descriptors. */
    static final int MAX_OPEN = 64;

    private static final Map<Path, Handle> OPEN = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, Handle> eldest) {
            if (size() <= MAX_OPEN) {
                return false;
            }
            eldest.getValue().evict();
            return true;
        }
    };

    /** Set once a file system without file keys is seen: then no handle is kept and none is opened to try. */
    private static volatile boolean noFileKeys;

    private MountRoots() {
    }

    /**
     * Borrows the open handle of an entry's directory; the caller must {@link Handle#release()} it.
     *
     * @param entry the mount
     * @return the handle, or {@code null} where the file system has no file keys to bind a handle to
     * @throws IOException if the entry's path no longer leads, without links, to the mounted directory
     */
    static Handle borrow(PathEntry entry) throws IOException {
        if (noFileKeys) {
            return null;
        }
        Path root = entry.realPath();
        synchronized (OPEN) {
            Handle open = reuse(root, entry);
            if (open != null) {
                return open;
            }
        }
        SecureDirectory walked = SecureDirectory.open(root);
        if (!DirectoryAccess.keepable(walked.stream())) {
            // opened by path for one operation that opted in: never kept for others
            walked.close();
            return null;
        }
        BasicFileAttributes attributes;
        try {
            attributes = walked.stream().getFileAttributeView(BasicFileAttributeView.class).readAttributes();
        } catch (IOException | RuntimeException e) {
            walked.close();
            throw e;
        }
        if (attributes.fileKey() == null) {
            // no file keys on this platform: nothing to bind a kept handle to, now or later
            noFileKeys = true;
            walked.close();
            return null;
        }
        if (!entry.isMountedDirectory(attributes)) {
            walked.close();
            throw new IOException("the mount root is no longer the mounted directory");
        }
        synchronized (OPEN) {
            Handle open = reuse(root, entry);
            if (open != null) {
                walked.close();
                return open;
            }
            if (OPEN.containsKey(root)) {
                // a directory that replaced an older mount at the same path: the older handle goes
                OPEN.remove(root).evict();
            }
            Handle handle = new Handle(walked.stream(), attributes);
            handle.users = 1;
            OPEN.put(root, handle);
            return handle;
        }
    }

    /** The kept handle of the entry's very directory, borrowed; {@code null} if none. Called holding the lock. */
    private static Handle reuse(Path root, PathEntry entry) {
        Handle open = OPEN.get(root);
        if (open == null || !entry.isMountedDirectory(open.attributes)) {
            return null;
        }
        open.users++;
        return open;
    }

    /** How many handles are open now, for tests of the bound. */
    static int openCount() {
        synchronized (OPEN) {
            return OPEN.size();
        }
    }

    /** An open mount-root directory and how many calls are using it. */
    static final class Handle {
        private final SecureDirectoryStream<Path> stream;
        /** The directory's attributes, read from the handle when it was opened. */
        private final BasicFileAttributes attributes;
        private int users;
        private boolean evicted;

        private Handle(SecureDirectoryStream<Path> stream, BasicFileAttributes attributes) {
            this.stream = stream;
            this.attributes = attributes;
        }

        /** The open directory; valid until {@link #release()}. */
        SecureDirectoryStream<Path> stream() {
            return stream;
        }

        /** Ends one borrow; the last one after an eviction closes the handle. */
        void release() {
            synchronized (OPEN) {
                users--;
                if (evicted && users == 0) {
                    closeQuietly();
                }
            }
        }

        private void evict() {
            evicted = true;
            if (users == 0) {
                closeQuietly();
            }
        }

        private void closeQuietly() {
            try {
                stream.close();
            } catch (IOException e) {
                // a directory handle that cannot be closed holds nothing else
            }
        }
    }
}
