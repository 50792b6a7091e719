package dev.mero.core.ops;

import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * What {@code fstat}/{@code fstatat} told of a file ({@link PosixCalls}), as the JDK's attribute types: the
 * portable directory layer's views return these where the JDK's secure directories return their own.
 *
 * @param mode      {@code st_mode}, type and permission bits
 * @param ino       {@code st_ino}
 * @param dev       {@code st_dev}, widened as the JDK widens it
 * @param size      {@code st_size}
 * @param nlink     {@code st_nlink}
 * @param uid       {@code st_uid}
 * @param gid       {@code st_gid}
 * @param atime     last access
 * @param mtime     last modification
 * @param ctime     last status change
 * @param birthtime creation, or {@code null} where {@code struct stat} has none
 */
record DescriptorAttributes(int mode, long ino, long dev, long size, long nlink, int uid, int gid, FileTime atime,
                            FileTime mtime, FileTime ctime, FileTime birthtime) implements PosixFileAttributes {

    private int type() {
        return mode & PosixCalls.S_IFMT;
    }

    @Override
    public boolean isRegularFile() {
        return type() == PosixCalls.S_IFREG;
    }

    @Override
    public boolean isDirectory() {
        return type() == PosixCalls.S_IFDIR;
    }

    @Override
    public boolean isSymbolicLink() {
        return type() == PosixCalls.S_IFLNK;
    }

    /** A pipe, device or socket, as the JDK calls them. */
    @Override
    public boolean isOther() {
        return !isRegularFile() && !isDirectory() && !isSymbolicLink();
    }

    @Override
    public FileTime lastModifiedTime() {
        return mtime;
    }

    @Override
    public FileTime lastAccessTime() {
        return atime;
    }

    /** The birth time where {@code struct stat} has one, else the last modification, as the JDK falls back. */
    @Override
    public FileTime creationTime() {
        return birthtime != null ? birthtime : mtime;
    }

    @Override
    public DescriptorFileKey fileKey() {
        return new DescriptorFileKey(dev, ino);
    }

    /** The owner by number: the layer reads no user database. */
    @Override
    public UserPrincipal owner() {
        return new NumericPrincipal(Integer.toUnsignedString(uid));
    }

    /** The group by number: the layer reads no group database. */
    @Override
    public GroupPrincipal group() {
        return new NumericPrincipal(Integer.toUnsignedString(gid));
    }

    @Override
    public Set<PosixFilePermission> permissions() {
        StringBuilder text = new StringBuilder(9);
        String letters = "rwxrwxrwx";
        for (int bit = 0; bit < 9; bit++) {
            text.append((mode & (0400 >> bit)) != 0 ? letters.charAt(bit) : '-');
        }
        return PosixFilePermissions.fromString(text.toString());
    }

    /**
     * The bits of a set of permissions, for {@code fchmod}.
     *
     * @param permissions the permissions
     * @return their {@code st_mode} bits
     */
    static int modeOf(Set<PosixFilePermission> permissions) {
        int bits = 0;
        for (PosixFilePermission permission : permissions) {
            bits |= 0400 >> permission.ordinal();
        }
        return bits;
    }

    /**
     * A user or group known by its number.
     *
     * @param name the number, in decimal
     */
    record NumericPrincipal(String name) implements GroupPrincipal {

        @Override
        public String getName() {
            return name;
        }
    }
}
