package dev.mero.core.path;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.guard.Operation;
import dev.mero.core.message.Messages;

import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The outcome of a successful path check: which entry a path falls under, how the agent names it, and the
 * canonical real path an operation must use.
 *
 * <p>{@link #realPath()} is canonical: it contains no symlink that existed at check time, so an operation
 * can open it with {@link java.nio.file.LinkOption#NOFOLLOW_LINKS} and notice a link swapped in since. For
 * a target that does not exist yet it is the canonical parent joined with the missing names. Because
 * checking and using are two steps, an operation re-checks the target with
 * {@link SecurityContext#recheck(ResolvedPath)} right before (and, for writes, right after) it touches the
 * file system.
 *
 * <p>Instances are immutable and are created only by {@link SecurityContext}.
 */
public final class ResolvedPath {

    private final String input;
    private final PathEntry entry;
    private final String virtualPath;
    private final Path realPath;
    private final Set<Permission> checked;
    private final Set<Permission> effective;
    private final Set<Permission> approvalRequired;
    private final String contentDigest;
    /** How the path was resolved: {@code false} when a link at its last name is the target itself. */
    private final boolean followsLastLink;
    /** Whether the target is a symbolic link resolved as itself. */
    private final boolean link;
    /** Where that link leads (canonical), or {@code null} when it is no link or leads nowhere. */
    private final Path linkTarget;

    ResolvedPath(String input, PathEntry entry, String virtualPath, Path realPath,
                 Set<Permission> checked, Set<Permission> effective, Set<Permission> approvalRequired) {
        this(input, entry, virtualPath, realPath, checked, effective, approvalRequired, null, true, false, null);
    }

    private ResolvedPath(String input, PathEntry entry, String virtualPath, Path realPath, Set<Permission> checked,
                         Set<Permission> effective, Set<Permission> approvalRequired, String contentDigest,
                         boolean followsLastLink, boolean link, Path linkTarget) {
        this.contentDigest = contentDigest;
        this.followsLastLink = followsLastLink;
        this.link = link;
        this.linkTarget = linkTarget;
        this.input = input;
        this.entry = entry;
        this.virtualPath = virtualPath;
        this.realPath = realPath;
        this.checked = frozen(checked);
        this.effective = frozen(effective);
        this.approvalRequired = frozen(approvalRequired);
    }

    /**
     * The path exactly as it was given to the check.
     *
     * @return the input path
     */
    public String input() {
        return input;
    }

    /**
     * The entry whose directory most closely contains the real path (for a path through a symlink, the entry
     * of its target; for a {@link #isSymbolicLink() link resolved as itself}, the entry of the link's location).
     *
     * @return the deciding entry
     */
    public PathEntry entry() {
        return entry;
    }

    /**
     * The deciding entry's slug.
     *
     * @return the slug
     */
    public String slug() {
        return entry.slug();
    }

    /**
     * The path as the agent should name it: {@code /slug} for the mount root, {@code /slug/rest} below it.
     *
     * @return the virtual path
     */
    public String virtualPath() {
        return virtualPath;
    }

    /**
     * The canonical real path to operate on.
     *
     * @return the real path
     */
    public Path realPath() {
        return realPath;
    }

    /**
     * The permissions that were checked and granted for this target ({@code checkPath} checks none).
     *
     * @return an immutable set
     */
    public Set<Permission> checkedPermissions() {
        return checked;
    }

    /**
     * Every permission the context grants on this target: the deciding entry's allows, capped by the
     * context, minus the denies of every entry that contains it.
     *
     * @return an immutable set
     */
    public Set<Permission> effectivePermissions() {
        return effective;
    }

    /**
     * Permissions that need a human's approval at this target because an entry containing it requires
     * approval for them ({@link PathEntry.Builder#requireApproval(Permission...)}); the context's own
     * requirements come on top.
     *
     * @return an immutable set
     */
    public Set<Permission> approvalRequired() {
        return approvalRequired;
    }

    /**
     * The {@link ContentDigest} of the content this target was guarded (and approved) for, by
     * {@link SecurityContext#guard(Operation, String, String, String)};
     * {@link SecurityContext#recheck(ResolvedPath, byte[])} refuses to let other content be written.
     *
     * @return the digest, absent for a target guarded without content
     */
    public Optional<String> contentDigest() {
        return Optional.ofNullable(contentDigest);
    }

    /** This target, bound to the digest of the content it was guarded for. */
    public ResolvedPath withContentDigest(String digest) {
        if (Objects.equals(digest, contentDigest)) {
            return this;
        }
        return new ResolvedPath(input, entry, virtualPath, realPath, checked, effective, approvalRequired, digest,
                followsLastLink, link, linkTarget);
    }

    /**
     * This target resolved without following a link at its last name ({@code lstat}, like {@code rm} and
     * {@code mv}): {@code link} tells whether a symbolic link is there, {@code target} where it leads.
     */
    ResolvedPath asEntry(boolean isLink, Path target) {
        return new ResolvedPath(input, entry, virtualPath, realPath, checked, effective, approvalRequired,
                contentDigest, false, isLink, target);
    }

    /** Whether a link at the last name was followed when this target was resolved (the default). */
    public boolean followsLastLink() {
        return followsLastLink;
    }

    /**
     * Tells whether the target is a symbolic link that was resolved as itself: a path checked with
     * {@link java.nio.file.LinkOption#NOFOLLOW_LINKS} whose last name is a link. {@link #realPath()} is then the
     * link's own location (its directory resolved, its name kept), as {@code rm} and {@code mv} see it; a path
     * checked the ordinary way never names a link.
     *
     * @return {@code true} for a link resolved as itself
     */
    public boolean isSymbolicLink() {
        return link;
    }

    /**
     * Where a {@link #isSymbolicLink() link resolved as itself} leads: the canonical host path at the end of its
     * chain. For the audit log only; a message for the model names virtual paths.
     *
     * @return the link's target, empty when the target is no link or the link leads nowhere (dangling, looping)
     */
    public Optional<Path> linkTarget() {
        return Optional.ofNullable(linkTarget);
    }

    /**
     * Tells whether the target is the mount root of its entry.
     *
     * @return {@code true} for {@code /slug} itself
     */
    public boolean isMountRoot() {
        Path root = entry.realPath();
        // paths of other lengths differ: no byte comparison along the common prefix then
        return realPath.getNameCount() == root.getNameCount() && realPath.equals(root);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResolvedPath other && input.equals(other.input) && entry == other.entry
                && realPath.equals(other.realPath) && checked.equals(other.checked)
                && effective.equals(other.effective) && followsLastLink == other.followsLastLink
                && link == other.link && Objects.equals(linkTarget, other.linkTarget);
    }

    @Override
    public int hashCode() {
        return realPath.hashCode() * 31 + input.hashCode();
    }

    @Override
    public String toString() {
        return "ResolvedPath{" + Messages.quote(input) + " -> " + virtualPath + " (" + realPath + ")}";
    }

    private static Set<Permission> frozen(Set<Permission> permissions) {
        return Collections.unmodifiableSet(permissions.isEmpty()
                ? EnumSet.noneOf(Permission.class) : EnumSet.copyOf(permissions));
    }
}
