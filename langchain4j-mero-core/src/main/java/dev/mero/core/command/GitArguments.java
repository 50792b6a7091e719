package dev.mero.core.command;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What git's own argument syntax names beyond plain paths, and whether a git command changes files.
 * <ul>
 *   <li>pathspec magic: {@code :/x}, {@code :(top)x} and {@code :(top,glob)x} name {@code x} at the top of
 *       the work tree; {@code :!x}, {@code :^x}, {@code :(glob)x} and other magic name {@code x} relative
 *       to the directory git runs in;</li>
 *   <li>{@code rev:path} ({@code HEAD:x}, {@code :0:x}, {@code :x}) names a file of the repository: a path
 *       starting with {@code ./} or {@code ../} relative to the directory git runs in, any other relative to
 *       the top of the work tree;</li>
 *   <li>subcommands that change files: everything but the known read-only ones.</li>
 * </ul>
 * The policy judges each such path like any other path argument, from the directory it names.
 */
final class GitArguments {

    /** Global options (before the subcommand) whose value is the next argument when not given with '='. */
    private static final Set<String> GLOBAL_WITH_VALUE = Set.of("-C", "-c", "--git-dir", "--work-tree",
            "--namespace", "--super-prefix", "--attr-source", "--list-cmds", "--config-env");

    /** Subcommands that only read the repository and the work tree. */
    private static final Set<String> READ_ONLY = Set.of("status", "log", "show", "diff", "grep", "blame",
            "annotate", "ls-files", "ls-tree", "ls-remote", "cat-file", "rev-parse", "rev-list", "describe",
            "shortlog", "archive", "count-objects", "show-ref", "for-each-ref", "merge-base", "name-rev",
            "cherry", "whatchanged", "diff-tree", "diff-files", "diff-index", "check-ignore", "check-attr",
            "check-ref-format", "check-mailmap", "var", "version", "help", "range-diff", "show-branch",
            "verify-commit", "verify-tag", "verify-pack", "get-tar-commit-id", "column",
            "stripspace");
    /**
     * Subcommands that only read when they are given nothing but a listing request ({@code stash} is not one:
     * {@code git stash} and {@code git stash -a} are {@code git stash push}).
     */
    private static final Set<String> LISTING = Set.of("branch", "tag", "remote", "worktree", "notes", "reflog");
    private static final Set<String> LISTING_ARGUMENTS = Set.of("list", "show", "-l", "--list", "-a", "--all", "-r",
            "--remotes", "-v", "-vv", "--verbose", "--show-current", "--no-color", "--color");
    /** Arguments that make {@code git config} read rather than write. */
    private static final Set<String> CONFIG_READS = Set.of("get", "list", "--get", "--get-all", "--get-regexp",
            "--get-urlmatch", "--get-color", "--get-colorbool", "--list", "-l");
    /** Subcommands that can remove or rewrite work-tree files. */
    private static final Set<String> DELETING = Set.of("rm", "mv", "clean", "checkout", "restore", "reset", "switch",
            "stash", "merge", "rebase", "pull", "cherry-pick", "revert", "am", "apply", "worktree", "read-tree",
            "checkout-index", "sparse-checkout", "gc", "prune");

    private GitArguments() {
    }

    /** The index in {@code argv} of the subcommand, or {@code argv.size()} when there is none. */
    static int subcommandIndex(List<String> argv) {
        int i = 1;
        while (i < argv.size() && argv.get(i).startsWith("-")) {
            i += GLOBAL_WITH_VALUE.contains(argv.get(i)) ? 2 : 1;
        }
        return Math.min(i, argv.size());
    }

    /** Whether the git command may write files. */
    static boolean writes(List<String> argv) {
        int at = subcommandIndex(argv);
        if (at >= argv.size()) {
            return false;
        }
        String subcommand = argv.get(at);
        if (READ_ONLY.contains(subcommand)) {
            return false;
        }
        List<String> rest = argv.subList(at + 1, argv.size());
        if (subcommand.equals("config")) {
            return rest.stream().noneMatch(CONFIG_READS::contains);
        }
        if (subcommand.equals("submodule")) {
            return !rest.isEmpty() && !rest.get(0).equals("status") && !rest.get(0).equals("summary");
        }
        if (subcommand.equals("stash")) {
            return rest.isEmpty() || !rest.get(0).equals("list") && !rest.get(0).equals("show");
        }
        if (LISTING.contains(subcommand)) {
            return !LISTING_ARGUMENTS.containsAll(argv.subList(at + 1, argv.size()));
        }
        return true;
    }

    /** Whether the git command may remove or rewrite work-tree files. */
    static boolean deletes(List<String> argv) {
        int at = subcommandIndex(argv);
        return at < argv.size() && DELETING.contains(argv.get(at)) && writes(argv);
    }

    /**
     * A path named through git's syntax.
     *
     * @param path     the path as written (relative)
     * @param fromTop  whether it is relative to the top of the work tree rather than the directory git runs in
     */
    record Named(String path, boolean fromTop) {
    }

    /** The paths an argument after the subcommand names through pathspec magic or {@code rev:path}. */
    static List<Named> named(String argument) {
        List<Named> named = new ArrayList<>();
        if (argument.startsWith("-") || argument.contains("://") || argument.contains("::")) {
            return named;
        }
        if (argument.startsWith(":(")) {
            int close = argument.indexOf(')');
            if (close < 0) {
                named.add(new Named(argument.substring(2), true));
                named.add(new Named(argument.substring(2), false));
                return named;
            }
            boolean top = false;
            for (String word : argument.substring(2, close).split(",")) {
                top |= word.strip().equals("top");
            }
            named.add(new Named(argument.substring(close + 1), top));
            return named;
        }
        if (argument.startsWith(":")) {
            int k = 1;
            boolean top = false;
            while (k < argument.length() && "/!^".indexOf(argument.charAt(k)) >= 0) {
                top |= argument.charAt(k) == '/';
                k++;
            }
            String pattern = argument.substring(k);
            if (pattern.startsWith(":")) {
                pattern = pattern.substring(1);
            }
            named.add(new Named(pattern, top));
            // ':path' and ':0:path' as a revision: the index entry, from the top
            String indexPath = argument.substring(1);
            if (indexPath.length() > 1 && Character.isDigit(indexPath.charAt(0)) && indexPath.charAt(1) == ':') {
                indexPath = indexPath.substring(2);
            }
            named.addAll(fromRevision(indexPath));
            return named;
        }
        int colon = argument.indexOf(':');
        if (colon > 0) {
            named.addAll(fromRevision(argument.substring(colon + 1)));
        }
        return named;
    }

    /** The path of {@code rev:path}: {@code ./x} and {@code ../x} from the directory git runs in, else from the top. */
    private static List<Named> fromRevision(String written) {
        // a tree path never starts at the file-system root: git reads '/x' in 'rev:/x' from the top as well
        String path = written.replaceFirst("^/+", "");
        if (path.isEmpty()) {
            return List.of();
        }
        if (path.startsWith("./") || path.startsWith("../") || path.equals(".") || path.equals("..")) {
            return List.of(new Named(path, false));
        }
        return List.of(new Named(path, true));
    }
}
