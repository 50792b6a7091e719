package dev.mero.core.command;

import java.util.List;

/**
 * Ends a sandboxed run. The command is PID 1 of its own PID namespace, so the kernel kills every other
 * process of the namespace when the command ends, and {@code bwrap} exits only after that. After a normal
 * exit there is therefore nothing to do (and nothing is searched for); after a timeout or an interrupt the
 * command itself is killed, which takes the whole namespace with it, and the run waits until {@code bwrap}
 * has reported that end.
 */
final class SandboxTeardown implements ProcessKiller {

    private static final long WAIT_MILLIS = 10_000;
    private static final long POLL_MILLIS = 10;

    private boolean interrupted;

    @Override
    public int killAll(ProcessHandle bubblewrap) {
        if (!ProcFs.isRunning(bubblewrap)) {
            return 0;
        }
        List<ProcessHandle> namespaceInit = bubblewrap.children().toList();
        namespaceInit.forEach(ProcessHandle::destroyForcibly);
        if (namespaceInit.isEmpty() || !awaitGone(bubblewrap)) {
            // still setting up, or stuck: with --die-with-parent its child dies with it
            bubblewrap.destroyForcibly();
            awaitGone(bubblewrap);
        }
        return 0;
    }

    @Override
    public boolean wasInterrupted() {
        return interrupted;
    }

    private boolean awaitGone(ProcessHandle process) {
        long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000L;
        while (ProcFs.isRunning(process)) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            interrupted |= UninterruptibleWait.sleep(POLL_MILLIS);
        }
        return true;
    }
}
