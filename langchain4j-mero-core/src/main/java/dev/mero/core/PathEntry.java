package dev.mero.core;

import dev.mero.core.message.Messages;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A real directory mounted under a slug, with the permissions an agent has inside it.
 *
 * <p>An agent addresses the directory as {@code /slug/...}. Allowed permissions are granted inside the
 * directory unless a more deeply nested entry says otherwise; a denied permission wins over every allow
 * for everything below the directory, nested entries included. An entry allows nothing unless told to.
 *
 * <pre>{@code
 * PathEntry ws = PathEntry.builder()
 *         .path("/srv/workspace")
 *         .slug("ws")
 *         .allow(Permission.READ, Permission.WRITE)
 *         .deny(Permission.DELETE)
 *         .build();
 * PathEntry docs = PathEntry.of("/srv/docs", "docs", Permission.READ);
 * }</pre>
 *
 * <p>The directory must exist when the entry is built; it is canonicalised then (symlinks resolved), its
 * identity is taken (the file key, device and inode on Unix), and every later decision compares canonical real
 * paths component by component. A mount whose directory has changed since (replaced, moved away, or turned
 * into a link to somewhere else) is refused on every use, in the context and in every context narrowed from it,
 * rather than followed to wherever its path leads now. Instances are immutable and
 * thread-safe.
 */
public final class PathEntry {

    /** Slugs are lower-case names that can be written in a path without quoting. */
    private static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9_-]*");
    private static final int MAX_SLUG_LENGTH = 64;

    private final Path path;
    private final Path realPath;
    private final String slug;
    private final Set<Permission> allowed;
    private final Set<Permission> denied;
    private final Set<Permission> approvalRequired;
    /** The directory's identity when it was resolved, or {@code null} where the file system has no file key. */
    private final Object identity;

    private PathEntry(Builder builder) {
        if (builder.path == null) {
            throw new IllegalArgumentException("PathEntry needs a path; call path(...) on the builder");
        }
        this.slug = validSlug(builder.slug);
        this.path = builder.path;
        this.realPath = realDirectory(builder.path, slug);
        this.identity = identity(realPath, slug);
        this.allowed = frozen(builder.allowed);
        this.denied = frozen(builder.denied);
        this.approvalRequired = frozen(builder.approvalRequired);
    }

    /** A copy of a resolved entry with other permissions: nothing is resolved again. */
    private PathEntry(PathEntry resolved, EnumSet<Permission> allowed, EnumSet<Permission> denied,
                      EnumSet<Permission> approvalRequired) {
        this.slug = resolved.slug;
        this.path = resolved.path;
        this.realPath = resolved.realPath;
        this.identity = resolved.identity;
        this.allowed = frozen(allowed);
        this.denied = frozen(denied);
        this.approvalRequired = frozen(approvalRequired);
    }

    /**
     * This entry's resolved directory, exactly as it is (real path and identity, never resolved again), with
     * other permissions: how a narrowed context keeps its parent's mounts.
     */
    PathEntry withPermissions(EnumSet<Permission> allowed, EnumSet<Permission> denied,
                              EnumSet<Permission> approvalRequired) {
        return new PathEntry(this, allowed, denied, approvalRequired);
    }

    /**
     * Tells whether attributes read from an open directory (not through a path) are those of this entry's
     * directory as it was resolved when the entry was built: a directory with the same file key. This binds an
     * open directory handle to the mount, whatever has been renamed since. Always {@code false} where the file
     * system has no file keys.
     *
     * @param attributes attributes of an open directory
     * @return {@code true} if it is the mounted directory
     */
    public boolean isMountedDirectory(BasicFileAttributes attributes) {
        // the read key compares first: the portable directory layer's key knows the JDK's, not the other way round
        Object key = attributes.fileKey();
        return attributes.isDirectory() && identity != null && key != null && key.equals(identity);
    }

    /**
     * Checks that the mounted directory is still the one resolved when the entry was built: the real path is a
     * directory, not a link, with the same identity.
     *
     * @param contextName the context's name, for the message
     * @throws PathAccessDeniedException if it was replaced, moved away or turned into a link
     */
    public void requireUnchanged(String contextName) {
        try {
            BasicFileAttributes now = Files.readAttributes(realPath, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (now.isDirectory() && (identity == null || identity.equals(now.fileKey()))) {
                return;
            }
        } catch (IOException gone) {
            // moved away or deleted: refused below
        }
        throw new PathAccessDeniedException("The mount " + Messages.quote(mountPoint()) + " in context "
                + Messages.quote(contextName) + " is no longer the directory it was when the context was built (it "
                + "was replaced, moved or turned into a link), so nothing under it is used. Ask the operator to "
                + "build the context again.");
    }

    /**
     * Shorthand for an entry that allows the given permissions and denies nothing.
     *
     * @param path    the directory, absolute or relative to the working directory
     * @param slug    the mount name, lower-case {@code [a-z0-9][a-z0-9_-]*}
     * @param allowed the permissions granted inside the directory
     * @return the entry
     * @throws IllegalArgumentException if the slug is malformed or the directory does not exist
     */
    public static PathEntry of(String path, String slug, Permission... allowed) {
        return builder().path(path).slug(slug).allow(allowed).build();
    }

    /**
     * Shorthand for an entry that allows the given permissions and denies nothing.
     *
     * @param path    the directory, absolute or relative to the working directory
     * @param slug    the mount name, lower-case {@code [a-z0-9][a-z0-9_-]*}
     * @param allowed the permissions granted inside the directory
     * @return the entry
     * @throws IllegalArgumentException if the slug is malformed or the directory does not exist
     */
    public static PathEntry of(Path path, String slug, Permission... allowed) {
        return builder().path(path).slug(slug).allow(allowed).build();
    }

    /**
     * Starts a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The directory as configured, made absolute.
     *
     * @return the configured directory
     */
    public Path path() {
        return path;
    }

    /**
     * The canonical real directory (symlinks resolved when the entry was built); every containment
     * decision is taken against this path.
     *
     * @return the canonical directory
     */
    public Path realPath() {
        return realPath;
    }

    /**
     * The mount name: the agent writes {@code /slug/...}.
     *
     * @return the slug
     */
    public String slug() {
        return slug;
    }

    /**
     * The mount point as the agent sees it, {@code /slug}.
     *
     * @return {@code "/" + slug()}
     */
    public String mountPoint() {
        return "/" + slug;
    }

    /**
     * Permissions granted inside the directory.
     *
     * @return an immutable set, possibly empty
     */
    public Set<Permission> allowed() {
        return allowed;
    }

    /**
     * Permissions refused inside the directory, whatever any entry allows.
     *
     * @return an immutable set, possibly empty
     */
    public Set<Permission> denied() {
        return denied;
    }

    /**
     * Permissions that, inside this directory, need a human's approval before the action runs.
     *
     * @return an immutable set, possibly empty
     */
    public Set<Permission> approvalRequired() {
        return approvalRequired;
    }

    @Override
    public String toString() {
        return "PathEntry{" + mountPoint() + " -> " + realPath + ", allow=" + Messages.permissions(allowed)
                + ", deny=" + Messages.permissions(denied) + "}";
    }

    private static String validSlug(String slug) {
        if (slug == null || slug.length() > MAX_SLUG_LENGTH || !SLUG.matcher(slug).matches()) {
            throw new IllegalArgumentException("Invalid slug " + Messages.quote(slug)
                    + ": a slug is 1 to " + MAX_SLUG_LENGTH
                    + " characters of [a-z0-9_-] starting with a letter or digit, for example 'ws'");
        }
        return slug;
    }

    private static Path realDirectory(Path path, String slug) {
        try {
            if (!Files.isDirectory(path)) {
                throw new IllegalArgumentException("PathEntry " + Messages.quote("/" + slug) + ": directory "
                        + Messages.quote(path.toString()) + " does not exist or is not a directory");
            }
            return path.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("PathEntry " + Messages.quote("/" + slug) + ": directory "
                    + Messages.quote(path.toString()) + " cannot be resolved: " + e.getMessage(), e);
        }
    }

    private static Object identity(Path realPath, String slug) {
        try {
            return Files.readAttributes(realPath, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException e) {
            throw new IllegalArgumentException("PathEntry " + Messages.quote("/" + slug) + ": directory "
                    + Messages.quote(realPath.toString()) + " cannot be read: " + e.getMessage(), e);
        }
    }

    private static Set<Permission> frozen(EnumSet<Permission> permissions) {
        return Collections.unmodifiableSet(EnumSet.copyOf(permissions));
    }

    /** Builds a {@link PathEntry}; {@link #path(Path)} and {@link #slug(String)} are required. */
    public static final class Builder {

        private Path path;
        private String slug;
        private final EnumSet<Permission> allowed = EnumSet.noneOf(Permission.class);
        private final EnumSet<Permission> denied = EnumSet.noneOf(Permission.class);
        private final EnumSet<Permission> approvalRequired = EnumSet.noneOf(Permission.class);

        private Builder() {
        }

        /**
         * Sets the directory to mount.
         *
         * @param path an existing directory, absolute or relative to the working directory
         * @return this builder
         */
        public Builder path(Path path) {
            Objects.requireNonNull(path, "path");
            this.path = path.toAbsolutePath().normalize();
            return this;
        }

        /**
         * Sets the directory to mount.
         *
         * @param path an existing directory, absolute or relative to the working directory
         * @return this builder
         * @throws IllegalArgumentException if the text is not a path
         */
        public Builder path(String path) {
            Objects.requireNonNull(path, "path");
            if (path.isEmpty() || path.contains("\0")) {
                throw new IllegalArgumentException("Invalid PathEntry path " + Messages.quote(path));
            }
            try {
                return path(Path.of(path));
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("Invalid PathEntry path " + Messages.quote(path), e);
            }
        }

        /**
         * Sets the mount name.
         *
         * @param slug lower-case {@code [a-z0-9][a-z0-9_-]*}, unique within a context
         * @return this builder
         */
        public Builder slug(String slug) {
            this.slug = slug;
            return this;
        }

        /**
         * Adds permissions granted inside the directory.
         *
         * @param permissions the permissions
         * @return this builder
         */
        public Builder allow(Permission... permissions) {
            addAll(allowed, permissions, "allow");
            return this;
        }

        /**
         * Adds permissions refused inside the directory; a deny wins over every allow.
         *
         * @param permissions the permissions
         * @return this builder
         */
        public Builder deny(Permission... permissions) {
            addAll(denied, permissions, "deny");
            return this;
        }

        /**
         * Adds permissions that need a human's approval inside this directory.
         *
         * @param permissions the permissions
         * @return this builder
         */
        public Builder requireApproval(Permission... permissions) {
            addAll(approvalRequired, permissions, "requireApproval");
            return this;
        }

        /**
         * Builds the entry, canonicalising the directory.
         *
         * @return the entry
         * @throws IllegalArgumentException if the slug is malformed or the directory does not exist
         */
        public PathEntry build() {
            return new PathEntry(this);
        }

        private static void addAll(EnumSet<Permission> target, Permission[] permissions, String what) {
            Objects.requireNonNull(permissions, what);
            for (Permission permission : permissions) {
                target.add(Objects.requireNonNull(permission, what + " permission"));
            }
        }
    }
}
