package dev.mero.core.ops;

import dev.mero.core.PathEntry;
import dev.mero.core.path.ConfirmedOpen;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;

/**
 * {@code read_file}'s file opened while its path is decided ({@link ConfirmedOpen}), through the kernel's
 * confinement ({@link ConfinedCalls}): one {@code openat2} from the mount's descriptor instead of an {@code lstat}
 * per name before the decision and the open after it.
 */
final class ReadOpen extends ConfirmedOpen {

    private final ConfinedCalls calls;
    private SeekableByteChannel channel;

    private ReadOpen(ConfinedCalls calls) {
        this.calls = calls;
    }

    /**
     * An open for one read, installed on the calling thread, where the kernel's confinement is reachable and no
     * approval of reads is asked for in the whole context (an approval comes before any open).
     *
     * @param calls            the layer in use
     * @param approvalRequired whether the context asks for approval of reads
     * @return the installed open, which the caller closes; or {@code null} (then the read decides as always)
     */
    static ReadOpen begin(ConfinedCalls calls, boolean approvalRequired) {
        if (calls == ConfinedCalls.NONE || approvalRequired) {
            return null;
        }
        ReadOpen open = new ReadOpen(calls);
        open.begin();
        return open;
    }

    /**
     * The file the decision of {@code realPath} opened, handed over to the caller, who closes it.
     *
     * @param realPath the decided target's real path
     * @return the open file, or {@code null} when the decision opened none
     */
    SeekableByteChannel taken(Path realPath) {
        if (!take(realPath)) {
            return null;
        }
        SeekableByteChannel taken = channel;
        channel = null;
        return taken;
    }

    @Override
    protected boolean open(PathEntry mount, Path file) {
        channel = calls.openRegularFileOfUnchangedMount(mount, file);
        return channel != null;
    }

    @Override
    protected boolean opensOnlyBelowUnchangedMounts() {
        return true;
    }

    @Override
    protected void release() {
        SeekableByteChannel open = channel;
        channel = null;
        if (open != null) {
            try {
                open.close();
            } catch (IOException ignored) {
                // a read-only descriptor: nothing was written that a failed close could lose
            }
        }
    }
}
