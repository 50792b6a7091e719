package dev.mero.core.ops;

/**
 * A file's identity as the portable directory layer reads it, device and inode ({@link DescriptorAttributes}).
 * The layer's attributes stand where the JDK's would, and a mount's identity was taken by the JDK
 * ({@link dev.mero.core.PathEntry#isMountedDirectory}), so this key also equals the JDK's Unix file key of the same
 * device and inode: that key is not accessible, but it names both numbers in a fixed form, which this key writes the
 * same way. Whether it still does is checked when the layer is bound ({@link PosixSelfCheck}), so a JDK that
 * changes the form only makes the layer unavailable. The JDK's key does not know this one, so it is compared
 * with this key first.
 *
 * @param dev {@code st_dev}
 * @param ino {@code st_ino}
 */
record DescriptorFileKey(long dev, long ino) {

    private static final String JDK_KEY = "sun.nio.fs.UnixFileKey";

    @Override
    public boolean equals(Object other) {
        if (other instanceof DescriptorFileKey key) {
            return dev == key.dev && ino == key.ino;
        }
        return other != null && JDK_KEY.equals(other.getClass().getName()) && toString().equals(other.toString());
    }

    /** As the JDK's key hashes, so both can be looked up in a map alike. */
    @Override
    public int hashCode() {
        return (int) (dev ^ (dev >>> 32)) + (int) (ino ^ (ino >>> 32));
    }

    /** The JDK key's form. */
    @Override
    public String toString() {
        return "(dev=" + Long.toHexString(dev) + ",ino=" + ino + ")";
    }
}
