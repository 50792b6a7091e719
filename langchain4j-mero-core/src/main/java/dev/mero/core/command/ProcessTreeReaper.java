package dev.mero.core.command;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Kills every process of one run: the command's own process, its descendants, and every process carrying
 * the run's {@link RunMarker}, daemons that left the tree included.
 *
 * <p>All targets get {@code SIGTERM} first and a short grace period to exit; whatever is left, or started
 * meanwhile, gets {@code SIGKILL}. The search is repeated after every round until it finds nothing, for a
 * bounded number of rounds, so that a process forking while it is being killed is caught by a later round.
 * A fork bomb faster than the rounds can outlive them; process limits (rlimits, cgroups) are the defence
 * against that, not this class.
 */
final class ProcessTreeReaper implements ProcessKiller {

    private static final int MAX_KILL_ROUNDS = 10;
    private static final long ROUND_WAIT_MILLIS = 1_000;
    private static final long POLL_MILLIS = 10;

    private final RunMarker marker;
    private final Duration gracePeriod;
    private boolean interrupted;

    ProcessTreeReaper(RunMarker marker, Duration gracePeriod) {
        this.marker = marker;
        this.gracePeriod = gracePeriod;
    }

    /**
     * Kills the run's processes: {@code root} if it still runs, its descendants and every marked process.
     *
     * @param root the command's own process
     * @return how many processes other than {@code root} were signalled
     */
    @Override
    public int killAll(ProcessHandle root) {
        Set<Long> signalled = new HashSet<>();
        Collection<ProcessHandle> targets = findTargets(root);
        if (!targets.isEmpty()) {
            signal(targets, ProcessHandle::destroy, signalled);
            awaitGone(targets, gracePeriod.toMillis());
            for (int round = 0; round < MAX_KILL_ROUNDS; round++) {
                targets = findTargets(root);
                if (targets.isEmpty()) {
                    break;
                }
                signal(targets, ProcessHandle::destroyForcibly, signalled);
                awaitGone(targets, ROUND_WAIT_MILLIS);
            }
        }
        signalled.remove(root.pid());
        return signalled.size();
    }

    /**
     * Whether the calling thread was interrupted while this reaper waited; the flag itself is cleared so
     * that the kill completes, and the caller must restore it.
     *
     * @return {@code true} if an interrupt was swallowed
     */
    @Override
    public boolean wasInterrupted() {
        return interrupted;
    }

    private Collection<ProcessHandle> findTargets(ProcessHandle root) {
        Map<Long, ProcessHandle> targets = new LinkedHashMap<>();
        if (ProcFs.isRunning(root)) {
            targets.put(root.pid(), root);
            // the second net: children that dropped the marker but are still in the tree
            root.descendants().filter(ProcFs::isRunning).forEach(child -> targets.put(child.pid(), child));
        }
        for (ProcessHandle marked : marker.findProcesses()) {
            targets.putIfAbsent(marked.pid(), marked);
        }
        return targets.values();
    }

    private static void signal(Collection<ProcessHandle> targets, Consumer<ProcessHandle> kill, Set<Long> signalled) {
        for (ProcessHandle target : targets) {
            kill.accept(target);
            signalled.add(target.pid());
        }
    }

    private void awaitGone(Collection<ProcessHandle> targets, long maxMillis) {
        List<ProcessHandle> pending = new ArrayList<>(targets);
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        while (true) {
            pending.removeIf(process -> !ProcFs.isRunning(process));
            if (pending.isEmpty() || System.nanoTime() - deadline >= 0) {
                return;
            }
            interrupted |= UninterruptibleWait.sleep(POLL_MILLIS);
        }
    }
}
