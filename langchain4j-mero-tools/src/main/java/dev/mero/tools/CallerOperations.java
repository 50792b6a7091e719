package dev.mero.tools;

import dev.langchain4j.invocation.InvocationParameters;
import dev.mero.core.InvalidInputException;
import dev.mero.core.Messages;
import dev.mero.core.ScopeDeniedException;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-call identity: the operations a call runs with, for the caller its {@link InvocationParameters} name
 * ({@link CallerIdentity}). A named caller runs in a context narrowed from the base one to the caller's name and
 * scopes, so it never gets more than the base context nor more than its own scopes; a caller whose scopes
 * would widen the context is refused. Narrowed operations are cached per identity, boundedly. Thread-safe.
 */
final class CallerOperations {

    private static final int MAX_CALLERS = 256;

    private final MeroOperations operations;
    private final Map<String, MeroOperations> callers = new ConcurrentHashMap<>();

    CallerOperations(MeroOperations operations) {
        this.operations = operations;
    }

    /** The operations for the caller the parameters name, or this provider's own when they name none. */
    MeroOperations operationsFor(InvocationParameters parameters) {
        if (parameters == null || !parameters.containsKey(CallerIdentity.CALLER)) {
            return operations;
        }
        Object caller = parameters.get(CallerIdentity.CALLER);
        if (!(caller instanceof String name) || name.isBlank()) {
            throw new InvalidInputException("The caller's name (" + CallerIdentity.CALLER + ") must be a non-blank "
                    + "string.");
        }
        List<String> scopes = scopes(parameters.get(CallerIdentity.SCOPES));
        String key = identity(parameters);
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
        MeroOperations narrowedOperations = MeroOperations.builder(narrowed).limits(operations.limits())
                .catalogue(operations.catalogue()).build();
        if (callers.size() >= MAX_CALLERS) {
            callers.clear();
        }
        callers.put(key, narrowedOperations);
        return narrowedOperations;
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
                    throw new InvalidInputException("The caller's scopes (" + CallerIdentity.SCOPES + ") must be "
                            + "strings.");
                }
                scopes.add(s);
            }
        } else {
            throw new InvalidInputException("The caller's scopes (" + CallerIdentity.SCOPES + ") must be a list of "
                    + "strings.");
        }
        return scopes;
    }

    static String identity(InvocationParameters parameters) {
        if (parameters == null || !parameters.containsKey(CallerIdentity.CALLER)) {
            return "";
        }
        Object scopes = parameters.get(CallerIdentity.SCOPES);
        Object sorted = scopes instanceof Collection<?> c ? new TreeSet<>(c.stream().map(String::valueOf).toList())
                : scopes;
        return parameters.get(CallerIdentity.CALLER) + "\u0000" + sorted;
    }

}
