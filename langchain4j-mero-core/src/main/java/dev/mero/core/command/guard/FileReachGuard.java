package dev.mero.core.command.guard;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Options of common file programs that reach files the path check never sees, in every spelling GNU
 * {@code getopt_long} accepts (grouped, glued, abbreviated):
 * <ul>
 *   <li>following the symbolic links found inside a directory, which can lead outside the mounted entries:
 *       {@code cp -L/--dereference}, {@code ls -L/--dereference}, {@code du -L/--dereference},
 *       {@code chown}/{@code chgrp -L}, {@code tree -l}, {@code rsync -L/--copy-links/--copy-unsafe-links/
 *       -k/--copy-dirlinks/-K/--keep-dirlinks}; {@code zip -r} stores what links point to unless {@code -y}
 *       is given. Links named on the command line are checked as path arguments, so {@code -H} stays;</li>
 *   <li>reading the names of the files to work on from a file, whose contents the policy cannot check:
 *       {@code --files0-from} ({@code wc}, {@code du}), {@code rsync --files-from}, {@code file -f},
 *       {@code md5sum}/{@code sha*sum}/{@code shasum}/{@code b2sum -c/--check}, {@code rsync -f/--filter} (merge rules read
 *       rule files); lists of patterns ({@code --exclude-from}, {@code -X}) are ordinary path arguments and need
 *       READ;</li>
 *   <li>{@code rsync -e/--rsh}, {@code --rsync-path} (run programs), {@code --daemon}, and remote operands
 *       ({@code host:path}, {@code rsync://}), reached through a remote shell or the network;</li>
 *   <li>{@code ls --hyperlink}, which prints every file's host path as a {@code file://} URL;</li>
 *   <li>{@code curl -K/--config}, {@code wget -i/--input-file/-e/--execute/--config}: options and URLs read from
 *       a file or given as wgetrc commands.</li>
 * </ul>
 */
final class FileReachGuard extends ProgramGuard {

    private static final String FOLLOWS = "follows the symbolic links it finds, which can lead outside the mounted "
            + "entries; leave it out (links named as arguments are followed and checked anyway)";
    private static final String READS_NAMES = "reads the names of the files to work on from a file, whose contents "
            + "the policy cannot check; name the files as arguments instead";

    /** What one program refuses, and how its options are spelled. */
    private record Rules(OptionScan.Spec spec, Map<String, String> refusedShort, Map<String, String> refusedLong) {

        static Rules of(String shortWithValue, Set<String> longWithValue, Set<String> otherLong,
                        Map<String, String> refusedShort, Map<String, String> refusedLong) {
            Set<String> known = new HashSet<>(longWithValue);
            known.addAll(otherLong);
            known.addAll(refusedLong.keySet());
            return new Rules(OptionScan.Spec.gnu(shortWithValue, longWithValue, Set.copyOf(known)), refusedShort,
                    refusedLong);
        }
    }

    private static final Rules CP = Rules.of("St", Set.of("suffix", "target-directory", "no-preserve", "sparse"),
            Set.of("archive", "attributes-only", "backup", "copy-contents", "debug", "force", "interactive", "link",
                    "no-clobber", "no-dereference", "preserve", "parents", "recursive", "reflink",
                    "remove-destination", "strip-trailing-slashes", "symbolic-link", "no-target-directory", "update",
                    "verbose", "one-file-system", "context", "keep-directory-symlink", "help", "version"),
            Map.of("L", FOLLOWS), Map.of("dereference", FOLLOWS));
    private static final Rules LS = Rules.of("ITw", Set.of("block-size", "format", "hide", "ignore",
                    "indicator-style", "quoting-style", "sort", "time", "time-style", "tabsize", "width"),
            Set.of("all", "almost-all", "author", "escape", "classify", "file-type", "full-time", "group-directories-first",
                    "no-group", "human-readable", "si", "dereference-command-line",
                    "dereference-command-line-symlink-to-dir", "inode", "kibibytes", "literal", "numeric-uid-gid",
                    "hide-control-chars", "show-control-chars", "quote-name", "reverse", "recursive", "size",
                    "context", "zero", "color", "directory", "help", "version"),
            Map.of("L", FOLLOWS), Map.of("dereference", FOLLOWS,
                    "hyperlink", "prints the host path of every file as a file:// URL; leave it out"));
    private static final Rules DU = Rules.of("BdtX", Set.of("block-size", "max-depth", "threshold", "time-style",
                    "exclude-from", "exclude", "files0-from"),
            Set.of("null", "all", "apparent-size", "bytes", "total", "dereference-args", "human-readable", "inodes",
                    "kilobytes", "count-links", "no-dereference", "separate-dirs", "si", "summarize", "time",
                    "one-file-system", "help", "version"),
            Map.of("L", FOLLOWS), Map.of("dereference", FOLLOWS, "files0-from", READS_NAMES));
    private static final Rules WC = Rules.of("", Set.of("files0-from", "total"),
            Set.of("bytes", "chars", "lines", "max-line-length", "words", "help", "version"),
            Map.of(), Map.of("files0-from", READS_NAMES));
    private static final Rules CHOWN = Rules.of("", Set.of("from", "reference"),
            Set.of("changes", "dereference", "no-dereference", "no-preserve-root", "preserve-root", "quiet",
                    "silent", "recursive", "verbose", "help", "version"),
            Map.of("L", FOLLOWS), Map.of());
    private static final Rules TREE = Rules.of("LPIo", Set.of(), Set.of(), Map.of("l", FOLLOWS), Map.of());
    private static final Rules FILE = Rules.of("eFfmP", Set.of("exclude", "separator", "files-from", "magic-file",
                    "parameter", "exclude-quiet"),
            Set.of("brief", "checking-printout", "compile", "debug", "extension", "keep-going", "list", "dereference",
                    "no-dereference", "mime", "mime-type", "mime-encoding", "no-pad", "no-buffer", "preserve-date",
                    "print0", "raw", "special-files", "uncompress", "uncompress-noreport", "help", "version"),
            Map.of("f", READS_NAMES), Map.of("files-from", READS_NAMES));
    private static final Rules CHECKSUM = Rules.of("", Set.of(), Set.of("binary", "tag", "text", "zero",
                    "ignore-missing", "quiet", "status", "strict", "warn", "help", "version", "length"),
            Map.of("c", READS_NAMES), Map.of("check", READS_NAMES));
    private static final String RUNS = "makes rsync run another program; leave it out";
    private static final Rules RSYNC = Rules.of("eBfTM", Set.of("rsh", "rsync-path", "files-from", "filter",
                    "exclude", "include", "exclude-from", "include-from", "temp-dir", "block-size", "remote-option",
                    "log-file", "write-batch", "only-write-batch", "read-batch", "partial-dir", "backup-dir",
                    "suffix", "chmod", "compare-dest", "copy-dest", "link-dest", "max-size", "min-size", "timeout",
                    "port", "password-file", "bwlimit", "out-format", "log-file-format", "info", "debug", "chown",
                    "usermap", "groupmap", "iconv", "checksum-choice", "compress-choice", "compress-level",
                    "skip-compress", "modify-window", "max-delete", "sockopts", "address", "protocol", "outbuf",
                    "stop-after", "stop-at", "config", "dparam"),
            Set.of("archive", "recursive", "links", "verbose", "quiet", "update", "delete", "dry-run", "times",
                    "perms", "owner", "group", "compress", "progress", "safe-links", "munge-links", "hard-links"),
            Map.of("L", FOLLOWS, "k", FOLLOWS, "K", FOLLOWS, "e", RUNS,
                    "f", "can merge rule files the policy cannot check; use --exclude and --include instead"),
            Map.ofEntries(Map.entry("copy-links", FOLLOWS), Map.entry("copy-unsafe-links", FOLLOWS),
                    Map.entry("copy-dirlinks", FOLLOWS), Map.entry("keep-dirlinks", FOLLOWS),
                    Map.entry("files-from", READS_NAMES), Map.entry("rsh", RUNS), Map.entry("rsync-path", RUNS),
                    Map.entry("filter", "can merge rule files the policy cannot check; use --exclude and --include "
                            + "instead"),
                    Map.entry("daemon", "starts a server; leave it out"),
                    Map.entry("config", "is for the server; leave it out")));

    private static final String READS_SETTINGS = "reads further options (URLs, files to send or write) from a file "
            + "the policy cannot check; give them as arguments";
    private static final Rules CURL = Rules.of("KdFToHXxuUAe", Set.of("config", "data", "data-binary", "data-raw",
                    "data-urlencode", "form", "upload-file", "output", "header", "request", "user", "proxy"),
            Set.of("silent", "show-error", "location", "include", "head", "verbose", "fail", "insecure"),
            Map.of("K", READS_SETTINGS), Map.of("config", READS_SETTINGS));
    private static final Rules WGET = Rules.of("eiOoaPU", Set.of("execute", "input-file", "output-document",
                    "output-file", "append-output", "directory-prefix", "user-agent", "config"),
            Set.of("quiet", "verbose", "no-verbose", "recursive", "no-clobber", "continue", "timestamping"),
            Map.of("e", READS_SETTINGS, "i", READS_SETTINGS),
            Map.of("config", READS_SETTINGS, "input-file", READS_SETTINGS, "execute", READS_SETTINGS));

    private static final Map<String, Rules> RULES = Map.ofEntries(Map.entry("curl", CURL), Map.entry("wget", WGET),Map.entry("cp", CP), Map.entry("ls", LS),
            Map.entry("du", DU), Map.entry("wc", WC), Map.entry("chown", CHOWN), Map.entry("chgrp", CHOWN),
            Map.entry("tree", TREE), Map.entry("file", FILE), Map.entry("md5sum", CHECKSUM),
            Map.entry("sha1sum", CHECKSUM), Map.entry("sha224sum", CHECKSUM), Map.entry("sha256sum", CHECKSUM),
            Map.entry("sha384sum", CHECKSUM), Map.entry("sha512sum", CHECKSUM), Map.entry("b2sum", CHECKSUM),
            Map.entry("cksum", CHECKSUM), Map.entry("shasum", CHECKSUM), Map.entry("rsync", RSYNC));

    private final String program;

    private FileReachGuard(String program) {
        super(Set.of(program));
        this.program = program;
    }

    /** One guard per program, in a stable order. */
    static List<ArgumentGuard> all() {
        return RULES.keySet().stream().sorted().<ArgumentGuard>map(FileReachGuard::new).toList();
    }

    @Override
    Optional<String> inspect(List<String> arguments) {
        Rules rules = RULES.get(program);
        OptionScan scan = OptionScan.of(arguments, rules.spec());
        for (OptionScan.Option option : scan.options()) {
            if (!option.longForm()) {
                String reason = rules.refusedShort().get(option.name());
                if (reason != null) {
                    return refuse("the option " + shown(option) + " " + reason);
                }
                continue;
            }
            for (Map.Entry<String, String> refused : rules.refusedLong().entrySet()) {
                if (option.isLong(refused.getKey())) {
                    return refuse("the option " + shown(option) + " " + refused.getValue());
                }
            }
        }
        if (program.equals("rsync")) {
            for (String operand : scan.operands()) {
                if (RemoteOperands.isRemote(operand)) {
                    return refuse("the operand " + dev.mero.core.message.Messages.quote(operand) + " names another host, "
                            + "reached through a remote shell or the network; copy between paths inside the mounted "
                            + "entries");
                }
            }
        }
        return Optional.empty();
    }
}
