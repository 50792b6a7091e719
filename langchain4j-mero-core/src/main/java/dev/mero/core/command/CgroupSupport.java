package dev.mero.core.command;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds, once per JVM, where this process may create cgroups that bound a run's memory and processes: the
 * JVM's own cgroups in the cgroup v1 {@code memory} and {@code pids} hierarchies, when both are writable (as
 * for root on a v1 or hybrid machine). A run's cgroup is created below the JVM's own, so whatever limits the
 * JVM's cgroup has still apply to it. Cgroup v2 is not used: a v2 cgroup takes whole processes only, and a
 * JVM cannot start a process directly into one.
 */
final class CgroupSupport {

    private static final Optional<Layout> DETECTED = detect(Path.of("/proc/self/mountinfo"),
            Path.of("/proc/self/cgroup"));

    /**
     * Where a run's cgroups go: the JVM's own cgroups, which its threads return to.
     *
     * @param memoryParent the JVM's cgroup in the {@code memory} hierarchy
     * @param pidsParent   the JVM's cgroup in the {@code pids} hierarchy
     */
    record Layout(Path memoryParent, Path pidsParent) {
    }

    private CgroupSupport() {
    }

    /**
     * The layout of this machine, probed once.
     *
     * @return the layout, or empty when no writable memory and pids cgroups are delegated to this process
     */
    static Optional<Layout> layout() {
        return DETECTED;
    }

    /** Probes the given {@code mountinfo} and {@code cgroup} files; a test passes its own. */
    static Optional<Layout> detect(Path mountInfo, Path ownCgroups) {
        List<String> mounts;
        List<String> membership;
        try {
            mounts = Files.readAllLines(mountInfo, StandardCharsets.UTF_8);
            membership = Files.readAllLines(ownCgroups, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        Map<String, String> ownPaths = new HashMap<>(); // controller list ("memory", "pids", "" for v2) -> path
        for (String line : membership) {
            String[] fields = line.split(":", 3);
            if (fields.length == 3) {
                for (String controller : fields[1].split(",")) {
                    ownPaths.put(controller, fields[2]);
                }
            }
        }
        Optional<Path> memory = version1(mounts, ownPaths, "memory");
        Optional<Path> pids = version1(mounts, ownPaths, "pids");
        if (memory.isPresent() && pids.isPresent()) {
            return Optional.of(new Layout(memory.get(), pids.get()));
        }
        return Optional.empty();
    }

    private static Optional<Path> version1(List<String> mounts, Map<String, String> ownPaths, String controller) {
        String own = ownPaths.get(controller);
        for (String line : mounts) {
            Mount mount = Mount.parse(line);
            if (mount != null && mount.type().equals("cgroup")
                    && List.of(mount.superOptions().split(",")).contains(controller) && own != null) {
                return writable(mount.directoryOf(own));
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> writable(Path directory) {
        if (directory != null && Files.isDirectory(directory) && Files.isWritable(directory)
                && Files.isWritable(directory.resolve("cgroup.procs"))) {
            return Optional.of(directory);
        }
        return Optional.empty();
    }

    /** The fields of one {@code mountinfo} line this class needs. */
    private record Mount(String root, Path mountPoint, String type, String superOptions) {

        static Mount parse(String line) {
            String[] halves = line.split(" - ", 2);
            if (halves.length != 2) {
                return null;
            }
            String[] before = halves[0].split(" ");
            String[] after = halves[1].split(" ");
            if (before.length < 5 || after.length < 3) {
                return null;
            }
            return new Mount(before[3], Path.of(before[4]), after[0], after[2]);
        }

        /** The directory of a cgroup path as this mount shows it, or null when the mount does not show it. */
        Path directoryOf(String cgroupPath) {
            Path path = Path.of(cgroupPath);
            Path mountRoot = Path.of(root);
            if (!path.isAbsolute() || !path.startsWith(mountRoot)) {
                return null;
            }
            return mountPoint.resolve(mountRoot.relativize(path).toString());
        }
    }
}
