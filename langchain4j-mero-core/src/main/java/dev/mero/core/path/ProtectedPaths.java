package dev.mero.core.path;

import dev.mero.core.message.Messages;

import dev.mero.core.ops.GlobPattern;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The protected paths of a context: globs, matched against the path inside each mount, that no tool and no
 * command may read, write or delete, whatever the entries allow. A glob without {@code '/'} matches a name at any
 * depth ({@code .env}, {@code *.pem}); one with {@code '/'} matches the whole path inside the mount
 * ({@code config/secrets.yaml}), and {@code **}{@code /x} also matches {@code x} at the top (the syntax of
 * {@link GlobPattern}). A directory that matches protects everything below it ({@code .ssh}).
 *
 * <p>A rule of the {@linkplain #DEFAULTS default set} may leave a few names readable that its glob would cover:
 * committed templates of {@code .env} files and public keys, which are not secrets.
 *
 * <p>Instances are immutable and thread-safe.
 *
 * <p>Internal: public only because {@code dev.mero.core.SecurityContext}, the facade in the root package, builds and
 * calls it; applications use {@code SecurityContext}, not this class.
 */
public final class ProtectedPaths {

    /** The default set, in the order a refusal names the first that matches. */
    public static final List<String> DEFAULTS = List.of(
            ".env", ".env.*",
            "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore",
            "id_rsa*", "id_dsa*", "id_ecdsa*", "id_ed25519*",
            ".ssh", ".gnupg",
            "**/.aws/credentials", ".netrc", ".git-credentials", ".npmrc", ".pypirc", ".pgpass",
            "**/.docker/config.json", "**/.kube/config");

    /** Names a default rule leaves readable: committed templates, and public keys. */
    static final Map<String, List<String>> DEFAULT_EXCEPTIONS = Map.of(
            ".env.*", List.of(".env.example", ".env.sample", ".env.template"),
            "id_rsa*", List.of("*.pub"),
            "id_dsa*", List.of("*.pub"),
            "id_ecdsa*", List.of("*.pub"),
            "id_ed25519*", List.of("*.pub"));

    private static final ProtectedPaths NONE = new ProtectedPaths(List.of());

    /**
     * One glob and the names it leaves readable. {@code head} and {@code tail} are what the last name of a
     * matching path must start and end with (see {@link #lastNameBounds}): a walk asks about every entry, and
     * most names fail that test without running the glob.
     */
    private record Rule(String pattern, GlobPattern glob, List<GlobPattern> except, String head, String tail) {

        /** Whether the glob matches {@code relative}, whose last name starts at {@code nameStart}. */
        boolean matches(String relative, int nameStart) {
            int length = relative.length() - nameStart;
            if (length < head.length() + tail.length() || !relative.startsWith(head, nameStart)
                    || !relative.endsWith(tail)) {
                return false;
            }
            if (!glob.matches(relative)) {
                return false;
            }
            for (GlobPattern kept : except) {
                if (kept.matches(relative)) {
                    return false;
                }
            }
            return true;
        }
    }

    private final List<Rule> rules;
    /**
     * Which rules a name can match, by its first character (rules whose last name has a literal start) and by its
     * last character (rules with only a literal end), as bit masks over {@link #rules}, so that most names are
     * rejected without looking at any rule. Index 128 stands for every character outside ASCII. Used while there
     * are at most 64 rules.
     */
    private final long[] byFirst = new long[129];
    private final long[] byLast = new long[129];
    /** The rules without a literal start or end, which every name is handed to. */
    private final long unbounded;

    private ProtectedPaths(List<Rule> rules) {
        this.rules = List.copyOf(rules);
        long open = 0;
        for (int i = 0; i < this.rules.size() && i < Long.SIZE; i++) {
            Rule rule = this.rules.get(i);
            if (!rule.head().isEmpty()) {
                byFirst[slot(rule.head().charAt(0))] |= 1L << i;
            } else if (!rule.tail().isEmpty()) {
                byLast[slot(rule.tail().charAt(rule.tail().length() - 1))] |= 1L << i;
            } else {
                open |= 1L << i;
            }
        }
        this.unbounded = open;
    }

    private static int slot(char c) {
        return c < 128 ? c : 128;
    }

    /**
     * No protected path at all.
     *
     * @return the empty set
     */
    public static ProtectedPaths none() {
        return NONE;
    }

    /**
     * This set with more globs; a glob already present is not added twice.
     *
     * @param globs    the globs
     * @param defaults whether these are the default set, which carries its exceptions
     * @return the wider set
     * @throws IllegalArgumentException if a glob is malformed
     */
    public ProtectedPaths plus(Collection<String> globs, boolean defaults) {
        if (this == NONE && defaults && globs.equals(DEFAULTS)) {
            return DefaultSet.INSTANCE; // compiled once: most contexts start from it
        }
        return widened(globs, defaults);
    }

    private ProtectedPaths widened(Collection<String> globs, boolean defaults) {
        List<Rule> wider = new ArrayList<>(rules);
        for (String pattern : globs) {
            Objects.requireNonNull(pattern, "pattern");
            if (wider.stream().anyMatch(rule -> rule.pattern().equals(pattern))) {
                continue;
            }
            GlobPattern glob = compile(pattern);
            List<GlobPattern> except = new ArrayList<>();
            if (defaults) {
                DEFAULT_EXCEPTIONS.getOrDefault(pattern, List.of()).forEach(kept -> except.add(GlobPattern.of(kept)));
            }
            String[] bounds = lastNameBounds(pattern);
            wider.add(new Rule(pattern, glob, List.copyOf(except), bounds[0], bounds[1]));
        }
        return wider.size() == rules.size() ? this : new ProtectedPaths(wider);
    }

    /** The default set without anything before it, compiled on first use. */
    private static final class DefaultSet {
        static final ProtectedPaths INSTANCE = NONE.widened(DEFAULTS, true);
    }

    /**
     * What the last name of every path a glob matches starts and ends with: the literal text of the glob's last
     * component before its first and after its last wildcard. A {@code *} or {@code ?} never matches a
     * {@code '/'}, so without {@code **} the last component of the glob matches exactly the last name of the
     * path; with {@code **} only the end is known. A glob with brackets, braces or escapes is not analysed (empty
     * bounds: every name is handed to the glob).
     */
    static String[] lastNameBounds(String glob) {
        if (glob.indexOf('[') >= 0 || glob.indexOf('{') >= 0 || glob.indexOf('\\') >= 0) {
            return new String[] {"", ""};
        }
        String last = glob.substring(glob.lastIndexOf('/') + 1);
        int first = indexOfWildcard(last);
        if (first < 0) {
            return new String[] {last, ""};
        }
        int end = Math.max(last.lastIndexOf('*'), last.lastIndexOf('?'));
        String head = last.contains("**") ? "" : last.substring(0, first);
        return new String[] {head, last.substring(end + 1)};
    }

    private static int indexOfWildcard(String text) {
        int star = text.indexOf('*');
        int question = text.indexOf('?');
        return star < 0 ? question : question < 0 ? star : Math.min(star, question);
    }

    private static GlobPattern compile(String pattern) {
        try {
            return GlobPattern.of(pattern);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Invalid protected path " + Messages.quote(pattern) + ": give a glob "
                    + "matched against the path inside a mount, such as '**/.env' or '*.pem'", e);
        }
    }

    /**
     * The globs, in the order they are tried.
     *
     * @return an immutable list
     */
    public List<String> patterns() {
        return rules.stream().map(Rule::pattern).toList();
    }

    /**
     * Tells whether the set is empty, so that nothing needs to be matched.
     *
     * @return {@code true} without any glob
     */
    boolean isEmpty() {
        return rules.isEmpty();
    }

    /**
     * The glob that protects a path inside a mount, or a directory above it there.
     *
     * @param relative the path inside the mount, {@code '/'}-separated, not empty
     * @return the first matching glob, or empty
     */
    Optional<String> match(String relative) {
        if (rules.isEmpty() || relative.isEmpty()) {
            return Optional.empty();
        }
        int start = 0;
        while (true) {
            int end = relative.indexOf('/', start);
            int nameEnd = end < 0 ? relative.length() : end;
            if (rules.size() > Long.SIZE || candidates(relative, start, nameEnd) != 0) {
                String prefix = end < 0 ? relative : relative.substring(0, end);
                Optional<String> found = matchExactly(prefix, start);
                if (found.isPresent()) {
                    return found;
                }
            }
            if (end < 0) {
                return Optional.empty();
            }
            start = end + 1;
        }
    }

    /** The rules the name {@code relative[start, end)} may match (a superset), as a bit mask over the rules. */
    private long candidates(String relative, int start, int end) {
        if (start == end) {
            return unbounded;
        }
        return unbounded | byFirst[slot(relative.charAt(start))] | byLast[slot(relative.charAt(end - 1))];
    }

    /**
     * The first rule that matches a relative path itself, not the directories above it. A walk asks about every
     * entry: most names are rejected by their first and last character ({@link #candidates}) without a rule.
     *
     * @param relative  a path inside a mount, {@code '/'}-separated, not empty
     * @param nameStart where its last name starts
     * @return the rule's glob, or empty
     */
    Optional<String> matchName(String relative, int nameStart) {
        if (rules.size() <= Long.SIZE && candidates(relative, nameStart, relative.length()) == 0) {
            return Optional.empty();
        }
        return matchExactly(relative, nameStart);
    }

    private Optional<String> matchExactly(String relative, int nameStart) {
        for (Rule rule : rules) {
            if (rule.matches(relative, nameStart)) {
                return Optional.of(rule.pattern());
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return "ProtectedPaths" + patterns();
    }
}
