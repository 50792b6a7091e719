package dev.mero.core;

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
 */
final class ProtectedPaths {

    /** The default set, in the order a refusal names the first that matches. */
    static final List<String> DEFAULTS = List.of(
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

    /** One glob and the names it leaves readable. */
    private record Rule(String pattern, GlobPattern glob, List<GlobPattern> except) {

        boolean matches(String relative) {
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

    private ProtectedPaths(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /**
     * No protected path at all.
     *
     * @return the empty set
     */
    static ProtectedPaths none() {
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
    ProtectedPaths plus(Collection<String> globs, boolean defaults) {
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
            wider.add(new Rule(pattern, glob, List.copyOf(except)));
        }
        return new ProtectedPaths(wider);
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
    List<String> patterns() {
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
        int end = relative.indexOf('/');
        while (true) {
            String prefix = end < 0 ? relative : relative.substring(0, end);
            Optional<String> found = matchExactly(prefix);
            if (found.isPresent() || end < 0) {
                return found;
            }
            end = relative.indexOf('/', end + 1);
        }
    }

    /**
     * The glob that matches a path inside a mount itself, ignoring the directories above it: for a walk that
     * never enters a protected directory.
     *
     * @param relative the path inside the mount, {@code '/'}-separated, not empty
     * @return the first matching glob, or empty
     */
    Optional<String> matchExactly(String relative) {
        for (Rule rule : rules) {
            if (rule.matches(relative)) {
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
