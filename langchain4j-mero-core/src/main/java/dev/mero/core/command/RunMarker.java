package dev.mero.core.command;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The tag a run puts into its command's environment, {@code MERO_RUN_ID=<random uuid>}, so that every
 * process the command starts can be found again, including daemons that double-forked or called
 * {@code setsid} and are no longer its descendants. Processes inherit the variable; the runner scans
 * {@code /proc/<pid>/environ} for it.
 *
 * <p>A process that clears its own environment before starting children (for example {@code env -i})
 * drops the tag, and its children escape this scan; {@link ProcessHandle#descendants()} is the second net
 * for them while they are still in the command's process tree.
 */
final class RunMarker {

    /** The variable's name, reserved: no allowlist or fixed value may use it. */
    static final String VARIABLE = "MERO_RUN_ID";

    private final String value;
    private final byte[] entry;

    private RunMarker(String value) {
        this.value = value;
        this.entry = (VARIABLE + "=" + value).getBytes(StandardCharsets.US_ASCII);
    }

    /** A marker for a new run, unique with overwhelming probability. */
    static RunMarker create() {
        return new RunMarker(UUID.randomUUID().toString());
    }

    /** The variable's value for this run. */
    String value() {
        return value;
    }

    /**
     * The running processes (zombies excluded) that carry this run's tag, never the current JVM.
     *
     * @return the processes found, possibly none
     */
    List<ProcessHandle> findProcesses() {
        long self = ProcessHandle.current().pid();
        List<ProcessHandle> found = new ArrayList<>();
        for (long pid : ProcFs.pids()) {
            if (pid == self || !ProcFs.environContains(pid, entry)) {
                continue;
            }
            // take the handle (it pins the start time, so a later kill cannot hit a recycled pid), then
            // make sure the process it names is the one carrying the tag
            Optional<ProcessHandle> handle = ProcessHandle.of(pid);
            if (handle.isPresent() && ProcFs.environContains(pid, entry) && ProcFs.isRunning(handle.get())) {
                found.add(handle.get());
            }
        }
        return found;
    }
}
