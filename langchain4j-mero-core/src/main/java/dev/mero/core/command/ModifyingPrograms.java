package dev.mero.core.command;

import dev.mero.core.Permission;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Programs whose path arguments are written or removed, not only read: their paths need WRITE (and
 * DELETE for removing programs) on top of READ, so that {@code cp notes.txt docs/} cannot write into a
 * read-only mount and {@code rm} cannot delete where DELETE is not granted.
 *
 * <p>git changes files unless its subcommand only reads ({@link GitArguments#writes(List)}); subcommands that
 * can remove or rewrite work-tree files ({@code rm}, {@code checkout}, {@code reset}, ...) need DELETE too.
 *
 * <p>The list covers the common file-changing tools; a program missing from it has its path arguments
 * checked for READ only, so keep such programs out of the allow rules of read-only contexts.
 */
final class ModifyingPrograms {

    private static final Set<String> WRITING = Set.of("cp", "mv", "touch", "mkdir", "ln", "link", "tee",
            "install", "chmod", "chown", "chgrp", "truncate", "dd", "rsync", "split", "csplit", "patch", "unzip",
            "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "zip", "7z", "cpio", "ar",
            "mktemp", "mkfifo", "mknod", "shred", "rm", "rmdir", "unlink", "setfacl", "chattr", "wget", "curl",
            "sponge", "uniq", "base64", "objcopy", "strip");
    private static final Set<String> REMOVING = Set.of("rm", "rmdir", "unlink", "shred", "mv");
    private static final Set<String> TAR_WRITING_LONG = Set.of("--extract", "--get", "--create", "--append",
            "--update", "--concatenate", "--catenate", "--delete");

    private ModifyingPrograms() {
    }

    /** The permissions each path argument of this command needs. */
    static Set<Permission> pathPermissions(Set<String> programNames, List<String> argv) {
        EnumSet<Permission> needed = EnumSet.of(Permission.READ);
        for (String name : programNames) {
            if (WRITING.contains(name) || name.equals("tar") && tarWrites(argv)) {
                needed.add(Permission.WRITE);
            }
            if (REMOVING.contains(name)) {
                needed.add(Permission.DELETE);
            }
            if (name.equals("git") && GitArguments.writes(argv)) {
                needed.add(Permission.WRITE);
                if (GitArguments.deletes(argv)) {
                    needed.add(Permission.DELETE);
                }
            }
        }
        return needed;
    }

    /** tar writes files when it creates, extracts, appends to or updates an archive. */
    private static boolean tarWrites(List<String> argv) {
        for (int i = 1; i < argv.size(); i++) {
            String argument = argv.get(i);
            if (argument.equals("--")) {
                break;
            }
            if (argument.startsWith("--")) {
                String name = argument.contains("=") ? argument.substring(0, argument.indexOf('=')) : argument;
                if (TAR_WRITING_LONG.stream().anyMatch(option -> name.length() > 3 && option.startsWith(name))) {
                    return true;
                }
            } else if ((argument.startsWith("-") || i == 1) && argument.chars().anyMatch(c -> "xcruA".indexOf(c) >= 0)) {
                return true;
            }
        }
        return false;
    }
}
