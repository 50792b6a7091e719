package dev.mero.core.replay;

import dev.mero.core.error.ToolError;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Runs a binding's tool call at most once per tool-call id through a context's {@link ReplayStore}, so that a
 * repeated id returns the first result on whichever instance it lands, and the action never runs twice. The
 * id is claimed in a scope made of the context's name and a digest of the conversation, the caller, the tool
 * and its arguments: an id that comes back with other arguments (or from another caller) names another call.
 * Bindings that know a tool-call id use it (LangChain4j: {@code ToolExecutionRequest.id()}); a call without
 * an id simply runs. Thread-safe; holds no state of its own.
 */
public final class ToolCallReplays {

    /** How long a repeat waits for the first run's result before it is refused as still running. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

    private static final char SUCCESS = '=';
    private static final char ERROR = '!';

    private ToolCallReplays() {
    }

    /**
     * The scope a call id is claimed in.
     *
     * @param contextName  the context's name
     * @param conversation the conversation (chat memory id), may be {@code null}
     * @param caller       the caller's identity, may be {@code null}
     * @param toolName     the tool
     * @param arguments    the arguments as the model sent them, may be {@code null}
     * @return {@code contextName/<sha-256 hex>}
     */
    public static String scope(String contextName, Object conversation, String caller, String toolName,
                               String arguments) {
        Objects.requireNonNull(contextName, "contextName");
        Objects.requireNonNull(toolName, "toolName");
        String call = conversation + "\u0000" + caller + "\u0000" + toolName + "\u0000" + arguments;
        try {
            return contextName + "/" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(call.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }

    /**
     * Runs a call once per scope and id: the first caller runs it and records its result, every repeat
     * returns that result. A call that throws records the generic internal-error text (a repeat reads it as
     * an error) and rethrows.
     *
     * @param store  the context's replay store
     * @param scope  from {@link #scope}
     * @param callId the tool-call id
     * @param wait   how long a repeat waits for a result still being computed
     * @param call   runs the call
     * @return the result of this run, or the first run's result for a repeat
     * @throws dev.mero.core.OperationFailedException        if the first run has not finished within {@code wait}
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store did not answer (the call is not run)
     */
    public static Result run(ReplayStore store, String scope, String callId, Duration wait, Supplier<Result> call) {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(call, "call");
        ReplayClaim claim = store.claim(scope, callId, wait);
        if (!claim.isOwner()) {
            return decode(claim.result().orElseThrow());
        }
        Result result;
        try {
            result = Objects.requireNonNull(call.get(), "the call's result");
        } catch (RuntimeException | Error bug) {
            store.complete(scope, callId, encode(new Result("Error: " + ToolError.INTERNAL_ERROR_MESSAGE, true)));
            throw bug;
        }
        store.complete(scope, callId, encode(result));
        return result;
    }

    static String encode(Result result) {
        return (result.error() ? ERROR : SUCCESS) + result.text();
    }

    static Result decode(String stored) {
        if (!stored.isEmpty() && (stored.charAt(0) == SUCCESS || stored.charAt(0) == ERROR)) {
            return new Result(stored.substring(1), stored.charAt(0) == ERROR);
        }
        // written by ReplayStore.runOnce: failures are the model text of a refusal or error
        return new Result(stored, stored.startsWith("Denied:") || stored.startsWith("Error:"));
    }

    /**
     * What a tool call answered: the text for the model and whether it is an error. Immutable.
     *
     * @param text  the text
     * @param error whether the call failed or was refused
     */
    public record Result(String text, boolean error) {

        /**
         * Checks the text.
         *
         * @param text  the text
         * @param error whether it is an error
         */
        public Result {
            Objects.requireNonNull(text, "text");
        }
    }
}
