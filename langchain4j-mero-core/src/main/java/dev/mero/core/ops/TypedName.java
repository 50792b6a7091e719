package dev.mero.core.ops;

import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

/**
 * A directory entry's name and its type as the directory itself reports it ({@code d_type}), so that a walk
 * that only needs types does not {@code stat} every entry.
 *
 * @param name the entry's name
 * @param type its type, {@link Type#UNKNOWN} where the file system does not say
 */
record TypedName(String name, Type type) {

    /** An entry's type, from {@code d_type}. */
    enum Type {
        FILE, DIRECTORY, LINK, OTHER, UNKNOWN;

        /**
         * The type of a {@code d_type} value.
         *
         * @param dType {@code DT_REG}, {@code DT_DIR}, {@code DT_LNK}, ... ({@code <dirent.h>})
         * @return the type
         */
        static Type of(int dType) {
            switch (dType) {
                case 8:
                    return FILE;
                case 4:
                    return DIRECTORY;
                case 10:
                    return LINK;
                case 0:
                    return UNKNOWN;
                default:
                    return OTHER;
            }
        }
    }

    /**
     * Attributes that answer the type questions from the entry's type and read nothing else: a walk that asks
     * for a size or a time of such an entry would get nothing right, so only walks that use the type alone get
     * them ({@link TreeWalk.Visitor#typesSuffice()}).
     *
     * @return the attributes
     * @throws IllegalStateException if the type is {@link Type#UNKNOWN}
     */
    BasicFileAttributes attributes() {
        if (type == Type.UNKNOWN) {
            throw new IllegalStateException("the type of " + name + " is unknown");
        }
        return new TypeOnly(type);
    }

    /**
     * The size in attributes a walk handed over, where they hold one.
     *
     * @param attributes an entry's attributes from a walk
     * @return the size, or {@code -1} for type-only attributes ({@link #attributes()}), which know none
     */
    static long sizeOf(BasicFileAttributes attributes) {
        return attributes instanceof TypeOnly ? -1 : attributes.size();
    }

    /** The type-only attributes. */
    private record TypeOnly(Type type) implements BasicFileAttributes {

        @Override
        public FileTime lastModifiedTime() {
            throw unknown();
        }

        @Override
        public FileTime lastAccessTime() {
            throw unknown();
        }

        @Override
        public FileTime creationTime() {
            throw unknown();
        }

        @Override
        public boolean isRegularFile() {
            return type == Type.FILE;
        }

        @Override
        public boolean isDirectory() {
            return type == Type.DIRECTORY;
        }

        @Override
        public boolean isSymbolicLink() {
            return type == Type.LINK;
        }

        @Override
        public boolean isOther() {
            return type == Type.OTHER;
        }

        @Override
        public long size() {
            throw unknown();
        }

        @Override
        public Object fileKey() {
            return null;
        }

        private static UnsupportedOperationException unknown() {
            return new UnsupportedOperationException("only the type of a listed entry is known");
        }
    }
}
