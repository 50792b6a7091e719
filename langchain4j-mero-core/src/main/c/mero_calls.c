/*
 * The few Linux system calls JniSyscalls binds for Java 17, which has no foreign-function API: openat2 (the
 * kernel's confinement below a directory descriptor, never blocking on a pipe), stat of a descriptor or a name,
 * pread, getdents64 and close. Each returns what the kernel returned, an error as -errno; nothing here decides anything.
 * Names arrive as byte arrays without a terminating NUL; one holding a NUL or too long for PATH_MAX is refused.
 */
#define _GNU_SOURCE
#include <jni.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437 /* the same number on every architecture since 5.6 */
#endif

/* struct open_how of <linux/openat2.h>, which older headers lack */
struct mero_open_how {
    uint64_t flags;
    uint64_t mode;
    uint64_t resolve;
};

#define MERO_RESOLVE_NO_MAGICLINKS 0x02
#define MERO_RESOLVE_NO_SYMLINKS 0x04
#define MERO_RESOLVE_BENEATH 0x08
#define MERO_CONFINED (MERO_RESOLVE_BENEATH | MERO_RESOLVE_NO_SYMLINKS | MERO_RESOLVE_NO_MAGICLINKS)

/* the ways JniSyscalls.openat2 opens (OPEN_FILE, OPEN_MOUNT, OPEN_PROBE, OPEN_DIRECTORY, OPEN_DIRECTORY_PATH);
 * the flags' values differ between architectures, so they come from this system's headers, not from Java */
static const struct mero_open_how MERO_HOWS[] = {
    {O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW, 0, MERO_CONFINED},
    {O_PATH | O_DIRECTORY | O_CLOEXEC, 0, MERO_RESOLVE_NO_SYMLINKS | MERO_RESOLVE_NO_MAGICLINKS},
    {O_PATH | O_DIRECTORY | O_CLOEXEC, 0, MERO_CONFINED},
    {O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_DIRECTORY | O_NOFOLLOW, 0, MERO_CONFINED},
    {O_PATH | O_CLOEXEC | O_DIRECTORY | O_NOFOLLOW, 0, MERO_CONFINED},
};

/* the largest chunk one pread copies through the stack */
#define MERO_CHUNK 32768

/* Copies a name into buf, NUL-terminated; -errno if it is empty, too long or holds a NUL. */
static int mero_name(JNIEnv *env, jbyteArray name, char *buf, size_t capacity) {
    jsize length = (*env)->GetArrayLength(env, name);
    if (length <= 0) {
        return -ENOENT;
    }
    if ((size_t) length >= capacity) {
        return -ENAMETOOLONG;
    }
    (*env)->GetByteArrayRegion(env, name, 0, length, (jbyte *) buf);
    if ((*env)->ExceptionCheck(env)) {
        return -EFAULT;
    }
    if (memchr(buf, 0, (size_t) length) != NULL) {
        return -EINVAL;
    }
    buf[length] = 0;
    return 0;
}

/* out: mode, size, device, inode */
static void mero_put_stat(JNIEnv *env, jlongArray out, const struct stat *st) {
    jlong values[4];
    values[0] = (jlong) st->st_mode;
    values[1] = (jlong) st->st_size;
    values[2] = (jlong) st->st_dev;
    values[3] = (jlong) st->st_ino;
    (*env)->SetLongArrayRegion(env, out, 0, 4, values);
}

JNIEXPORT jint JNICALL Java_dev_mero_core_ops_JniSyscalls_openat2(JNIEnv *env, jclass type, jint directory,
        jbyteArray name, jint kind, jlongArray out) {
    char path[PATH_MAX];
    if (kind < 0 || (size_t) kind >= sizeof MERO_HOWS / sizeof MERO_HOWS[0]) {
        return -EINVAL;
    }
    int bad = mero_name(env, name, path, sizeof path);
    if (bad != 0) {
        return bad;
    }
    struct mero_open_how how = MERO_HOWS[kind];
    long fd;
    do {
        fd = syscall(SYS_openat2, (int) directory, path, &how, sizeof how);
    } while (fd < 0 && errno == EINTR);
    if (fd < 0) {
        return -errno;
    }
    if (out != NULL) {
        struct stat st;
        if (fstat((int) fd, &st) != 0) {
            int error = errno;
            close((int) fd);
            return -error;
        }
        mero_put_stat(env, out, &st);
    }
    return (jint) fd;
}

JNIEXPORT jint JNICALL Java_dev_mero_core_ops_JniSyscalls_lstat(JNIEnv *env, jclass type, jbyteArray name,
        jlongArray out) {
    char path[PATH_MAX];
    int bad = mero_name(env, name, path, sizeof path);
    if (bad != 0) {
        return bad;
    }
    struct stat st;
    if (fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        return -errno;
    }
    mero_put_stat(env, out, &st);
    return 0;
}

JNIEXPORT jint JNICALL Java_dev_mero_core_ops_JniSyscalls_fstat(JNIEnv *env, jclass type, jint fd,
        jlongArray out) {
    struct stat st;
    if (fstat((int) fd, &st) != 0) {
        return -errno;
    }
    mero_put_stat(env, out, &st);
    return 0;
}

JNIEXPORT jint JNICALL Java_dev_mero_core_ops_JniSyscalls_pread(JNIEnv *env, jclass type, jint fd,
        jbyteArray destination, jint offset, jint length, jlong position) {
    char chunk[MERO_CHUNK];
    jsize capacity = (*env)->GetArrayLength(env, destination);
    if (offset < 0 || length < 0 || position < 0 || offset > capacity || length > capacity - offset) {
        return -EINVAL;
    }
    size_t want = (size_t) length < sizeof chunk ? (size_t) length : sizeof chunk;
    ssize_t n;
    do {
        n = pread((int) fd, chunk, want, (off_t) position);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        return -errno;
    }
    if (n > 0) {
        (*env)->SetByteArrayRegion(env, destination, offset, (jsize) n, (const jbyte *) chunk);
    }
    return (jint) n;
}

JNIEXPORT jint JNICALL Java_dev_mero_core_ops_JniSyscalls_close(JNIEnv *env, jclass type, jint fd) {
    /* Linux closes the descriptor even when close reports EINTR: never retry */
    return close((int) fd) == 0 ? 0 : -errno;
}

JNIEXPORT jint JNICALL Java_dev_mero_core_ops_JniSyscalls_getdents64(JNIEnv *env, jclass type, jint fd,
        jbyteArray destination) {
    char chunk[MERO_CHUNK];
    jsize capacity = (*env)->GetArrayLength(env, destination);
    size_t want = (size_t) capacity < sizeof chunk ? (size_t) capacity : sizeof chunk;
    long n;
    do {
        n = syscall(SYS_getdents64, (int) fd, chunk, want);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        return -errno;
    }
    if (n > 0) {
        (*env)->SetByteArrayRegion(env, destination, 0, (jsize) n, (const jbyte *) chunk);
    }
    return (jint) n;
}
