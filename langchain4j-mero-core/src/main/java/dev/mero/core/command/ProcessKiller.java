package dev.mero.core.command;

/**
 * Ends what a run left running once its command has exited, timed out or been interrupted.
 */
interface ProcessKiller {

    /**
     * Ends the run's processes.
     *
     * @param root the process the runner started
     * @return how many processes other than {@code root} were found still running and killed
     */
    int killAll(ProcessHandle root);

    /**
     * Whether the calling thread was interrupted while this killer waited; the flag itself is cleared so
     * that the kill completes, and the caller must restore it.
     *
     * @return {@code true} if an interrupt was swallowed
     */
    boolean wasInterrupted();
}
