package dev.mero.core.command;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Starts sandboxed processes inside their run's cgroups from one long-lived thread that is already in the next
 * run's (empty) cgroups when a run asks for it. Moving a thread between cgroups makes the kernel wait for an RCU
 * grace period (milliseconds on a loaded machine) whenever no other move happened just before; the thread that
 * joined the run's cgroups before every start paid that wait on every run. Here the starter forks the run's
 * {@code bwrap} where it stands, hands the process over, and only then moves on into fresh cgroups for the next
 * run, while the run goes on: the wait overlaps the run instead of preceding it. {@link RunCgroup#close()}
 * waits for that move before it removes the run's cgroups.
 *
 * <p>The starter lives as long as the JVM, which {@code bwrap --die-with-parent} needs (the signal follows the
 * thread that forked). At start it removes run cgroups that an earlier JVM left behind (empty ones named like
 * its own, older than a minute, so another JVM's cgroup that is about to be joined is never taken); at exit it
 * leaves and removes the cgroups it waits in.
 */
final class RunStarter {

    private static final Logger LOGGER = LoggerFactory.getLogger(RunStarter.class);
    private static final Map<CgroupSupport.Layout, RunStarter> STARTERS = new ConcurrentHashMap<>();
    /** The names {@link RunCgroup} gives: what the sweep may remove, nothing else. */
    static final Pattern RUN_CGROUP_NAME = Pattern.compile(
            "mero-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    /** A run cgroup this young may belong to a JVM that is about to join it. */
    static final Duration SWEEP_MIN_AGE = Duration.ofMinutes(1);
    private static final long RETIRE_WAIT_MILLIS = 2_000;

    private final CgroupSupport.Layout layout;
    private final BlockingQueue<Request> requests = new LinkedBlockingQueue<>();
    /** The cgroups the starter thread stands in, ready for the next run; null when it stands in the JVM's own. */
    private volatile RunCgroup standby;
    /** Set at JVM exit: from then on the starter waits in the JVM's own cgroups, leaving none behind. */
    private volatile boolean retired;

    private RunStarter(CgroupSupport.Layout layout) {
        this.layout = layout;
    }

    /**
     * The starter of a layout, created (with its thread, its sweep and its exit hook) on first use.
     *
     * @param layout where the runs' cgroups go
     * @return the starter
     */
    static RunStarter of(CgroupSupport.Layout layout) {
        return STARTERS.computeIfAbsent(layout, key -> {
            sweep(key.memoryParent(), SWEEP_MIN_AGE);
            sweep(key.pidsParent(), SWEEP_MIN_AGE);
            RunStarter starter = new RunStarter(key);
            Thread thread = new Thread(starter::serve, "mero-sandbox-starter");
            thread.setDaemon(true);
            thread.start();
            Runtime.getRuntime().addShutdownHook(new Thread(starter::retire, "mero-sandbox-starter-exit"));
            return starter;
        });
    }

    /**
     * Starts a process inside fresh cgroups with the given limits.
     *
     * @param builder the prepared process
     * @param limits  the run's limits
     * @return the run's cgroups (to close once the run is over) and its process
     * @throws IOException if the cgroups cannot be prepared ({@link SandboxRunLimits#failure}) or the process
     *                     cannot start; nothing then runs
     */
    Started start(ProcessBuilder builder, SandboxLimits limits) throws IOException {
        Request request = new Request(builder, limits);
        requests.add(request);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return request.result.get();
                } catch (InterruptedException e) {
                    // the process may be starting: the caller must get it, to end it
                    interrupted = true;
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof IOException failure) {
                        throw failure;
                    }
                    if (e.getCause() instanceof RuntimeException failure) {
                        throw failure;
                    }
                    throw SandboxRunLimits.failure(e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A started run: its cgroups and its process. */
    record Started(RunCgroup cgroup, Process process) {
    }

    private record Request(ProcessBuilder builder, SandboxLimits limits, CompletableFuture<Started> result) {
        Request(ProcessBuilder builder, SandboxLimits limits) {
            this(builder, limits, new CompletableFuture<>());
        }
    }

    private void serve() {
        while (true) {
            try {
                if (standby == null && !retired) {
                    standby = moveInto(null);
                }
                Request request = requests.take();
                if (request.builder() == null) {
                    retired = true;
                    leaveStandby();
                    request.result().complete(null);
                    continue;
                }
                handle(request);
            } catch (InterruptedException e) {
                // nobody interrupts this thread on purpose: keep serving
            } catch (RuntimeException | Error e) {
                LOGGER.error("The command sandbox's starter failed: {}", e.toString());
            }
        }
    }

    private void handle(Request request) {
        RunCgroup group = standby;
        if (group == null) {
            try {
                group = RunCgroup.create(layout);
                group.enter();
            } catch (IOException | RuntimeException e) {
                if (group != null) {
                    group.leave();
                    group.vacated();
                    group.close();
                }
                request.result().completeExceptionally(SandboxRunLimits.failure(e));
                return;
            }
        }
        standby = null;
        Exception failure = null;
        try {
            try {
                group.limit(request.limits());
            } catch (IOException | RuntimeException e) {
                throw SandboxRunLimits.failure(e);
            }
            request.result().complete(new Started(group, request.builder().start()));
        } catch (IOException | RuntimeException e) {
            failure = e;
        } finally {
            // on to the next run's cgroups while this run goes on; a thread the JDK created meanwhile (its process
            // reaper) goes back to the JVM's own
            standby = retired ? null : moveInto(group);
            group.leave();
            group.vacated();
            if (failure != null || !request.result().isDone()) {
                // a failed start's cgroups are gone before its caller hears of it
                group.close();
                request.result().completeExceptionally(failure != null ? failure
                        : new IllegalStateException("the sandbox's starter failed"));
            }
        }
    }

    /**
     * Creates fresh cgroups and moves this thread into them (from the run's, or from the JVM's own); if that
     * fails, this thread returns to the JVM's own.
     */
    private RunCgroup moveInto(RunCgroup from) {
        RunCgroup next = null;
        try {
            next = RunCgroup.create(layout);
            next.enter();
            return next;
        } catch (IOException | RuntimeException e) {
            if (next != null) {
                next.leave();
                next.vacated();
                next.close();
            }
            if (from != null) {
                from.leave();
            }
            return null;
        }
    }

    private void leaveStandby() {
        RunCgroup current = standby;
        standby = null;
        if (current != null) {
            current.leave();
            current.vacated();
            current.close();
        }
    }

    /** At JVM exit: the starter leaves its standby cgroups, which are removed. */
    private void retire() {
        Request retire = new Request(null, null);
        requests.add(retire);
        try {
            retire.result().get(RETIRE_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            // the exit goes on; the next JVM's sweep removes what is left
        }
    }

    /**
     * Removes the empty run cgroups below a parent that are older than the given age and named as this class
     * names them. A cgroup that holds a task cannot be removed (the kernel refuses), so a run in progress, or a
     * starter waiting in its cgroups, is never disturbed.
     *
     * @param parent the JVM's cgroup in one hierarchy
     * @param minAge how old a cgroup must be to be removed
     * @return how many were removed
     */
    static int sweep(Path parent, Duration minAge) {
        Instant before = Instant.now().minus(minAge);
        int removed = 0;
        try (DirectoryStream<Path> children = Files.newDirectoryStream(parent)) {
            for (Path child : children) {
                if (RUN_CGROUP_NAME.matcher(child.getFileName().toString()).matches() && older(child, before)) {
                    try {
                        Files.delete(child);
                        removed++;
                    } catch (IOException e) {
                        // busy, or gone meanwhile
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return removed;
        }
        if (removed > 0) {
            LOGGER.info("The command sandbox removed {} empty run cgroups left below {} by an earlier process.",
                    removed, parent);
        }
        return removed;
    }

    private static boolean older(Path cgroup, Instant before) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(cgroup, BasicFileAttributes.class);
            return attributes.isDirectory() && attributes.lastModifiedTime().toInstant().isBefore(before);
        } catch (IOException e) {
            return false;
        }
    }

    /** For tests: the directories of the starter's standby cgroups. */
    List<Path> standbyDirectories() {
        RunCgroup current = standby;
        return current == null ? List.of() : current.directories();
    }
}
