package dev.mero.core.ops;

import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

/**
 * The attributes of a listed entry that a walk knows is not a directory without having read it
 * ({@link SubdirectoryCount}): {@code isDirectory()} answers {@code false} at once, and only another question reads
 * the entry's own attributes ({@code fstatat} through its open directory, never following a link), once. So a walk
 * whose visitor needs types only ({@link TreeWalk.Visitor#typesSuffice()}), e.g. {@code find_files}, reads the
 * attributes of the entries it shows, not of every entry. Valid while the visitor is called with it, the directory
 * being open; an entry gone by then reads as neither a file nor a link.
 */
final class NotADirectory implements BasicFileAttributes {

    private final SecureDirectory directory;
    private final String name;
    private BasicFileAttributes read;

    NotADirectory(SecureDirectory directory, String name) {
        this.directory = directory;
        this.name = name;
    }

    private BasicFileAttributes read() {
        if (read == null) {
            try {
                read = directory.attributes(name).orElseGet(this::gone);
            } catch (IOException e) {
                read = gone();
            }
        }
        return read;
    }

    private BasicFileAttributes gone() {
        return new TypedName(name, TypedName.Type.OTHER).attributes();
    }

    @Override
    public boolean isDirectory() {
        return false;
    }

    @Override
    public boolean isRegularFile() {
        return read().isRegularFile();
    }

    @Override
    public boolean isSymbolicLink() {
        return read().isSymbolicLink();
    }

    @Override
    public boolean isOther() {
        return read().isOther() || read().isDirectory();
    }

    @Override
    public FileTime lastModifiedTime() {
        return read().lastModifiedTime();
    }

    @Override
    public FileTime lastAccessTime() {
        return read().lastAccessTime();
    }

    @Override
    public FileTime creationTime() {
        return read().creationTime();
    }

    @Override
    public long size() {
        return read().size();
    }

    @Override
    public Object fileKey() {
        return read().fileKey();
    }
}
