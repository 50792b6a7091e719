package dev.mero.core.command;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The cgroups of one sandboxed run: a v1 memory cgroup and a v1 pids cgroup named {@code mero-<uuid>}, created
 * below the JVM's own, holding {@code bwrap} and everything it starts. The {@link RunStarter}'s thread stands in
 * them before the run (cgroup v1 places single threads), so the new process is born inside; then it moves on,
 * and {@link #vacated()} says so. Afterwards the cgroups tell which limit was hit and are removed.
 */
final class RunCgroup implements AutoCloseable {

    private static final Logger LOGGER = LoggerFactory.getLogger(RunCgroup.class);
    private static final long REMOVE_WAIT_MILLIS = 5_000;
    private static final long POLL_MILLIS = 10;
    private static final long OWN_PID = ProcessHandle.current().pid();
    /** The run cgroups this JVM made and has not removed yet: what it alone may be judged by. */
    private static final Set<Path> MADE = ConcurrentHashMap.newKeySet();

    private final CgroupSupport.Layout layout;
    private final Path memory;
    private final Path pids;
    private final CountDownLatch vacated = new CountDownLatch(1);
    private boolean interrupted;

    private RunCgroup(CgroupSupport.Layout layout, Path memory, Path pids) {
        this.layout = layout;
        this.memory = memory;
        this.pids = pids;
    }

    /**
     * Creates the (empty) cgroups of a run, without limits yet.
     *
     * @throws IOException if a directory cannot be created; whatever was created is removed
     */
    static RunCgroup create(CgroupSupport.Layout layout) throws IOException {
        String name = "mero-" + UUID.randomUUID();
        RunCgroup cgroup = new RunCgroup(layout, layout.memoryParent().resolve(name),
                layout.pidsParent().resolve(name));
        try {
            for (Path directory : cgroup.directories()) {
                Files.createDirectory(directory);
                MADE.add(directory);
            }
        } catch (IOException | RuntimeException e) {
            cgroup.vacated();
            cgroup.close();
            throw e;
        }
        return cgroup;
    }

    /**
     * Sets the run's limits.
     *
     * @throws IOException if a limit cannot be written
     */
    void limit(SandboxLimits limits) throws IOException {
        write(memory.resolve("memory.limit_in_bytes"), Long.toString(limits.memoryBytes()));
        // without swap accounting the file is absent; with it, swap must not extend the limit
        Path swap = memory.resolve("memory.memsw.limit_in_bytes");
        if (Files.exists(swap)) {
            write(swap, Long.toString(limits.memoryBytes()));
        }
        write(pids.resolve("pids.max"), Integer.toString(limits.processes()));
    }

    /** Says that the starter's thread has left (or never joined): from now on only the run's processes are here. */
    void vacated() {
        vacated.countDown();
    }

    /**
     * Moves the calling thread into the run's cgroups: processes it starts are born in them.
     *
     * @throws IOException if the kernel refuses the move
     */
    void enter() throws IOException {
        String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        write(memory.resolve("tasks"), tid);
        write(pids.resolve("tasks"), tid);
    }

    /**
     * Moves every thread of this JVM that is in the run's cgroups back to the JVM's own. A thread that cannot
     * be moved back is logged: it stays bounded by the run's limits, and the run's cgroups cannot be removed.
     */
    void leave() {
        moveThreadsBack(memory, layout.memoryParent());
        moveThreadsBack(pids, layout.pidsParent());
    }

    private static void moveThreadsBack(Path cgroup, Path parent) {
        List<String> tids;
        try {
            tids = Files.readAllLines(cgroup.resolve("tasks"), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return; // never created, or already gone
        }
        for (String tid : tids) {
            if (!tid.isBlank() && Files.exists(Path.of("/proc/self/task", tid.strip()))) {
                try {
                    write(parent.resolve("tasks"), tid.strip());
                } catch (IOException e) {
                    LOGGER.error("The command sandbox could not move thread {} back from the cgroup {}: {}", tid,
                            cgroup, e.toString());
                }
            }
        }
    }

    /**
     * Whether a process is in both of the run's cgroups, as {@code /proc/<pid>/cgroup} says.
     *
     * @param pid the process
     * @return {@code true} if it is in both
     */
    boolean holds(long pid) {
        try {
            String memberships = Files.readString(Path.of("/proc", Long.toString(pid), "cgroup"));
            String name = memory.getFileName().toString();
            return memberships.lines().filter(line -> line.endsWith("/" + name)).count() == 2;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Which limit the run hit, read from the cgroups' event counters: memory when the kernel killed a process
     * for it, processes when a fork or clone failed for it.
     *
     * @return the limit, or empty when none was hit
     */
    Optional<SandboxLimits.Kind> exceeded() {
        if (counter(memory.resolve("memory.oom_control"), "oom_kill") > 0) {
            return Optional.of(SandboxLimits.Kind.MEMORY);
        }
        if (counter(pids.resolve("pids.events"), "max") > 0) {
            return Optional.of(SandboxLimits.Kind.PROCESSES);
        }
        return Optional.empty();
    }

    /**
     * Whether the run's memory reached its limit at least once (the kernel then reclaims, or kills when it
     * cannot): with a process killed by {@code SIGKILL}, the limit is what killed it even before the
     * {@code oom_kill} counter shows it.
     *
     * @return {@code true} if the limit was reached
     */
    boolean memoryLimitReached() {
        try {
            return Long.parseLong(Files.readString(memory.resolve("memory.failcnt")).strip()) > 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Whether the thread was interrupted while {@link #close()} waited; the caller restores the flag. */
    boolean wasInterrupted() {
        return interrupted;
    }

    /**
     * Removes the cgroups once the starter's thread has left them, waiting for the kernel to let go of the run's
     * last processes. It never gives up while a process is still in them: such a process (one the run's teardown
     * did not reach) is killed and waited for. A cgroup that holds no process and still cannot be removed within
     * a bound is logged, not thrown (the run's result stands; the next JVM's start removes it).
     */
    @Override
    public void close() {
        try {
            if (!vacated.await(REMOVE_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                LOGGER.warn("The command sandbox's starter did not leave the cgroup {} in time", memory);
            }
        } catch (InterruptedException e) {
            interrupted = true;
        }
        for (Path directory : directories()) {
            long deadline = System.nanoTime() + REMOVE_WAIT_MILLIS * 1_000_000L;
            long pause = 1;
            while (Files.exists(directory)) {
                try {
                    Files.delete(directory);
                } catch (IOException e) {
                    if (killProcessesIn(directory) > 0) {
                        deadline = System.nanoTime() + REMOVE_WAIT_MILLIS * 1_000_000L;
                    } else if (System.nanoTime() - deadline >= 0) {
                        LOGGER.warn("The command sandbox could not remove the cgroup {}: {}", directory, e.toString());
                        break;
                    }
                    interrupted |= UninterruptibleWait.sleep(pause);
                    pause = Math.min(POLL_MILLIS, pause * 2);
                }
            }
            if (!Files.exists(directory)) {
                MADE.remove(directory);
            }
        }
    }

    /**
     * The run cgroups this JVM made that still exist (the starter's standby ones included): other JVMs on the
     * machine make theirs in the same parents, so a check for leftovers judges these only.
     *
     * @return the directories, a copy
     */
    static List<Path> madeAndStillThere() {
        return MADE.stream().filter(Files::exists).toList();
    }

    /**
     * Kills the processes still in a run's cgroup (never this JVM): each is checked to be in the run's cgroup
     * right before it is killed, and a handle's start time guards against a reused process id.
     *
     * @return how many processes were found
     */
    static int killProcessesIn(Path cgroup) {
        List<String> pids;
        try {
            pids = Files.readAllLines(cgroup.resolve("cgroup.procs"), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            return 0;
        }
        int found = 0;
        String suffix = "/" + cgroup.getFileName();
        for (String line : pids) {
            long pid;
            try {
                pid = Long.parseLong(line.strip());
            } catch (NumberFormatException e) {
                continue;
            }
            if (pid == OWN_PID) {
                continue;
            }
            found++;
            ProcessHandle.of(pid).ifPresent(process -> {
                if (memberOf(pid, suffix)) {
                    process.destroyForcibly();
                }
            });
        }
        return found;
    }

    private static boolean memberOf(long pid, String suffix) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "cgroup")).lines()
                    .anyMatch(line -> line.endsWith(suffix));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The run's two cgroup directories. */
    List<Path> directories() {
        return List.of(memory, pids);
    }

    /** A named counter of a flat-keyed cgroup file ({@code oom_kill 1}), 0 when absent or unreadable. */
    static long counter(Path file, String key) {
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                String[] fields = line.trim().split("\\s+");
                if (fields.length == 2 && fields[0].equals(key)) {
                    return Long.parseLong(fields[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    private static void write(Path file, String value) throws IOException {
        Files.writeString(file, value, StandardCharsets.US_ASCII);
    }
}
