package dev.mero.core.ops;

import java.util.Locale;

/**
 * One system's numbers for {@link PosixCalls}: the C library's symbol names, the {@code open} flags, the error
 * numbers, and where {@code struct stat} and {@code struct dirent} keep the fields the portable directory layer
 * reads. They differ between systems and architectures and nothing at run time tells them, so they come from the
 * system headers, one row per system; a system without a row is not served. A row that does not match the machine
 * is caught when the calls are bound ({@link PosixSelfCheck}), never trusted blindly.
 *
 * @param symbols the names under which the C library exports the calls whose names differ
 * @param flags   {@code open}/{@code *at} flags and {@code AT_FDCWD}
 * @param errors  error numbers
 * @param stat    where {@code struct stat} keeps its fields
 * @param dirent  where {@code struct dirent} keeps its fields
 */
record PosixTable(Symbols symbols, Flags flags, Errors errors, StatLayout stat, DirentLayout dirent) {

    /**
     * Symbol names: Darwin x86-64 exports the 64-bit-inode {@code struct stat} and {@code struct dirent} calls as
     * {@code fstat$INODE64} and so on (its plain names take the old 32-bit-inode structures); Darwin AArch64 and
     * Linux (glibc 2.33 or later, musl) export plain names.
     *
     * @param fstat     {@code fstat}
     * @param fstatat   {@code fstatat}
     * @param fdopendir {@code fdopendir}
     * @param readdir   {@code readdir}
     */
    record Symbols(String fstat, String fstatat, String fdopendir, String readdir) {
    }

    /**
     * Flags ({@code <fcntl.h>}).
     *
     * @param oRdonly           {@code O_RDONLY}
     * @param oWronly           {@code O_WRONLY}
     * @param oRdwr             {@code O_RDWR}
     * @param oCreat            {@code O_CREAT}
     * @param oExcl             {@code O_EXCL}
     * @param oNoctty           {@code O_NOCTTY}
     * @param oTrunc            {@code O_TRUNC}
     * @param oAppend           {@code O_APPEND}
     * @param oNonblock         {@code O_NONBLOCK}
     * @param oDirectory        {@code O_DIRECTORY}
     * @param oNofollow         {@code O_NOFOLLOW}
     * @param oCloexec          {@code O_CLOEXEC}
     * @param atFdcwd           {@code AT_FDCWD} (only ever passed with an absolute path, which ignores it)
     * @param atRemovedir       {@code AT_REMOVEDIR}
     * @param atSymlinkNofollow {@code AT_SYMLINK_NOFOLLOW}
     */
    record Flags(int oRdonly, int oWronly, int oRdwr, int oCreat, int oExcl, int oNoctty, int oTrunc, int oAppend,
                 int oNonblock, int oDirectory, int oNofollow, int oCloexec, int atFdcwd, int atRemovedir,
                 int atSymlinkNofollow) {
    }

    /**
     * Error numbers ({@code <errno.h>}) the layer tells apart.
     *
     * @param eperm     {@code EPERM}
     * @param enoent    {@code ENOENT}
     * @param enxio     {@code ENXIO}
     * @param eacces    {@code EACCES}
     * @param eexist    {@code EEXIST}
     * @param enotdir   {@code ENOTDIR}
     * @param eloop     {@code ELOOP}
     * @param enotempty {@code ENOTEMPTY}
     */
    record Errors(int eperm, int enoent, int enxio, int eacces, int eexist, int enotdir, int eloop, int enotempty) {
    }

    /**
     * {@code struct stat}: byte offsets of the fields read, the sizes of those whose width differs; every time is a
     * {@code struct timespec} of two 8-byte fields on the 64-bit systems of the table.
     *
     * @param size      {@code sizeof(struct stat)}
     * @param dev       {@code st_dev}
     * @param devSize   its width, 4 or 8
     * @param ino       {@code st_ino}, 8 bytes
     * @param mode      {@code st_mode}
     * @param modeSize  its width, 2 or 4
     * @param nlink     {@code st_nlink}
     * @param nlinkSize its width, 2, 4 or 8
     * @param uid       {@code st_uid}, 4 bytes
     * @param gid       {@code st_gid}, 4 bytes
     * @param fileSize  {@code st_size}, 8 bytes
     * @param atime     {@code st_atim}
     * @param mtime     {@code st_mtim}
     * @param ctime     {@code st_ctim}
     * @param birthtime {@code st_birthtimespec}, or -1 where {@code struct stat} has none
     */
    record StatLayout(int size, int dev, int devSize, int ino, int mode, int modeSize, int nlink, int nlinkSize,
                      int uid, int gid, int fileSize, int atime, int mtime, int ctime, int birthtime) {
    }

    /**
     * {@code struct dirent}: where the name is ({@code d_type} is not read: every entry is typed by
     * {@code fstatat}).
     *
     * @param name    the offset of {@code d_name}, NUL-terminated
     * @param nameMax the room {@code d_name} has, with its NUL
     */
    record DirentLayout(int name, int nameMax) {
    }

    // Linux: the generic flags (asm-generic/fcntl.h), x86-64 and AArch64 differ only in O_DIRECTORY and O_NOFOLLOW
    private static final Errors LINUX_ERRORS = new Errors(1, 2, 6, 13, 17, 20, 40, 39);
    private static final Symbols PLAIN = new Symbols("fstat", "fstatat", "fdopendir", "readdir");
    // struct dirent of glibc (== dirent64 on 64-bit) and musl: d_ino 0, d_off 8, d_reclen 16, d_type 18, d_name 19
    private static final DirentLayout LINUX_DIRENT = new DirentLayout(19, 256);

    /** Linux x86-64 ({@code asm/stat.h}: st_nlink 8 bytes before st_mode). */
    static PosixTable linuxX8664() {
        return new PosixTable(PLAIN, linuxFlags(0x10000, 0x20000), LINUX_ERRORS,
                new StatLayout(144, 0, 8, 8, 24, 4, 16, 8, 28, 32, 48, 72, 88, 104, -1), LINUX_DIRENT);
    }

    /** Linux AArch64 ({@code asm-generic/stat.h}: st_mode before a 4-byte st_nlink). */
    static PosixTable linuxAarch64() {
        return new PosixTable(PLAIN, linuxFlags(0x4000, 0x8000), LINUX_ERRORS,
                new StatLayout(128, 0, 8, 8, 16, 4, 20, 4, 24, 28, 48, 72, 88, 104, -1), LINUX_DIRENT);
    }

    private static Flags linuxFlags(int oDirectory, int oNofollow) {
        return new Flags(0, 1, 2, 0x40, 0x80, 0x100, 0x200, 0x400, 0x800, oDirectory, oNofollow, 0x80000, -100, 0x200,
                0x100);
    }

    // Darwin (sys/fcntl.h, sys/errno.h, sys/stat.h with 64-bit inodes, sys/dirent.h): the same on both architectures
    private static final Flags DARWIN_FLAGS = new Flags(0, 1, 2, 0x200, 0x800, 0x20000, 0x400, 0x8, 0x4, 0x100000,
            0x100, 0x1000000, -2, 0x80, 0x20);
    private static final Errors DARWIN_ERRORS = new Errors(1, 2, 6, 13, 17, 20, 62, 66);
    // st_dev 0 (int32), st_mode 4 (uint16), st_nlink 6 (uint16), st_ino 8, st_uid 16, st_gid 20, st_rdev 24,
    // st_atimespec 32, st_mtimespec 48, st_ctimespec 64, st_birthtimespec 80, st_size 96, ... 144 bytes
    private static final StatLayout DARWIN_STAT = new StatLayout(144, 0, 4, 8, 4, 2, 6, 2, 16, 20, 96, 32, 48, 64, 80);
    // d_ino 0, d_seekoff 8, d_reclen 16, d_namlen 18, d_type 20, d_name[1024] 21
    private static final DirentLayout DARWIN_DIRENT = new DirentLayout(21, 1024);

    /** Darwin x86-64: the 64-bit-inode calls under their {@code $INODE64} names. */
    static PosixTable darwinX8664() {
        return new PosixTable(new Symbols("fstat$INODE64", "fstatat$INODE64", "fdopendir$INODE64", "readdir$INODE64"),
                DARWIN_FLAGS, DARWIN_ERRORS, DARWIN_STAT, DARWIN_DIRENT);
    }

    /** Darwin AArch64: only 64-bit inodes, under the plain names. */
    static PosixTable darwinAarch64() {
        return new PosixTable(PLAIN, DARWIN_FLAGS, DARWIN_ERRORS, DARWIN_STAT, DARWIN_DIRENT);
    }

    /**
     * The row of a system.
     *
     * @param osName the {@code os.name} property
     * @param osArch the {@code os.arch} property
     * @return its row
     * @throws UnsupportedOperationException where the table has none
     */
    static PosixTable of(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        boolean x8664 = "amd64".equals(osArch) || "x86_64".equals(osArch);
        boolean aarch64 = "aarch64".equals(osArch);
        if (os.startsWith("linux") && (x8664 || aarch64)) {
            return x8664 ? linuxX8664() : linuxAarch64();
        }
        if (os.startsWith("mac os x") && (x8664 || aarch64)) {
            return x8664 ? darwinX8664() : darwinAarch64();
        }
        throw new UnsupportedOperationException("no table for " + os + " on " + osArch);
    }
}
