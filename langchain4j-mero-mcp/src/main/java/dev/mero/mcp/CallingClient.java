package dev.mero.mcp;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The MCP client whose tool call runs on the current thread. The core's approval gate asks its backend on the
 * calling thread, so {@link ElicitationApproval} finds here whom to ask; a backend run on another thread finds
 * nobody and falls back, which is the safe direction.
 */
final class CallingClient {

    private static final ThreadLocal<ApprovalClient> CURRENT = new ThreadLocal<>();

    private CallingClient() {
    }

    /** Runs {@code call} with {@code client} as the calling client of this thread. */
    static <T> T during(ApprovalClient client, Supplier<T> call) {
        ApprovalClient previous = CURRENT.get();
        CURRENT.set(client);
        try {
            return call.get();
        } finally {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        }
    }

    /** The client whose call runs on this thread, if any. */
    static Optional<ApprovalClient> current() {
        return Optional.ofNullable(CURRENT.get());
    }
}
