package dev.mero.core.ops;

import dev.mero.core.catalogue.ParameterType;
import dev.mero.core.catalogue.ToolDescriptor;
import dev.mero.core.catalogue.ToolHints;
import dev.mero.core.catalogue.ToolParameter;

import dev.mero.core.message.Messages;

/**
 * A glob a model wrote, matched against paths relative to the searched directory. A pattern without {@code '/'}
 * matches a name at any depth ({@code *.md}); {@code **}{@code /x} also matches {@code x} at the top. Matching is
 * purely textual: a pattern can never name anything outside the walked tree. The syntax is the JDK's
 * {@code glob:}; matching is linear in the path, without backtracking ({@link GlobMatcher}).
 *
 * <p>Public for the core's protected paths ({@code SecurityContext.Builder#protectedPaths}), which are globs of
 * this same syntax matched against paths inside each mount. Instances are immutable and thread-safe.
 */
public final class GlobPattern {

    private static final int MAX_LENGTH = 1000;

    private final GlobMatcher matcher;
    private final GlobMatcher topLevel;
    private final boolean byName;

    private GlobPattern(GlobMatcher matcher, GlobMatcher topLevel, boolean byName) {
        this.matcher = matcher;
        this.topLevel = topLevel;
        this.byName = byName;
    }

    /**
     * Compiles a glob.
     *
     * @param tool    the tool, for the invalid-input message
     * @param name    the argument's name
     * @param pattern the glob
     * @return the pattern
     */
    static GlobPattern compile(ToolDescriptor tool, String name, String pattern) {
        if (pattern.isBlank() || pattern.length() > MAX_LENGTH
                || pattern.codePoints().anyMatch(Messages::isControlOrInvisible)) {
            throw ToolArguments.invalid(tool, "'" + name + "' must be a glob of 1 to " + MAX_LENGTH + " visible "
                    + "characters, for example '*.md'");
        }
        String glob = pattern.startsWith("/") ? pattern.substring(1) : pattern;
        try {
            GlobMatcher matcher = GlobMatcher.compile(glob);
            GlobMatcher topLevel = glob.startsWith("**/") && glob.length() > 3
                    ? GlobMatcher.compile(glob.substring(3)) : null;
            return new GlobPattern(matcher, topLevel, !glob.contains("/"));
        } catch (GlobMatcher.GlobSyntaxException e) {
            throw ToolArguments.invalid(tool, "'" + name + "' is not a valid glob (" + e.getMessage() + ")");
        }
    }

    /**
     * Compiles a glob a developer configured (a protected path), with the same syntax as the tools' globs.
     *
     * @param glob the glob, such as {@code **}{@code /.env} or {@code *.pem}
     * @return the pattern
     * @throws IllegalArgumentException if the glob is blank, too long, has control characters or is malformed
     */
    public static GlobPattern of(String glob) {
        try {
            return compile(CONFIGURED, "pattern", glob);
        } catch (dev.mero.core.InvalidInputException e) {
            throw new IllegalArgumentException("Invalid glob " + Messages.quote(glob) + ": give a glob of 1 to "
                    + MAX_LENGTH + " visible characters such as '**/.env' or '*.pem'", e);
        }
    }

    /** Names the argument of a configured glob in {@link #compile}'s refusal, which {@link #of} rewords. */
    private static final ToolDescriptor CONFIGURED = ToolDescriptor.builder().name("protected_paths")
            .description("A configured glob").operation(dev.mero.core.guard.Operation.FILE_READ)
            .hints(ToolHints.READ_ONLY)
            .parameter(ToolParameter.required("pattern", ParameterType.STRING, "The glob")).build();

    /**
     * Tells whether a relative path matches.
     *
     * @param relative the path below the searched directory, {@code '/'}-separated
     * @return {@code true} on a match
     */
    public boolean matches(String relative) {
        if (byName) {
            return matcher.matches(relative.substring(relative.lastIndexOf('/') + 1));
        }
        return matcher.matches(relative) || topLevel != null && topLevel.matches(relative);
    }
}
