package dev.mero.tools;

import dev.langchain4j.invocation.InvocationParameters;
import dev.mero.core.ops.CallerNarrowing;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Who is calling, passed with each AI-service call through {@link InvocationParameters}: a caller name and the
 * scopes that caller holds. The {@link MeroToolProvider} runs the call in a context narrowed from its own to
 * those scopes (named after the caller in the audit log), so a caller never gets more than the context, and no
 * more than its own scopes. The keys and rules are the core's ({@link CallerNarrowing}), so a Spring AI
 * {@code ToolContext} with the same entries narrows a call the same way.
 *
 * <pre>{@code
 * interface Agent { String chat(@UserMessage String message, InvocationParameters parameters); }
 * agent.chat("tidy up", CallerIdentity.parameters("alice", "files:*:read"));
 * }</pre>
 */
public final class CallerIdentity {

    /** Invocation-parameter key of the caller's name (a {@link String}). */
    public static final String CALLER = CallerNarrowing.CALLER;
    /** Invocation-parameter key of the caller's scopes (a {@link Collection} of strings). */
    public static final String SCOPES = CallerNarrowing.SCOPES;

    private CallerIdentity() {
    }

    /**
     * Invocation parameters that carry a caller's identity.
     *
     * @param caller the caller's name
     * @param scopes the scopes the caller holds, e.g. {@code files:*:read}
     * @return new parameters
     */
    public static InvocationParameters parameters(String caller, String... scopes) {
        return InvocationParameters.from(Map.of(CALLER, Objects.requireNonNull(caller, "caller"),
                SCOPES, List.of(scopes)));
    }
}
