package dev.mero.core;

import dev.mero.core.message.Messages;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * The context has scopes configured and none of them grants the scope an operation requires. Raised
 * before the operation does anything, so nothing was read, written or run.
 *
 * <p>The scope model lives in {@code dev.mero.core.scope}; this exception only carries the decision, so that
 * one {@code catch (MeroToolsException e)} at a tool's boundary still covers it.
 */
public class ScopeDeniedException extends MeroToolsException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the model-facing message
     */
    public ScopeDeniedException(String message) {
        super(message);
    }

    /**
     * Creates the exception with an underlying cause for the logs.
     *
     * @param message the model-facing message
     * @param cause   the underlying failure, never shown to the model
     */
    public ScopeDeniedException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * Builds the standard denial: {@code Context 'worker_1' lacks scope 'files:file:write' (has:
     * ['files:*:read']). Ask for a caller with that scope or use an operation your scopes allow.}
     *
     * @param contextName   the context's name
     * @param requiredScope the scope the operation requires, in {@code namespace:resource:action} form
     * @param grantedScopes the context's scopes, in the order to show them (duplicates are shown once)
     * @return the exception, ready to throw
     */
    public static ScopeDeniedException missing(String contextName, String requiredScope,
                                               Collection<String> grantedScopes) {
        Objects.requireNonNull(grantedScopes, "grantedScopes");
        StringJoiner has = new StringJoiner(", ", "[", "]");
        new LinkedHashSet<>(grantedScopes).forEach(granted -> has.add(Messages.quote(granted)));
        return new ScopeDeniedException("Context " + Messages.quote(contextName) + " lacks scope "
                + Messages.quote(requiredScope) + " (has: " + has + "). Ask for a caller with that scope or use an "
                + "operation your scopes allow.");
    }

    @Override
    public String errorCode() {
        return "scope_denied";
    }
}
