package dev.mero.core.scope;

import dev.mero.core.message.Messages;

import java.util.Locale;
import java.util.Objects;

/**
 * A parsed scope, {@code namespace:resource:action}, used both as a grant a context holds and as the scope an
 * operation requires.
 *
 * <p>Syntax, checked when a scope is parsed so that a typo fails at configuration time, not at call time:
 * <ul>
 *   <li>exactly three colon-separated tokens, each non-empty and at most {@value #MAX_LENGTH} characters in
 *       all;</li>
 *   <li>a token is made of ASCII letters, digits, {@code _}, {@code .} and {@code -}; input is
 *       case-insensitive and normalised to lower case;</li>
 *   <li>in a grant, the resource and the action may be {@code *}, but only as the whole token
 *       ({@code files:fi*:read} is rejected); the namespace can never be {@code *}: every namespace is
 *       granted explicitly, so no single grant opens everything;</li>
 *   <li>{@code namespace::} is accepted as an alias of {@code namespace:*:*}, the form the specification
 *       prints; any other empty token ({@code files::read}, {@code files:file:}) is rejected;</li>
 *   <li>a required scope is concrete: no {@code *} anywhere.</li>
 * </ul>
 * A grant covers a required scope when the namespaces are equal and the grant's resource and action are
 * each {@code *} or equal to the required ones; this gives exactly the four patterns
 * {@code ns:*:*}, {@code ns:*:action}, {@code ns:resource:*} and {@code ns:resource:action}.
 *
 * <p>Instances are immutable; equal scopes have equal normalised text.
 */
public final class Scope {

    /** The token that stands for every resource or every action of a namespace. */
    public static final String WILDCARD = "*";

    /** The longest scope accepted, in characters; longer text is rejected without being echoed. */
    public static final int MAX_LENGTH = 128;

    private static final String CONCRETE = "an operation requires one concrete namespace:resource:action, without '*'";
    private static final String EXAMPLE = " Write a scope as namespace:resource:action, e.g. 'files:file:read'.";

    private final String namespace;
    private final String resource;
    private final String action;

    private Scope(String namespace, String resource, String action) {
        this.namespace = namespace;
        this.resource = resource;
        this.action = action;
    }

    /**
     * Parses a grant: {@code files:file:read}, {@code files:*:read}, {@code files:file:*}, {@code files:*:*}
     * or its alias {@code files::}.
     *
     * @param grant the grant, case-insensitive
     * @return the normalised grant
     * @throws IllegalArgumentException if the grant is malformed; the message names it and the problem
     */
    public static Scope parse(String grant) {
        return parse(grant, "scope", true);
    }

    /**
     * Parses the concrete scope an operation requires, e.g. {@code files:file:read}.
     *
     * @param required the scope, case-insensitive, without {@code *}
     * @return the normalised scope
     * @throws IllegalArgumentException if the scope is malformed or contains {@code *}
     */
    public static Scope required(String required) {
        return parse(required, "required scope", false);
    }

    /**
     * Builds the concrete scope an operation requires from its three parts.
     *
     * @param namespace the namespace, e.g. {@code files}
     * @param resource  the resource, e.g. {@code file}
     * @param action    the action, e.g. {@code read}
     * @return the normalised scope
     * @throws IllegalArgumentException if a part is empty, contains {@code :} or {@code *}, or another
     *                                  character a token may not contain
     */
    public static Scope of(String namespace, String resource, String action) {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(resource, "resource");
        Objects.requireNonNull(action, "action");
        // a ':' inside a part adds a token, so the joined text is rejected as it should be
        return required(namespace + ":" + resource + ":" + action);
    }

    /**
     * The namespace, e.g. {@code files}; never {@code *}.
     *
     * @return the lower-case namespace
     */
    public String namespace() {
        return namespace;
    }

    /**
     * The resource, e.g. {@code file}, or {@code *} in a grant that covers every resource.
     *
     * @return the lower-case resource
     */
    public String resource() {
        return resource;
    }

    /**
     * The action, e.g. {@code read}, or {@code *} in a grant that covers every action.
     *
     * @return the lower-case action
     */
    public String action() {
        return action;
    }

    /**
     * Tells whether this scope names one namespace, resource and action, without {@code *}.
     *
     * @return {@code true} for a scope an operation can require
     */
    public boolean isConcrete() {
        return !WILDCARD.equals(resource) && !WILDCARD.equals(action);
    }

    /**
     * Tells whether this grant covers a required scope: same namespace, and a resource and an action that
     * are each {@code *} or equal.
     *
     * @param required a concrete scope
     * @return {@code true} if this grant allows it
     * @throws IllegalArgumentException if {@code required} contains {@code *}
     */
    public boolean covers(Scope required) {
        requireConcrete(required);
        return namespace.equals(required.namespace)
                && (WILDCARD.equals(resource) || resource.equals(required.resource))
                && (WILDCARD.equals(action) || action.equals(required.action));
    }

    /**
     * Tells whether this grant allows everything another grant allows, i.e. the other grant is the same or
     * narrower ({@code files:*:read} includes {@code files:file:read} but not {@code files:*:*}). Used to
     * make sure a narrowed context never holds a grant its parent did not.
     *
     * @param other a grant, possibly with {@code *}
     * @return {@code true} if every scope {@code other} covers is covered by this grant
     */
    public boolean includes(Scope other) {
        return namespace.equals(other.namespace)
                && (WILDCARD.equals(resource) || resource.equals(other.resource))
                && (WILDCARD.equals(action) || action.equals(other.action));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Scope that
                && namespace.equals(that.namespace) && resource.equals(that.resource) && action.equals(that.action);
    }

    @Override
    public int hashCode() {
        return Objects.hash(namespace, resource, action);
    }

    /**
     * The normalised text, {@code namespace:resource:action}; the alias {@code ns::} reads {@code ns:*:*}.
     *
     * @return the scope's text
     */
    @Override
    public String toString() {
        return namespace + ":" + resource + ":" + action;
    }

    private static Scope parse(String text, String kind, boolean wildcards) {
        if (text == null) {
            throw new IllegalArgumentException("Invalid " + kind + " null:" + EXAMPLE);
        }
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("Invalid " + kind + " of " + text.length() + " characters: a scope has "
                    + "at most " + MAX_LENGTH + " characters.");
        }
        String[] tokens = text.split(":", -1);
        if (wildcards && tokens.length == 3 && !tokens[0].isEmpty() && tokens[1].isEmpty() && tokens[2].isEmpty()) {
            tokens = new String[] {tokens[0], WILDCARD, WILDCARD};
        }
        if (tokens.length != 3) {
            throw invalid(kind, text, "expected 3 colon-separated tokens (namespace:resource:action), found "
                    + tokens.length + "." + EXAMPLE);
        }
        checkToken(kind, text, "namespace", tokens[0], false);
        checkToken(kind, text, "resource", tokens[1], wildcards);
        checkToken(kind, text, "action", tokens[2], wildcards);
        return new Scope(lower(tokens[0]), lower(tokens[1]), lower(tokens[2]));
    }

    private static void checkToken(String kind, String text, String part, String token, boolean wildcardAllowed) {
        if (token.isEmpty()) {
            throw invalid(kind, text, "the " + part + " is empty." + EXAMPLE);
        }
        if (WILDCARD.equals(token)) {
            if (!wildcardAllowed) {
                throw invalid(kind, text, "namespace".equals(part)
                        ? "the namespace cannot be '*'; grant each namespace explicitly."
                        : CONCRETE + ".");
            }
            return;
        }
        if (token.contains(WILDCARD)) {
            throw invalid(kind, text, "'*' must be a whole token, but the " + part + " is "
                    + Messages.quote(token) + ".");
        }
        // check the raw text, before lower-casing: toLowerCase maps e.g. the Kelvin sign to an ASCII 'k'
        token.codePoints().filter(cp -> !isTokenChar(cp)).findFirst().ifPresent(cp -> {
            throw invalid(kind, text, "the " + part + " contains " + Messages.quote(Character.toString(cp)) + " ("
                    + Messages.codePoint(cp) + "); use only letters a-z, digits, '_', '.' and '-'.");
        });
    }

    static void requireConcrete(Scope required) {
        Objects.requireNonNull(required, "required");
        if (!required.isConcrete()) {
            throw new IllegalArgumentException("Invalid required scope " + Messages.quote(required.toString())
                    + ": " + CONCRETE + ".");
        }
    }

    private static boolean isTokenChar(int cp) {
        return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9')
                || cp == '_' || cp == '.' || cp == '-';
    }

    private static String lower(String token) {
        return token.toLowerCase(Locale.ROOT);
    }

    private static IllegalArgumentException invalid(String kind, String text, String problem) {
        return new IllegalArgumentException("Invalid " + kind + " " + Messages.quote(text) + ": " + problem);
    }
}
