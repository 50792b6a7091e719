package dev.mero.core.command;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The file system a sandboxed command sees, computed from a context's entries: which host directory is
 * mounted where inside the sandbox, read-write, read-only or masked by an empty read-only directory.
 *
 * <p>An entry's effective permissions at its root are its allowed ones, capped by the context's ceiling,
 * minus what it or any entry containing it denies (the rules of {@link dev.mero.core.SecurityContext}). An
 * entry granting READ and WRITE or DELETE is mounted read-write, one granting READ alone read-only, one
 * without READ not at all (a program cannot be given a directory to write without letting it read), at
 * {@code /<slug>}; at its place inside every mounted entry that contains it, it is mounted again
 * with its own mode, or masked when it is not mounted. Mounts come parents first, so a nested mount lands on
 * top of its parent's.
 *
 * <p>Instances are immutable.
 */
final class SandboxView {

    /** How a directory appears inside the sandbox. */
    enum Mode {
        READ_WRITE, READ_ONLY, MASKED
    }

    /**
     * One mount.
     *
     * @param source the host directory (unused for a mask)
     * @param target the absolute path inside the sandbox
     * @param mode   how it appears
     */
    record Mount(Path source, String target, Mode mode) {
    }

    /** A host directory and where it is visible, used to translate host paths into sandbox paths. */
    private record Place(Path source, String target, boolean visible) {
    }

    private final List<Mount> mounts;
    private final List<Place> places;
    /** The context's protected paths by canonical host path, which {@link ProtectedMasks} hides; none if null. */
    private final Function<Path, Optional<String>> protection;

    private SandboxView(List<Mount> mounts, List<Place> places) {
        this(mounts, places, null);
    }

    private SandboxView(List<Mount> mounts, List<Place> places, Function<Path, Optional<String>> protection) {
        this.protection = protection;
        List<Mount> ordered = new ArrayList<>(mounts);
        ordered.sort(Comparator.comparingInt(mount -> depth(mount.target())));
        this.mounts = List.copyOf(ordered);
        this.places = List.copyOf(places);
    }

    /**
     * The view of a context.
     *
     * @param entries the context's entries
     * @param ceiling the context's permission ceiling
     * @return the view
     */
    static SandboxView of(List<PathEntry> entries, Set<Permission> ceiling) {
        List<Mount> mounts = new ArrayList<>();
        List<Place> places = new ArrayList<>();
        for (PathEntry entry : entries) {
            Mode mode = mode(entry, entries, ceiling);
            if (mode != Mode.MASKED) {
                mounts.add(new Mount(entry.realPath(), entry.mountPoint(), mode));
            }
            places.add(new Place(entry.realPath(), entry.mountPoint(), mode != Mode.MASKED));
            for (PathEntry container : entries) {
                if (containsStrictly(container, entry) && mode(container, entries, ceiling) != Mode.MASKED
                        && !maskedBetween(container, entry, entries, ceiling)) {
                    String target = container.mountPoint() + "/" + container.realPath().relativize(entry.realPath());
                    mounts.add(new Mount(entry.realPath(), target, mode));
                }
            }
        }
        return new SandboxView(mounts, places);
    }

    /**
     * The view of a runner called without a context: one directory, read-write, at its own path.
     *
     * @param directory an absolute, existing directory
     * @return the view
     */
    static SandboxView directory(Path directory) {
        return new SandboxView(List.of(new Mount(directory, directory.toString(), Mode.READ_WRITE)),
                List.of(new Place(directory, directory.toString(), true)));
    }

    /**
     * This view, hiding the protected files and directories that exist in its mounts when a command starts.
     *
     * @param protection the glob covering a canonical host path, empty when none does
     * @return the view with its protection
     */
    SandboxView protecting(Function<Path, Optional<String>> protection) {
        return new SandboxView(mounts, places, Objects.requireNonNull(protection, "protection"));
    }

    /**
     * What the view protects.
     *
     * @return the glob covering a canonical host path, or empty when the view protects nothing
     */
    Optional<Function<Path, Optional<String>>> protection() {
        return Optional.ofNullable(protection);
    }

    /**
     * The mounts, parents before the mounts nested in them.
     *
     * @return an immutable list
     */
    List<Mount> mounts() {
        return mounts;
    }

    /**
     * The first path components the view occupies at the sandbox root ({@code ws} for {@code /ws}).
     *
     * @return the names, in order
     */
    Set<String> topLevelNames() {
        Set<String> names = new LinkedHashSet<>();
        for (Mount mount : mounts) {
            names.add(Path.of(mount.target()).getName(0).toString());
        }
        return names;
    }

    /**
     * Where a host path is visible inside the sandbox: below the innermost place containing it, when that
     * place is mounted.
     *
     * @param hostPath a canonical absolute host path
     * @return the sandbox path, or empty when the sandbox does not show it
     */
    Optional<String> locate(Path hostPath) {
        Place best = null;
        for (Place place : places) {
            if (hostPath.startsWith(place.source())
                    && (best == null || place.source().getNameCount() > best.source().getNameCount())) {
                best = place;
            }
        }
        if (best == null || !best.visible()) {
            return Optional.empty();
        }
        Path rest = best.source().relativize(hostPath);
        return Optional.of(rest.toString().isEmpty() ? best.target() : best.target() + "/" + rest);
    }

    /**
     * The host path a program inside the sandbox opens for an absolute path: the source of the innermost
     * mount holding it joined with the rest. Relative paths, and absolute ones outside every mount, come back
     * unchanged (the sandbox does not show them at all, which the caller's check then finds out).
     *
     * @param sandboxPath a path as a program in the sandbox names it
     * @return the host path it stands for
     */
    String hostPath(String sandboxPath) {
        if (!sandboxPath.startsWith("/")) {
            return sandboxPath;
        }
        Path path = Path.of(sandboxPath);
        Mount best = null;
        for (Mount mount : mounts) {
            if (path.startsWith(mount.target())
                    && (best == null || depth(mount.target()) > depth(best.target()))) {
                best = mount;
            }
        }
        if (best == null) {
            return sandboxPath;
        }
        Path rest = Path.of(best.target()).relativize(path);
        return rest.toString().isEmpty() ? best.source().toString() : best.source().resolve(rest).toString();
    }

    private static Mode mode(PathEntry entry, List<PathEntry> entries, Set<Permission> ceiling) {
        EnumSet<Permission> effective = EnumSet.noneOf(Permission.class);
        effective.addAll(entry.allowed());
        effective.retainAll(ceiling);
        for (PathEntry other : entries) {
            if (entry.realPath().startsWith(other.realPath())) {
                effective.removeAll(other.denied());
            }
        }
        if (!effective.contains(Permission.READ)) {
            return Mode.MASKED; // a program cannot be offered a write-only directory without letting it read
        }
        return effective.contains(Permission.WRITE) || effective.contains(Permission.DELETE)
                ? Mode.READ_WRITE : Mode.READ_ONLY;
    }

    /** Whether an entry that is not mounted lies between the container and the entry nested in it. */
    private static boolean maskedBetween(PathEntry container, PathEntry entry, List<PathEntry> entries,
                                         Set<Permission> ceiling) {
        for (PathEntry middle : entries) {
            if (containsStrictly(container, middle) && containsStrictly(middle, entry)
                    && mode(middle, entries, ceiling) == Mode.MASKED) {
                return true;
            }
        }
        return false;
    }

    private static boolean containsStrictly(PathEntry outer, PathEntry inner) {
        return inner.realPath().startsWith(outer.realPath()) && !inner.realPath().equals(outer.realPath());
    }

    private static int depth(String target) {
        return Path.of(target).getNameCount();
    }
}
