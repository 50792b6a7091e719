package dev.mero.core.ops;

import dev.mero.core.InvalidInputException;
import dev.mero.core.message.Messages;
import dev.mero.core.ScopeDeniedException;
import dev.mero.core.SecurityContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-call identity, the same in every binding: the operations a call runs with, for the caller its entries
 * name ({@value #CALLER}, a string, and {@value #SCOPES}, a collection of strings) — LangChain4j's
 * {@code InvocationParameters}, Spring AI's {@code ToolContext}. A named caller runs in a context narrowed
 * from the base one to the caller's name and scopes, so it never gets more than the base context nor more than
 * its own scopes; a caller whose scopes would widen the context is refused ({@code Denied: ...}). Without
 * {@value #CALLER} the base operations run. Narrowed operations are cached per identity, boundedly.
 * Thread-safe.
 */
public final class CallerNarrowing {

    /** Entry key of the caller's name (a {@link String}). */
    public static final String CALLER = "mero.caller";
    /** Entry key of the caller's scopes (a {@link Collection} of strings; a string of them is split). */
    public static final String SCOPES = "mero.scopes";

    private static final int MAX_CALLERS = 256;

    private final MeroOperations operations;
    private final Map<String, MeroOperations> callers = new ConcurrentHashMap<>();

    /**
     * Narrows calls from base operations.
     *
     * @param operations the base operations; no caller gets more
     */
    public CallerNarrowing(MeroOperations operations) {
        this.operations = Objects.requireNonNull(operations, "operations");
    }

    /**
     * The base operations.
     *
     * @return the operations a call without a caller runs with
     */
    public MeroOperations base() {
        return operations;
    }

    /**
     * The operations for the caller the entries name, or the base ones when they name none.
     *
     * @param entries the call's entries, may be {@code null}
     * @return the operations to run the call with
     * @throws InvalidInputException if the caller's name or scopes are malformed
     * @throws ScopeDeniedException  if the caller's scopes are not within the base context's
     */
    public MeroOperations operationsFor(Map<String, ?> entries) {
        if (entries == null || !entries.containsKey(CALLER)) {
            return operations;
        }
        if (!(entries.get(CALLER) instanceof String name) || name.isBlank()) {
            throw new InvalidInputException("The caller's name (" + CALLER + ") must be a non-blank string.");
        }
        List<String> scopes = scopes(entries.get(SCOPES));
        String key = identity(entries);
        MeroOperations cached = callers.get(key);
        if (cached != null) {
            return cached;
        }
        SecurityContext narrowed;
        try {
            var builder = operations.context().narrow(name);
            if (scopes != null) {
                builder.scopes(scopes.toArray(new String[0]));
            }
            narrowed = builder.build();
        } catch (IllegalArgumentException e) {
            throw new ScopeDeniedException("Caller " + Messages.quote(name) + " cannot act in context "
                    + Messages.quote(operations.context().name()) + " with scopes " + scopes + ": they are not "
                    + "within the context's own scopes, or the name is malformed. Nothing was run.");
        }
        MeroOperations narrowedOperations = operations.narrowedTo(narrowed);
        if (callers.size() >= MAX_CALLERS) {
            callers.clear();
        }
        callers.put(key, narrowedOperations);
        return narrowedOperations;
    }

    /**
     * The caller's identity as a key: the name and the sorted scopes, or {@code ""} without a caller. Calls
     * of different callers never share a key.
     *
     * @param entries the call's entries, may be {@code null}
     * @return the key
     */
    public static String identity(Map<String, ?> entries) {
        if (entries == null || !entries.containsKey(CALLER)) {
            return "";
        }
        Object scopes = entries.get(SCOPES);
        Object sorted = scopes instanceof Collection<?> c ? new TreeSet<>(c.stream().map(String::valueOf).toList())
                : scopes;
        return entries.get(CALLER) + "\u0000" + sorted;
    }

    private static List<String> scopes(Object value) {
        if (value == null) {
            return null;
        }
        List<String> scopes = new ArrayList<>();
        if (value instanceof String text) {
            for (String scope : text.split("[,\\s]+")) {
                if (!scope.isEmpty()) {
                    scopes.add(scope);
                }
            }
        } else if (value instanceof Collection<?> collection) {
            for (Object scope : collection) {
                if (!(scope instanceof String s)) {
                    throw new InvalidInputException("The caller's scopes (" + SCOPES + ") must be strings.");
                }
                scopes.add(s);
            }
        } else {
            throw new InvalidInputException("The caller's scopes (" + SCOPES + ") must be a list of strings.");
        }
        return scopes;
    }
}
