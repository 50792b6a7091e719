package dev.mero.core.ops;

import java.io.IOException;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * The basic and POSIX attribute view of a {@link DescriptorDirectoryStream}'s directory or of one of its entries:
 * attributes read with {@code fstat}/{@code fstatat} on the directory's descriptor, permissions set with
 * {@code fchmod} on a descriptor opened without following a link. Times, owner and group are read, not set (the
 * file tools never set them).
 *
 * @param directory the directory
 * @param name      a single name in it, or {@code null} for the directory itself
 * @param follow    whether a link at {@code name} is followed
 */
record DescriptorAttributeView(DescriptorDirectoryStream directory, String name, boolean follow)
        implements PosixFileAttributeView {

    @Override
    public String name() {
        return "posix";
    }

    @Override
    public PosixFileAttributes readAttributes() throws IOException {
        return directory.attributes(name, follow);
    }

    @Override
    public void setPermissions(Set<PosixFilePermission> permissions) throws IOException {
        directory.setPermissions(name, follow, DescriptorAttributes.modeOf(permissions));
    }

    @Override
    public UserPrincipal getOwner() throws IOException {
        return readAttributes().owner();
    }

    @Override
    public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime) {
        throw new UnsupportedOperationException("the portable directory layer does not set times");
    }

    @Override
    public void setOwner(UserPrincipal owner) {
        throw new UnsupportedOperationException("the portable directory layer does not set owners");
    }

    @Override
    public void setGroup(GroupPrincipal group) {
        throw new UnsupportedOperationException("the portable directory layer does not set groups");
    }
}
