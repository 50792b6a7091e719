package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.UnaryOperator;

/**
 * Checks that every argument naming a path names one inside an entry that grants READ, as the program will
 * see it; for programs that change files ({@link ModifyingPrograms}: {@code cp}, {@code rm}, {@code tar -x},
 * ...), WRITE and DELETE as well.
 *
 * <p>Which arguments name a path is decided from their text, because the policy cannot know every program:
 * <ul>
 *   <li>an argument that is absolute, contains {@code /}, is {@code ..} or starts with {@code ~};</li>
 *   <li>the value of {@code --opt=value} and of {@code name=value} ({@code dd if=/etc/passwd}) when it is one;</li>
 *   <li>a path glued to a short option ({@code -f/etc/passwd}): every suffix from the first letter up to the
 *       first {@code /}, {@code .} or {@code ~} is tried, since the policy cannot know where the value starts;
 *       so is every suffix that names an existing file in the base directory ({@code tar -Clink});</li>
 *   <li>a plain name ({@code notes.txt}, even {@code -x}) that exists in the base directory, so that a
 *       symbolic link planted there cannot lead a program out;</li>
 *   <li>the whole argument too when it looks like an option, since after {@code --} a program opens it as a
 *       file;</li>
 *   <li>the rest of an argument or value that starts with {@code @} ({@code curl -d @f}, {@code -F x=@f},
 *       {@code tar -cf a.tar @b.tar}, {@code gcc @args});</li>
 *   <li>the path of a {@code file:} URL ({@code git clone file:///srv/x}, {@code curl file:///etc/passwd}),
 *       percent-escapes decoded; a {@code file:} URL naming another host is refused;</li>
 *   <li>for git, the paths that pathspec magic ({@code :/x}, {@code :(top)x}, {@code :!x}) and
 *       {@code rev:path} ({@code HEAD:../x}) name, from the top of the work tree or the directory git runs in
 *       (see {@link GitArguments});</li>
 *   <li>for {@code ln -s}, each relative link target once more from the directory the link is created in
 *       (see {@link LinkTargets}).</li>
 * </ul>
 *
 * <p>A relative path is judged from every directory the program may read it in: the working directory and
 * each directory a {@link DirectoryOptions directory option} names ({@code tar -C}, {@code git -C},
 * {@code make -C}, ...). A git command that changes files ({@link GitArguments#writes(List)}) needs WRITE on
 * the directory it runs in and on the top of its work tree, so that {@code git init} or {@code git commit}
 * cannot change a read-only mount. {@code diff} follows the symbolic links it finds inside a directory, so a
 * directory argument of {@code diff} is refused unless {@code --no-dereference} is given.
 *
 * <p>A path is resolved the way the kernel will: relative to the base directory (the command's working
 * directory), every symbolic link followed component by component, and {@code ..} applied to the directory
 * a link led to, not lexically. The result must lie inside an entry and pass
 * {@link SecurityContext#checkPathAccess(String, Permission...)} under its virtual path. Inside the command
 * sandbox a program sees the mounts at their virtual paths, so an absolute argument there is first translated
 * from the sandbox's view ({@code /ws/notes.txt}) to the host path it shows ({@code SandboxView.hostPath});
 * without the sandbox the agent's mount paths are refused in commands, because a program would open that host
 * path rather than the mount.
 *
 * <p>Refusals name the path as the agent wrote it and, where it leads elsewhere, its virtual path; never a
 * host path or a link target, which go to the audit log as the exception's
 * {@link dev.mero.core.MeroToolsException#auditDetail() audit detail}.
 */
final class PathArguments {

    /** Suffixes of a short-option cluster tried before the first path character (a longer cluster is unusual). */
    private static final int MAX_CLUSTER_SUFFIXES = 16;
    /** A file name is at most 255 bytes (NAME_MAX), so no longer suffix can name an existing file. */
    private static final int MAX_NAME_LENGTH = 255;
    private static final Permission[] READ = {Permission.READ};

    private final MountedPaths mounts;
    private final String line;
    private final Path base;
    private final Set<String> programNames;
    private final Permission[] needed;
    private final UnaryOperator<String> hostPathOf;
    /** The working directory first, then the directories the command's directory options name. */
    private List<Path> bases = List.of();

    /**
     * @param base         the real directory relative paths resolve against, or {@code null} when the context
     *                     mounts nothing (then every path argument is refused)
     * @param programNames the program's names (as written and as its real file is called)
     * @param needed       what each path argument needs: READ, plus WRITE and DELETE for programs that change
     *                     files
     * @param hostPathOf   the host path a program opens for an absolute path as it names it: the identity when
     *                     the program sees the host's file system, a translation from the mount points when it
     *                     runs where the mounts appear at {@code /<slug>}
     */
    PathArguments(MountedPaths mounts, String line, Path base, Set<String> programNames,
                  Set<Permission> needed, UnaryOperator<String> hostPathOf) {
        this.mounts = mounts;
        this.line = line;
        this.base = base;
        this.programNames = programNames;
        this.needed = needed.toArray(new Permission[0]);
        this.hostPathOf = hostPathOf;
    }

    /**
     * Checks every argument after the program.
     *
     * @return the paths the arguments name, as checked (empty when the context mounts nothing)
     */
    List<ResolvedPath> check(List<String> argv) {
        List<ResolvedPath> resolved = new ArrayList<>();
        if (base == null) {
            for (String argument : argv.subList(1, argv.size())) {
                for (String path : candidates(argument)) {
                    deniedWithoutMounts(path);
                }
            }
            return resolved;
        }
        List<DirectoryOptions.Directory> directories = DirectoryOptions.of(programNames, argv);
        bases = bases(directories, resolved);
        Set<Integer> directoryArguments = new HashSet<>();
        directories.forEach(directory -> directoryArguments.add(directory.index()));
        for (int i = 1; i < argv.size(); i++) {
            // a directory option's own value is read from the working directory (and judged by bases(...) too)
            boolean directoryOption = directoryArguments.contains(i);
            for (String path : candidates(argv.get(i))) {
                for (Path from : directoryOption ? List.of(base) : fromWhere(path)) {
                    resolved.add(check(path, asTheKernelSeesIt(from, path), needed));
                }
            }
        }
        for (LinkTargets.Target target : LinkTargets.of(programNames, argv)) {
            for (String directory : target.directories()) {
                for (Path from : fromWhere(directory)) {
                    Path linkDirectory = asTheKernelSeesIt(from, directory);
                    resolved.add(check(target.target(), asTheKernelSeesIt(linkDirectory, target.target()), needed));
                }
            }
        }
        if (programNames.contains("git")) {
            checkGit(argv, resolved);
        }
        if (programNames.contains("diff")) {
            refuseDirectoriesDiffFollows(argv, resolved);
        }
        return resolved;
    }

    /** The working directory and every directory a directory option names, each checked for READ. */
    private List<Path> bases(List<DirectoryOptions.Directory> directories, List<ResolvedPath> resolved) {
        Set<Path> result = new LinkedHashSet<>();
        result.add(base);
        Path previous = base;
        for (DirectoryOptions.Directory option : directories) {
            String directory = option.text();
            Path chained = null;
            for (Path from : directory.startsWith("/") ? List.of(base) : List.of(base, previous)) {
                Path real = asTheKernelSeesIt(from, directory);
                resolved.add(check(directory, real, READ));
                result.add(real);
                chained = real;
            }
            previous = chained;
        }
        return List.copyOf(result);
    }

    private List<Path> fromWhere(String path) {
        return path.startsWith("/") ? List.of(base) : bases;
    }

    /** Pathspec magic and rev:path after the subcommand; WRITE where git runs when it changes files. */
    private void checkGit(List<String> argv, List<ResolvedPath> resolved) {
        int at = GitArguments.subcommandIndex(argv);
        List<Path> tops = new ArrayList<>();
        for (Path from : bases) {
            workTreeTop(from).ifPresent(tops::add);
        }
        for (String argument : argv.subList(Math.min(at + 1, argv.size()), argv.size())) {
            for (GitArguments.Named named : GitArguments.named(argument)) {
                String path = named.path().isEmpty() ? "." : named.path();
                if (named.fromTop() && tops.isEmpty()) {
                    throw new CommandDeniedException("Command " + Messages.quote(line) + " names "
                            + Messages.quote(argument) + ", a path from the top of a git work tree, but no repository "
                            + "lies inside the mounted entries where git runs, and git never looks above them. Name "
                            + "the path relative to the working directory.");
                }
                for (Path from : named.fromTop() ? tops : bases) {
                    resolved.add(check(argument, asTheKernelSeesIt(from, path), needed));
                }
            }
        }
        if (GitArguments.writes(argv)) {
            for (Path directory : bases) {
                resolved.add(check(".", directory, needed));
            }
            for (Path top : tops) {
                resolved.add(check(":/", top, needed));
            }
        }
    }

    /**
     * The top of the work tree git finds from {@code directory}: the nearest directory holding {@code .git},
     * looked for up to the root of the innermost entry, where the runner's {@code GIT_CEILING_DIRECTORIES}
     * stops git too.
     */
    private Optional<Path> workTreeTop(Path directory) {
        Path root = null;
        for (PathEntry entry : mounts.entries()) {
            if (directory.startsWith(entry.realPath())
                    && (root == null || entry.realPath().getNameCount() > root.getNameCount())) {
                root = entry.realPath();
            }
        }
        for (Path current = directory; root != null && current != null && current.startsWith(root);
             current = current.getParent()) {
            if (Files.exists(current.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
                return Optional.of(current);
            }
        }
        return Optional.empty();
    }

    private void refuseDirectoriesDiffFollows(List<String> argv, List<ResolvedPath> resolved) {
        for (String argument : argv) {
            if (argument.equals("--")) {
                break;
            }
            if (argument.length() > "--no-d".length() && "--no-dereference".startsWith(argument)) {
                return;
            }
        }
        for (ResolvedPath path : resolved) {
            if (Files.isDirectory(path.realPath(), LinkOption.NOFOLLOW_LINKS)) {
                throw new CommandDeniedException("Command " + Messages.quote(line) + " gives diff the directory "
                        + Messages.quote(path.virtualPath()) + ", and diff follows the symbolic links it finds in a "
                        + "directory, which can lead outside the mounted entries. Add --no-dereference to compare "
                        + "links as links, or compare the files one by one.");
            }
        }
    }

    /** The paths an argument may name. */
    private Set<String> candidates(String argument) {
        Set<String> paths = new LinkedHashSet<>();
        // the whole argument, even one that looks like an option: after '--' a program opens it as a file
        addPath(paths, argument);
        int eq = argument.indexOf('=');
        if (argument.startsWith("--")) {
            addPath(paths, eq < 0 ? argument.substring(2) : argument.substring(eq + 1));
        } else if (argument.startsWith("-") && argument.length() > 1) {
            int first = firstPathCharacter(argument);
            for (int k = 2; k <= first; k++) {
                if (k < 2 + MAX_CLUSTER_SUFFIXES || k == first) {
                    addIfPathLike(paths, argument.substring(k));
                }
            }
            // a glued value can also be a plain name ('tar -Clink'): every suffix that exists in a base
            for (int k = Math.max(2, argument.length() - MAX_NAME_LENGTH); k < argument.length(); k++) {
                addExistingName(paths, argument.substring(k));
            }
        } else if (eq >= 0) {
            addPath(paths, argument.substring(eq + 1));
        }
        return paths;
    }

    private void addPath(Set<String> paths, String text) {
        addIfPathLike(paths, text);
        addExistingName(paths, text);
        if (text.startsWith("@") && text.length() > 1) {
            // '@file' is read as a file by curl (-d @f, -F x=@f), tar (@archive), javac and gcc (@argfile)
            addPath(paths, text.substring(1));
        }
    }

    private void addExistingName(Set<String> paths, String text) {
        if (!text.isEmpty() && isExistingName(text)) {
            paths.add(text);
        }
    }

    private void addIfPathLike(Set<String> paths, String text) {
        String url = fileUrlPath(text);
        if (url != null) {
            paths.add(url);
        }
        if (text.startsWith("/") || text.startsWith("~") || text.contains("/") || text.equals("..")) {
            paths.add(text);
        }
    }

    /**
     * The path a {@code file:} URL names ({@code file:///x}, {@code file://localhost/x}, {@code file:/x},
     * {@code file:x}), percent-escapes decoded; {@code null} when {@code text} is no {@code file:} URL.
     */
    private String fileUrlPath(String text) {
        if (!text.regionMatches(true, 0, "file:", 0, "file:".length())) {
            return null;
        }
        String rest = text.substring("file:".length());
        if (rest.startsWith("//")) {
            int slash = rest.indexOf('/', 2);
            String host = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
            if (!host.isEmpty() && !host.equalsIgnoreCase("localhost")) {
                throw new CommandDeniedException("Command " + Messages.quote(line) + " names the URL "
                        + Messages.quote(text) + ", a file on another host, which it may not read. Name a file "
                        + "inside the mounted entries by its path.");
            }
            rest = slash < 0 ? "/" : rest.substring(slash);
        }
        return percentDecoded(rest);
    }

    private static String percentDecoded(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '%' && i + 2 < text.length()
                    && Character.digit(text.charAt(i + 1), 16) >= 0 && Character.digit(text.charAt(i + 2), 16) >= 0) {
                bytes.write(Character.digit(text.charAt(i + 1), 16) * 16 + Character.digit(text.charAt(i + 2), 16));
                i += 2;
            } else {
                byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private boolean isExistingName(String text) {
        if (text.contains("/")) {
            return false;
        }
        for (Path from : base == null ? List.<Path>of() : bases.isEmpty() ? List.of(base) : bases) {
            if (Files.exists(from.resolve(text), LinkOption.NOFOLLOW_LINKS)) {
                return true;
            }
        }
        return false;
    }

    private static int firstPathCharacter(String argument) {
        for (int k = 2; k < argument.length(); k++) {
            if ("/.~".indexOf(argument.charAt(k)) >= 0) {
                return k;
            }
        }
        return -1;
    }

    /**
     * Checks the real path {@code real} that {@code path} (as the agent wrote it) leads to, for
     * {@code permissions}. The model is told the path it wrote and the virtual path it leads to; the host path
     * goes to the audit detail.
     */
    private ResolvedPath check(String path, Path real, Permission[] permissions) {
        Optional<String> virtual = mounts.virtualPathOf(real);
        if (virtual.isEmpty()) {
            return outside(path, real, permissions);
        }
        ResolvedPath resolved;
        try {
            resolved = mounts.check(virtual.get(), permissions);
        } catch (MeroToolsException e) {
            String resolves = virtual.get().equals(path) ? "" : " (resolves to " + Messages.quote(virtual.get()) + ")";
            throw denied(path, resolves + ", which it may not " + verb(permissions) + ": " + e.getMessage(), real, e);
        }
        if (!resolved.realPath().equals(real)) {
            throw denied(path, ", which changed while it was being checked. Nothing was run; try again.", real, null);
        }
        return resolved;
    }

    /** A path that leads outside every entry: the agent's own text is all the model sees. */
    private ResolvedPath outside(String path, Path real, Permission[] permissions) {
        if (real.toString().equals(path)) {
            // the agent wrote this host path itself: the path core says why it is not covered
            ResolvedPath resolved;
            try {
                resolved = mounts.check(path, permissions);
            } catch (MeroToolsException e) {
                throw denied(path, ", which it may not " + verb(permissions) + ": " + e.getMessage(), real, e);
            }
            throw denied(path, ", which a program opens as the host path " + Messages.quote(path) + ", outside "
                    + "every mounted entry; programs do not understand mount paths such as " + Messages.quote(resolved.entry().mountPoint() + "/...")
                    + ". Give the path relative to the working directory.", real, null);
        }
        throw denied(path, ", which it may not " + verb(permissions) + ": it leads outside every mounted entry of "
                + "context " + Messages.quote(mounts.contextName()) + " (mounted: " + mounted() + ").", real, null);
    }

    private CommandDeniedException denied(String path, String rest, Path real, MeroToolsException cause) {
        CommandDeniedException denied = new CommandDeniedException("Command " + Messages.quote(line)
                + " names the path " + Messages.quote(path) + rest, cause);
        String detail = "resolves to " + Messages.quote(real.toString());
        if (cause != null && cause.auditDetail().isPresent()) {
            detail += "; " + cause.auditDetail().get();
        }
        denied.withAuditDetail(detail);
        return denied;
    }

    private void deniedWithoutMounts(String path) {
        try {
            mounts.check(path);
        } catch (MeroToolsException e) {
            throw (CommandDeniedException) new CommandDeniedException("Command " + Messages.quote(line)
                    + " names the path " + Messages.quote(path) + ", which it may not " + verb(needed) + ": "
                    + e.getMessage(), e).withAuditDetail(e.auditDetail().orElse(null));
        }
    }

    private String mounted() {
        StringJoiner joiner = new StringJoiner(", ");
        for (PathEntry entry : mounts.entries()) {
            joiner.add(Messages.quote(entry.mountPoint()));
        }
        return joiner.length() == 0 ? "none" : joiner.toString();
    }

    private static String verb(Permission[] permissions) {
        List<Permission> list = List.of(permissions);
        return list.contains(Permission.DELETE) ? "change or delete" : list.contains(Permission.WRITE) ? "write" : "read";
    }

    /** Resolves {@code path} from {@code from} component by component, following links as the kernel does. */
    private Path asTheKernelSeesIt(Path from, String written) {
        String path = written.startsWith("/") ? hostPathOf.apply(written) : written;
        Path current = path.startsWith("/") ? Path.of("/") : from;
        for (String name : path.split("/")) {
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                current = current.getParent() == null ? current : current.getParent();
                continue;
            }
            Path next = current.resolve(name);
            if (Files.exists(next)) {
                try {
                    current = next.toRealPath();
                } catch (IOException e) {
                    throw (CommandDeniedException) new CommandDeniedException("Command " + Messages.quote(line)
                            + " names the path " + Messages.quote(written) + ", which could not be resolved ("
                            + Messages.ioReason(e) + ").", e).withAuditDetail("at " + Messages.quote(next.toString()));
                }
            } else if (Files.isSymbolicLink(next)) {
                String shown = mounts.virtualPathOf(next).map(v -> " " + Messages.quote(v)).orElse("");
                throw (CommandDeniedException) new CommandDeniedException("Command " + Messages.quote(line)
                        + " names the path " + Messages.quote(written) + ", which goes through the symbolic link" + shown
                        + " whose target does not exist or loops; such a link is never followed.")
                        .withAuditDetail("symbolic link " + Messages.quote(next.toString()));
            } else {
                current = next;
            }
        }
        return current;
    }
}
