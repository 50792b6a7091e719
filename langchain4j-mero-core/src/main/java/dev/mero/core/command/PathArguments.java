package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.Messages;
import dev.mero.core.Permission;
import dev.mero.core.ResolvedPath;
import dev.mero.core.SecurityContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

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
 *       file.</li>
 * </ul>
 *
 * <p>A path is resolved the way the kernel will: relative to the base directory (the command's working
 * directory), every symbolic link followed component by component, and {@code ..} applied to the directory
 * a link led to, not lexically. The result must then pass
 * {@link SecurityContext#checkPathAccess(String, Permission...)} for READ as a host path and resolve to
 * itself. Inside the command sandbox a program sees the mounts at their virtual paths, so an absolute
 * argument there is first translated from the sandbox's view ({@code /ws/notes.txt}) to the host path it
 * shows; without the sandbox the agent's mount paths are refused in commands, because a program would open
 * that host path rather than the mount.
 */
final class PathArguments {

    /** Suffixes of a short-option cluster tried before the first path character (a longer cluster is unusual). */
    private static final int MAX_CLUSTER_SUFFIXES = 16;
    /** A file name is at most 255 bytes (NAME_MAX), so no longer suffix can name an existing file. */
    private static final int MAX_NAME_LENGTH = 255;

    private final SecurityContext context;
    private final String line;
    private final Path base;
    private final Permission[] needed;
    private final SandboxView sandbox;

    /**
     * @param base   the real directory relative paths resolve against, or {@code null} when the context mounts
     *               nothing (then every path argument is refused)
     * @param needed what each path argument needs: READ, plus WRITE and DELETE for programs that change files
     * @param sandbox the view the program will see, or {@code null} when it runs without the sandbox
     */
    PathArguments(SecurityContext context, String line, Path base, Set<Permission> needed, SandboxView sandbox) {
        this.context = context;
        this.line = line;
        this.base = base;
        this.needed = needed.toArray(new Permission[0]);
        this.sandbox = sandbox;
    }

    /**
     * Checks every argument after the program.
     *
     * @return the paths the arguments name, as checked (empty when the context mounts nothing)
     */
    List<ResolvedPath> check(List<String> argv) {
        List<ResolvedPath> resolved = new ArrayList<>();
        for (String argument : argv.subList(1, argv.size())) {
            for (String path : candidates(argument)) {
                ResolvedPath target = check(path);
                if (target != null) {
                    resolved.add(target);
                }
            }
        }
        return resolved;
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
            // a glued value can also be a plain name ('tar -Clink'): every suffix that exists in the base
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
    }

    private void addExistingName(Set<String> paths, String text) {
        if (!text.isEmpty() && base != null && isExistingName(text)) {
            paths.add(text);
        }
    }

    private static void addIfPathLike(Set<String> paths, String text) {
        if (text.startsWith("/") || text.startsWith("~") || text.contains("/") || text.equals("..")) {
            paths.add(text);
        }
    }

    private boolean isExistingName(String text) {
        if (text.contains("/")) {
            return false;
        }
        return Files.exists(base.resolve(text), LinkOption.NOFOLLOW_LINKS);
    }

    private static int firstPathCharacter(String argument) {
        for (int k = 2; k < argument.length(); k++) {
            if ("/.~".indexOf(argument.charAt(k)) >= 0) {
                return k;
            }
        }
        return -1;
    }

    private ResolvedPath check(String path) {
        if (base == null) {
            denied(path, null, context::checkPath);
            return null;
        }
        Path real = asTheKernelSeesIt(sandbox == null ? path : sandbox.hostPath(path));
        ResolvedPath resolved = denied(path, real, p -> context.checkPathAccess(p, needed));
        if (!resolved.realPath().equals(real)) {
            throw new CommandDeniedException("Command " + Messages.quote(line) + " names the path "
                    + Messages.quote(path) + ", which a program opens as the host path "
                    + Messages.quote(real.toString()) + ", outside every mounted entry; programs do not understand "
                    + "mount paths such as " + Messages.quote(resolved.entry().mountPoint() + "/...")
                    + ". Give the path relative to the working directory.");
        }
        return resolved;
    }

    private ResolvedPath denied(String path, Path real, Function<String, ResolvedPath> checker) {
        try {
            return checker.apply(real == null ? path : real.toString());
        } catch (MeroToolsException e) {
            String resolves = real == null || real.toString().equals(path) ? ""
                    : " (resolves to " + Messages.quote(real.toString()) + ")";
            throw new CommandDeniedException("Command " + Messages.quote(line) + " names the path "
                    + Messages.quote(path) + resolves + ", which it may not " + verb() + ": " + e.getMessage(), e);
        }
    }

    private String verb() {
        List<Permission> list = List.of(needed);
        return list.contains(Permission.DELETE) ? "change or delete" : list.contains(Permission.WRITE) ? "write" : "read";
    }

    /** Resolves {@code path} component by component, following links as the kernel does. */
    private Path asTheKernelSeesIt(String path) {
        Path current = path.startsWith("/") ? Path.of("/") : base;
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
                    throw new CommandDeniedException("Command " + Messages.quote(line) + " names the path "
                            + Messages.quote(path) + ", which could not be resolved ("
                            + Messages.ioReason(e) + ").", e);
                }
            } else if (Files.isSymbolicLink(next)) {
                throw new CommandDeniedException("Command " + Messages.quote(line) + " names the path "
                        + Messages.quote(path) + ", which goes through the symbolic link "
                        + Messages.quote(next.toString()) + " whose target does not exist or loops; such a link is "
                        + "never followed.");
            } else {
                current = next;
            }
        }
        return current;
    }
}
