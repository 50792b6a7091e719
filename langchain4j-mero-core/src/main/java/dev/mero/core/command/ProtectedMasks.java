package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The {@code bwrap} arguments that hide a context's protected paths from a sandboxed command: every protected
 * file that exists in a mount when the command starts is covered by an empty regular file mounted read-only (it
 * reads as empty, cannot be written, and, as a mount point, cannot be removed or renamed), and every protected
 * directory by an empty read-only {@code tmpfs}. ({@code /dev/null} would not do: the sandbox's bind mounts do not
 * open devices, so programs would fail on it instead of reading nothing.) So {@code cat}, {@code grep -r}, {@code tar}, {@code cp -r}, {@code sort} or
 * {@code diff} in an allowed program read nothing of them, through a link or not.
 *
 * <p>The mounts are walked without following links, bounded by {@value #MAX_ENTRIES} entries and
 * {@value #MAX_MILLIS} ms in all; a walk that reaches a bound refuses the run (fail closed), since an unmasked
 * protected file could then be read. What the walk cannot see is not masked: a file created or renamed while the
 * command runs, a symbolic link named like a protected file (its target is judged on its own name), and content
 * that is also held elsewhere (a hard link, a copy, a git repository's history).
 */
final class ProtectedMasks {

    /** Most entries looked at in all mounts of one run. */
    static final int MAX_ENTRIES = 50_000;

    /** Longest the search for protected paths may take before a run. */
    static final long MAX_MILLIS = 5_000;

    private ProtectedMasks() {
    }

    /**
     * The arguments that mask the protected paths of a view, to follow its mounts.
     *
     * @param view the view, with or without protection
     * @return the arguments, empty when the view protects nothing or no protected path exists
     * @throws CommandDeniedException if the mounts are too large to search within the bounds
     */
    static List<String> arguments(SandboxView view) {
        return arguments(view, MAX_ENTRIES, MAX_MILLIS);
    }

    /** As {@link #arguments(SandboxView)}, within the given bounds; tests use small ones. */
    static List<String> arguments(SandboxView view, int maxEntries, long maxMillis) {
        Optional<Function<Path, Optional<String>>> protection = view.protection();
        if (protection.isEmpty()) {
            return List.of();
        }
        Set<Path> otherSources = new HashSet<>();
        for (SandboxView.Mount mount : view.mounts()) {
            otherSources.add(mount.source());
        }
        Search search = new Search(protection.get(), otherSources, maxEntries, maxMillis);
        Map<Path, List<Found>> bySource = new HashMap<>();
        List<String> argv = new ArrayList<>();
        String empty = null;
        for (SandboxView.Mount mount : view.mounts()) {
            if (mount.mode() == SandboxView.Mode.MASKED) {
                continue;
            }
            List<Found> found = bySource.computeIfAbsent(mount.source(), search::protectedBelow);
            for (Found entry : found) {
                String target = mount.target() + "/" + entry.relative();
                if (entry.directory()) {
                    argv.addAll(List.of("--tmpfs", target, "--remount-ro", target));
                } else {
                    if (empty == null) {
                        empty = EmptyFile.path().toString();
                    }
                    argv.addAll(List.of("--ro-bind", empty, target));
                }
            }
        }
        return argv;
    }

    /** A protected entry below a mount's source. */
    record Found(String relative, boolean directory) {
    }

    /** One bounded search over the mounts of a run. */
    private static final class Search {

        private final Function<Path, Optional<String>> protection;
        private final Set<Path> mountSources;
        private final int maxEntries;
        private final long maxMillis;
        private final long deadline;
        private int entries;

        Search(Function<Path, Optional<String>> protection, Set<Path> mountSources, int maxEntries, long maxMillis) {
            this.protection = protection;
            this.mountSources = mountSources;
            this.maxEntries = maxEntries;
            this.maxMillis = maxMillis;
            this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
        }

        /** The protected entries below a source, which is not entered where another mount covers it. */
        List<Found> protectedBelow(Path source) {
            List<Found> found = new ArrayList<>();
            Deque<Path> directories = new ArrayDeque<>();
            directories.push(source);
            while (!directories.isEmpty()) {
                Path directory = directories.pop();
                try (DirectoryStream<Path> names = Files.newDirectoryStream(directory)) {
                    for (Path path : names) {
                        count();
                        BasicFileAttributes attributes = attributes(path);
                        if (attributes == null || attributes.isSymbolicLink()) {
                            continue; // a link is judged by its target, which is masked where it is protected
                        }
                        if (protection.apply(path).isPresent()) {
                            found.add(new Found(source.relativize(path).toString(), attributes.isDirectory()));
                        } else if (attributes.isDirectory() && !mountSources.contains(path)) {
                            directories.push(path);
                        }
                    }
                } catch (IOException e) {
                    // an unreadable directory is unreadable inside the sandbox too
                }
            }
            return found;
        }

        private void count() {
            entries++;
            if (entries > maxEntries || System.nanoTime() - deadline > 0) {
                throw new CommandDeniedException("The command cannot run: its mounts hold too many entries to find "
                        + "every protected file within the bound (" + maxEntries + " entries, " + maxMillis + " ms) "
                        + "before the run, and the sandbox must hide them all. Nothing ran; ask the operator to "
                        + "mount smaller directories.");
            }
        }

        private static BasicFileAttributes attributes(Path path) {
            try {
                return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                return null;
            }
        }
    }
}
