package dev.mero.core.ops;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How many subdirectories a directory holds, from its link count, as GNU {@code find} skips the {@code stat} of
 * the rest ("leaf optimisation"): on the file systems named in {@link #COUNTING}, a directory's {@code st_nlink} is 2
 * plus its number of subdirectories, so once a walk has met that many, every other entry is not a directory and
 * need not be read to be passed over. Java 17 lists names without types, so this spares a walk the {@code fstatat}
 * of nearly every entry.
 *
 * <p>Only ever a hint towards reading less: a count that is wrong (the directory changed since, a path swapped
 * under the walk) can only make the walk miss a subdirectory, never enter anything it has not read to be a
 * directory, nor follow a link. Where the count is unknown (a file system that reports 1, as btrfs does, or one not
 * known to count, or a directory on another device than the walk's start) the walk reads every entry, as before.
 */
final class SubdirectoryCount {

    /** File systems whose directories' link counts count their subdirectories. */
    static final Set<String> COUNTING = Set.of("ext2", "ext3", "ext4", "xfs", "tmpfs");

    /** The unknown count: read every entry. */
    static final int UNKNOWN = -1;

    /** Whether a device's file system counts, by device number; small, as few devices are walked. */
    private static final Map<Long, Boolean> COUNTS_BY_DEVICE = new ConcurrentHashMap<>();

    /** Set by tests to treat every file system as one that does not count. */
    static volatile boolean disabled;

    private final long device;

    private SubdirectoryCount(long device) {
        this.device = device;
    }

    /**
     * Prepares the counts of a walk.
     *
     * @param start the real path the walk starts at
     * @return the counts, or {@code null} where its file system does not count subdirectories
     */
    static SubdirectoryCount of(Path start) {
        if (disabled) {
            return null;
        }
        Map<String, Object> read = read(start);
        if (read == null || !(read.get("dev") instanceof Long device)) {
            return null;
        }
        Boolean counts = COUNTS_BY_DEVICE.get(device);
        if (counts == null) {
            counts = counts(start);
            if (COUNTS_BY_DEVICE.size() > 64) {
                COUNTS_BY_DEVICE.clear();
            }
            COUNTS_BY_DEVICE.put(device, counts);
        }
        return counts ? new SubdirectoryCount(device) : null;
    }

    /**
     * The number of subdirectories in a directory of the walk, read by its path (a hint, see above).
     *
     * @param directory the directory's real path
     * @return the count, or {@link #UNKNOWN}
     */
    int subdirectories(Path directory) {
        Map<String, Object> read = read(directory);
        if (read == null || !(read.get("nlink") instanceof Integer links) || !Long.valueOf(device).equals(read.get("dev"))
                || links < 2) {
            return UNKNOWN;
        }
        return links - 2;
    }

    private static Map<String, Object> read(Path directory) {
        try {
            return Files.readAttributes(directory, "unix:nlink,dev", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static boolean counts(Path start) {
        try {
            FileStore store = Files.getFileStore(start);
            return COUNTING.contains(store.type());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
