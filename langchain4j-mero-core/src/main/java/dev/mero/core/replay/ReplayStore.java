package dev.mero.core.replay;

import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;
import dev.mero.core.OperationFailedException;
import dev.mero.core.error.ToolError;

import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Makes a tool call with a given id run its side effect at most once, however often the id is repeated (a
 * network retry, a resumed session replaying a tool call whose result was lost) and on whichever
 * application instance the repeat lands: the first caller of an id runs the call, every later caller gets
 * the first result.
 *
 * <pre>{@code
 * ReplayStore replays = InMemoryReplayStore.create();      // or a store shared by several instances
 * String result = replays.runOnce("worker_1", toolCallId, Duration.ofSeconds(30), () -> tool.run(arguments));
 * }</pre>
 *
 * <p>Ids are kept per scope (usually the context's name). Implementations make {@link #claim claiming}
 * atomic (exactly one owner per id, across instances) and bound every wait. A store that cannot answer
 * throws {@link dev.mero.core.PolicyStoreUnavailableException} and the call is not run: at most once
 * holds even then. Implementations must be thread-safe.
 */
public interface ReplayStore {

    /**
     * Claims a call id: the first caller becomes its owner; a later caller waits up to {@code wait} for the
     * owner's result and returns it.
     *
     * @param scope  the scope, usually the context's name
     * @param callId the tool-call id
     * @param wait   how long a repeat waits for a result that is still being computed
     * @return the owner's claim, or the first result
     * @throws OperationFailedException                      if the first run of the id has not finished within
     *                                                       {@code wait} (it may still be running, or its
     *                                                       instance stopped before it finished)
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer in time
     */
    ReplayClaim claim(String scope, String callId, Duration wait);

    /**
     * Records the owner's result and wakes the repeats that wait for it. Only the owner calls it, once.
     *
     * @param scope  the scope
     * @param callId the tool-call id
     * @param result the result every repeat gets
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer in time
     */
    void complete(String scope, String callId, String result);

    /**
     * Runs a call at most once per id: claims the id, runs the call if this caller owns it and records its
     * result, or returns the first result. A call that fails with a library exception records the text the
     * model was shown ({@link MeroToolsException#toModelText()}) and rethrows; any other exception records
     * the generic internal-error text and rethrows.
     *
     * @param scope  the scope, usually the context's name
     * @param callId the tool-call id
     * @param wait   how long a repeat waits for a result that is still being computed
     * @param call   the call with its side effect
     * @return the call's result, or the first run's result for a repeat
     * @throws OperationFailedException                      if the first run has not finished within {@code wait}
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer in time
     */
    default String runOnce(String scope, String callId, Duration wait, Supplier<String> call) {
        Objects.requireNonNull(call, "call");
        ReplayClaim claim = claim(scope, callId, wait);
        if (!claim.isOwner()) {
            return claim.result().orElseThrow();
        }
        String result;
        try {
            result = Objects.requireNonNull(call.get(), "the call's result");
        } catch (MeroToolsException failure) {
            complete(scope, callId, failure.toModelText());
            throw failure;
        } catch (RuntimeException | Error bug) {
            complete(scope, callId, "Error: " + ToolError.INTERNAL_ERROR_MESSAGE);
            throw bug;
        }
        complete(scope, callId, result);
        return result;
    }

    /**
     * The standard failure of a repeat whose first run has not finished in time.
     *
     * @param callId the tool-call id
     * @param wait   how long the repeat waited
     * @return the exception, ready to throw
     */
    static OperationFailedException stillRunning(String callId, Duration wait) {
        return new OperationFailedException("Tool call " + Messages.quote(callId)
                + " already started and its result was not ready within " + wait.toMillis() + " ms, so it was"
                + " not run again. Do not repeat it with the same id; check its effect, or ask the user.");
    }
}
