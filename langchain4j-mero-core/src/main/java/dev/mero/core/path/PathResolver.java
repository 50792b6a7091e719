package dev.mero.core.path;

import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.PermissionDeniedException;
import dev.mero.core.message.Messages;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Turns a path an agent wrote into a decision on a canonical real path. Holds no mutable state, so one
 * instance serves every thread of its {@code SecurityContext}.
 *
 * <p>Three forms are accepted: {@code /slug/rest} (a mounted entry), a relative path (against the first,
 * default entry), and an absolute host path that lies inside an entry's directory. Lexical {@code ..} is
 * applied first and may never climb above the mount it is written under; then every symlink is resolved
 * (for a missing target, the deepest existing ancestor), and the resulting real path is compared with each
 * entry's real directory component by component.
 *
 * <p>Internal: public only because {@code dev.mero.core.SecurityContext}, the facade in the root package, builds and
 * calls it; applications use {@code SecurityContext}, not this class.
 */
public final class PathResolver {

    private final String contextName;
    /** How many mount points a denial names at most. */
    static final int MAX_LISTED_MOUNTS = 10;

    private final List<PathEntry> entries;
    /** Entries from the outermost directory to the innermost, stable for equal depth. */
    private final List<PathEntry> byDepth;
    /** The name counts of the entries' real directories, ascending, each once: the only ancestors to look up. */
    private final int[] rootDepths;
    private final Set<Permission> ceiling;
    /** Entries by slug: a virtual path finds its mount in one look-up, whatever the number of entries. */
    private final Map<String, PathEntry> bySlug;
    /** Entries by real directory, each list in {@link #byDepth} order: containment costs one look-up per name. */
    private final Map<Path, List<PathEntry>> byRealRoot;
    /** {@link #byDepth} positions of the entries whose real or configured directory has these names. */
    private final Map<List<String>, List<Integer>> byLexicalRoot;
    /** Globs no permission reaches, matched against the path inside every entry that contains a target. */
    private final ProtectedPaths protection;
    /** The directory {@link #protectedEntryPattern} was last asked about; replaced whole, so safe to share. */
    private volatile DirectoryInside lastDirectory;

    public PathResolver(String contextName, List<PathEntry> entries, Set<Permission> ceiling) {
        this(contextName, entries, ceiling, ProtectedPaths.none());
    }

    public PathResolver(String contextName, List<PathEntry> entries, Set<Permission> ceiling, ProtectedPaths protection) {
        this.contextName = contextName;
        this.protection = protection;
        this.entries = List.copyOf(entries);
        List<PathEntry> sorted = new ArrayList<>(entries);
        sorted.sort(Comparator.comparingInt(e -> e.realPath().getNameCount()));
        this.byDepth = List.copyOf(sorted);
        this.rootDepths = sorted.stream().mapToInt(e -> e.realPath().getNameCount()).distinct().toArray();
        this.ceiling = ceiling;
        Map<String, PathEntry> slugs = new HashMap<>();
        for (PathEntry entry : this.entries) {
            slugs.putIfAbsent(entry.slug(), entry);
        }
        // HashMaps, never changed after this constructor, not Map.copyOf: the immutable map probes linearly, and
        // the similar names of many mounts (m1, m2, ...) hash to neighbouring slots, so that a look-up at 10,000
        // entries compared keys along long runs (twice the time of the same decision with one entry)
        this.bySlug = Collections.unmodifiableMap(slugs);
        Map<Path, List<PathEntry>> real = new HashMap<>();
        Map<List<String>, List<Integer>> lexical = new HashMap<>();
        for (int i = 0; i < byDepth.size(); i++) {
            PathEntry entry = byDepth.get(i);
            real.computeIfAbsent(entry.realPath(), key -> new ArrayList<>()).add(entry);
            lexical.computeIfAbsent(names(entry.realPath()), key -> new ArrayList<>()).add(i);
            if (!entry.path().equals(entry.realPath())) {
                lexical.computeIfAbsent(names(entry.path()), key -> new ArrayList<>()).add(i);
            }
        }
        this.byRealRoot = Collections.unmodifiableMap(real);
        this.byLexicalRoot = Collections.unmodifiableMap(lexical);
    }

    private static List<String> names(Path directory) {
        List<String> names = new ArrayList<>(directory.getNameCount());
        for (Path name : directory) {
            names.add(name.toString());
        }
        return List.copyOf(names);
    }

    /**
     * The context's name, for messages.
     *
     * @return the name
     */
    public String contextName() {
        return contextName;
    }

    /**
     * The context's entries, in the order they were configured (the default one first).
     *
     * @return an immutable list
     */
    public List<PathEntry> entries() {
        return entries;
    }

    /**
     * The context's permission ceiling.
     *
     * @return the ceiling
     */
    public Set<Permission> ceiling() {
        return ceiling;
    }

    /**
     * Checks that the ceiling includes every permission an action needs.
     *
     * @param needed the permissions
     * @throws PermissionDeniedException if the ceiling lacks one of them
     */
    public void checkPermission(Set<Permission> needed) {
        EnumSet<Permission> beyondCeiling = difference(needed, ceiling);
        if (!beyondCeiling.isEmpty()) {
            throw new PermissionDeniedException(Messages.lacksPermissions(contextName, beyondCeiling, ceiling));
        }
    }

    /**
     * Resolves a target again and requires the same real path (and, for a link, the same link target), without
     * recording anything: the check between a decision and its use.
     *
     * @param target a target this resolver resolved earlier
     * @return the target as resolved now, with the content digest it was guarded for
     * @throws PathAccessDeniedException if the target now resolves elsewhere or is no longer covered
     */
    public ResolvedPath resolveAgain(ResolvedPath target) {
        ResolvedPath now = resolve(target.input(), target.checkedPermissions(), target.followsLastLink());
        if (now.realPath().equals(target.realPath()) && !now.linkTarget().equals(target.linkTarget())) {
            throw new PathAccessDeniedException("Path " + Messages.quote(target.input()) + " changed while it was "
                    + "being used: the symbolic link " + Messages.quote(target.virtualPath()) + " now leads elsewhere. "
                    + "Nothing was done; check the link and try again.").withAuditDetail("link led to "
                    + target.linkTarget().map(Path::toString).orElse("nothing") + ", now "
                    + now.linkTarget().map(Path::toString).orElse("nothing"));
        }
        if (!now.realPath().equals(target.realPath())) {
            throw new PathAccessDeniedException("Path " + Messages.quote(target.input()) + " changed while it was "
                    + "being used: it resolved to " + Messages.quote(target.virtualPath())
                    + " when checked and now resolves to " + Messages.quote(now.virtualPath())
                    + ". Nothing was done; check the path and try again.").withAuditDetail("resolved to "
                    + Messages.quote(target.realPath().toString()) + ", now " + Messages.quote(now.realPath().toString()));
        }
        return now.withContentDigest(target.contentDigest().orElse(null));
    }

    public ResolvedPath resolve(String input, Set<Permission> needed) {
        return resolve(input, needed, true);
    }

    /**
     * Resolves and decides a path; with {@code followLast} false a symbolic link at its last name is not followed
     * ({@code lstat}, as {@code rm} and {@code mv} see a path): the decision is on the link's own location, and
     * the link must lead inside the mounts, or nowhere (dangling, looping), for the path to be accepted.
     */
    public ResolvedPath resolve(String input, Set<Permission> needed, boolean followLast) {
        List<String> names = PathSyntax.components(input);
        ResolvedPath opened = followLast ? decideOpening(input, names, needed) : null;
        if (opened != null) {
            return opened;
        }
        try {
            Path real = input.startsWith("/") ? absolute(input, names, followLast, false)
                    : relative(input, names, followLast, false);
            ResolvedPath decided = decide(input, real, needed);
            return followLast ? decided : asEntry(decided);
        } catch (InvalidPathException e) {
            // a name the JVM's file-name encoding cannot represent (a non-UTF-8 locale): the cause and the fix
            throw new OperationFailedException("Path " + Messages.quote(input) + " cannot be used: "
                    + FileNameEncoding.unusableNameReason() + ".", e);
        }
    }

    /** A decided target as its own directory entry: a link there is named, and must not lead out of the mounts. */
    private ResolvedPath asEntry(ResolvedPath decided) {
        Path location = decided.realPath();
        if (decided.isMountRoot() || !Files.isSymbolicLink(location)) {
            return decided.asEntry(false, null);
        }
        Path target = SymbolicLinks.leadsTo(location.getParent(), SymbolicLinks.text(location)).orElse(null);
        if (target != null && containing(target).isEmpty()) {
            throw (PathAccessDeniedException) new PathAccessDeniedException("Path " + Messages.quote(decided.input())
                    + " is a symbolic link that leads outside the mounted entries of context "
                    + Messages.quote(contextName) + "; such a link is not deleted, moved or copied, and nothing was "
                    + "changed. Ask the user to remove it if it is not needed.")
                    .withAuditDetail("symbolic link " + Messages.quote(location.toString()) + " leads to "
                            + Messages.quote(target.toString()));
        }
        // a link to a protected file is protected too, also when it is acted on as itself
        Optional<String> protectedBy = target == null ? Optional.empty() : protectedPattern(target);
        if (protectedBy.isPresent()) {
            throw protectedPath(decided.input(), target, protectedBy.get());
        }
        return decided.asEntry(true, target);
    }

    /**
     * Checks that a symbolic link resolved as itself may be placed, with its text unchanged, at {@code destination}
     * (a canonical location): where it leads from its own directory and from the destination's must both exist
     * inside the mounts, and there it must neither replace what it leads to nor name itself.
     *
     * @return the link's text, as checked
     */
    public String linkTextFor(ResolvedPath link, Path destination) {
        Path directory = destination.getParent();
        Path location = link.realPath();
        String text = SymbolicLinks.text(location);
        if (text == null) {
            throw new OperationFailedException(Messages.quote(link.virtualPath()) + " is no longer a symbolic link; "
                    + "nothing was changed. Check it and try again.");
        }
        Optional<Path> here = SymbolicLinks.leadsTo(location.getParent(), text);
        Optional<Path> there = SymbolicLinks.leadsTo(directory, text);
        String problem = null;
        if (here.isEmpty()) {
            problem = "leads to nothing (its target does not exist, or the link loops)";
        } else if (containing(here.get()).isEmpty()) {
            problem = "leads outside the mounted entries";
        } else if (there.isEmpty() || containing(there.get()).isEmpty()) {
            problem = "would lead " + (there.isEmpty() ? "to nothing" : "outside the mounted entries")
                    + " from its new place (its relative target is kept as written, as mv and cp -P keep it)";
        } else if (there.get().equals(destination) || destination.equals(SymbolicLinks.firstHop(directory, text))) {
            problem = "would replace what it points to, or point to itself, at its new place";
        }
        if (problem != null) {
            throw (PathAccessDeniedException) new PathAccessDeniedException("Path " + Messages.quote(link.virtualPath())
                    + " is a symbolic link that " + problem + "; in context " + Messages.quote(contextName)
                    + " a link is moved or copied only when it leads to something inside the mounts. Nothing was "
                    + "changed.").withAuditDetail("symbolic link " + Messages.quote(location.toString()) + " -> "
                    + Messages.quote(text) + " placed in " + Messages.quote(directory.toString()));
        }
        return text;
    }

    /**
     * A read decided on the path as written and confirmed by opening it ({@link ConfirmedOpen}), where the calling
     * thread has one installed: the decision first (below a mount's resolved directory, without an {@code lstat}
     * per name), then, only where it allows the read without an approval, the open from the outermost mount that
     * holds the file, which the kernel refuses if any name below that mount is a link. {@code null} for anything
     * else (a refusal, a link, a missing file, a file that is not regular): then the path is decided as always,
     * and a refusal explained as always.
     */
    private ResolvedPath decideOpening(String input, List<String> names, Set<Permission> needed) {
        ConfirmedOpen open = ConfirmedOpen.current();
        if (open == null || needed.size() != 1 || !needed.contains(Permission.READ)) {
            return null;
        }
        ResolvedPath decided;
        List<PathEntry> containing;
        try {
            Path lexical = input.startsWith("/") ? absolute(input, names, true, true)
                    : relative(input, names, true, true);
            if (lexical == null) {
                return null;
            }
            containing = containing(lexical);
            // one mount: where the open checks that it is unchanged, the decision need not look it up first
            boolean openChecksMount = containing.size() == 1 && open.opensOnlyBelowUnchangedMounts();
            decided = decide(input, lexical, containing, needed, !openChecksMount);
        } catch (RuntimeException refused) {
            // decided again, and explained, on the usual path
            return null;
        }
        if (decided.isMountRoot() || decided.approvalRequired().contains(Permission.READ)) {
            return null;
        }
        // the decision's own entries (its real path is the lexical one): the outermost holds the file
        return open.confirm(containing.get(0), decided.realPath()) ? decided : null;
    }

    private Path relative(String input, List<String> names, boolean followLast, boolean lexicalOnly) {
        if (entries.isEmpty()) {
            throw new PathAccessDeniedException("Path " + Messages.quote(input) + " is not covered by any PathEntry in "
                    + "context " + Messages.quote(contextName) + " (the context mounts no paths).");
        }
        return underMount(input, entries.get(0).realPath(), true, names, followLast, lexicalOnly);
    }

    /** With {@code lexicalOnly}: the path as written below a mount's resolved directory, else {@code null}. */
    private Path absolute(String input, List<String> names, boolean followLast, boolean lexicalOnly) {
        // 1. A host path written under an entry's directory (as configured or as resolved).
        PathEntry host = outermostLexicalRoot(names);
        if (host != null) {
            boolean resolved = startsWith(names, host.realPath());
            Path root = resolved ? host.realPath() : host.path();
            return underMount(input, root, resolved, names.subList(root.getNameCount(), names.size()), followLast,
                    lexicalOnly);
        }
        // 2. A virtual path under a mounted slug.
        PathEntry mount = names.isEmpty() ? null : bySlug.get(names.get(0));
        if (mount != null) {
            return underMount(input, mount.realPath(), true, names.subList(1, names.size()), followLast,
                    lexicalOnly);
        }
        if (lexicalOnly) {
            return null;
        }
        // 3. A host path that reaches an entry through a symlink elsewhere on the host.
        Path lexical = Path.of("/").resolve(String.join("/", names)).normalize();
        Path real;
        try {
            real = followLast || lexical.getNameCount() == 0 ? canonical(input, lexical)
                    : canonical(input, lexical.getParent()).resolve(lexical.getFileName());
        } catch (OperationFailedException e) {
            // a host path that cannot be resolved (e.g. /dev/fd/0, a pipe) cannot be shown to reach an entry
            throw notCoveredAbsolute(input);
        }
        if (containing(real).isEmpty()) {
            throw notCoveredAbsolute(input);
        }
        return real;
    }

    private PathAccessDeniedException notCoveredAbsolute(String input) {
        return new PathAccessDeniedException("Path " + Messages.quote(input) + " is an absolute path that isn't "
                + "covered by any configured PathEntry, and its leading segment doesn't match a mounted slug "
                + "(mounted: " + mounted() + ").");
    }

    /**
     * Applies {@code ..} lexically under {@code root}, refusing any climb above it, then canonicalises.
     * {@code canonicalRoot} says that {@code root} is an entry's resolved directory, so that only the names
     * below it need to be looked at.
     */
    private Path underMount(String input, Path root, boolean canonicalRoot, List<String> names, boolean followLast,
                            boolean lexicalOnly) {
        Deque<String> stack = new ArrayDeque<>();
        for (String name : names) {
            if (!name.equals("..")) {
                stack.addLast(name);
            } else if (stack.pollLast() == null) {
                Path escaped = root.resolve(String.join("/", names)).normalize();
                throw notCovered(input, escaped);
            }
        }
        // each name's path below the root, kept for canonicalBelow (no relativize, no Path per name again)
        Path[] below = new Path[stack.size()];
        Path lexical = root;
        int depth = 0;
        for (String name : stack) {
            lexical = lexical.resolve(name);
            below[depth++] = lexical;
        }
        if (lexicalOnly) {
            return canonicalRoot ? lexical : null;
        }
        if (!followLast && !stack.isEmpty()) {
            // the link's own location: its directory resolved, its name kept
            return canonicalUnder(input, canonicalRoot, lexical.getParent(), below, depth - 1)
                    .resolve(lexical.getFileName());
        }
        return canonicalUnder(input, canonicalRoot, lexical, below, depth);
    }

    /**
     * The canonical form of {@code lexical}, a path at or below the root whose names' paths below the root are
     * {@code below[0 .. depth)}, {@code below[depth - 1]} being {@code lexical} itself (the root when 0).
     */
    private Path canonicalUnder(String input, boolean canonicalRoot, Path lexical, Path[] below, int depth) {
        if (canonicalRoot) {
            Path real = canonicalBelow(lexical, below, depth);
            if (real != null) {
                return real;
            }
        }
        return canonical(input, lexical);
    }

    /**
     * The common case without {@code realpath}: below an entry's resolved (canonical) directory, a path whose
     * names are all plain directories, but for the last, which may be anything but a link or be missing, is
     * canonical as written. One {@code lstat} per name below the mount replaces the resolution of every name
     * from the file-system root (the mount itself is checked by {@link PathEntry#requireUnchanged}). Returns
     * {@code null} at the first link or error (a file used as a directory fails the next name's {@code lstat}),
     * for {@link #canonical} to decide.
     */
    private static Path canonicalBelow(Path lexical, Path[] below, int depth) {
        for (int i = 0; i < depth; i++) {
            Path current = below[i];
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (NoSuchFileException missing) {
                // every name above is a plain directory: the missing rest is appended as written
                return lexical;
            } catch (IOException | SecurityException e) {
                return null;
            }
            if (attributes.isSymbolicLink()) {
                return null;
            }
        }
        return lexical;
    }

    /**
     * The canonical real path of {@code lexical}: every symlink resolved; for a path that does not exist, the
     * deepest existing ancestor resolved and the missing names appended. A dangling or looping symlink is
     * never followed.
     */
    private Path canonical(String input, Path lexical) {
        try {
            return lexical.toRealPath();
        } catch (NoSuchFileException e) {
            // fall through: some of the path does not exist yet
        } catch (FileSystemException e) {
            // a loop, a file used as a directory, an unreadable directory: decided name by name below
        } catch (IOException e) {
            throw unresolvable(input, e);
        }
        Deque<Path> missing = new ArrayDeque<>();
        Path existing = lexical;
        while (existing != null && !Files.exists(existing)) {
            if (Files.isSymbolicLink(existing)) {
                throw danglingLink(input, existing);
            }
            missing.push(existing.getFileName());
            existing = existing.getParent();
        }
        if (existing == null) {
            throw unresolvable(input, null);
        }
        try {
            Path real = existing.toRealPath();
            while (!missing.isEmpty()) {
                real = real.resolve(missing.pop());
            }
            return real;
        } catch (IOException e) {
            throw unresolvable(input, e);
        }
    }

    private ResolvedPath decide(String input, Path real, Set<Permission> needed) {
        return decide(input, real, containing(real), needed, true);
    }

    /**
     * {@link #decide(String, Path, Set)} with the entries containing {@code real}, outermost first; without
     * {@code checkMounts} only where a {@link ConfirmedOpen} checks them as it opens, and any failure of that open
     * is decided again here with them.
     */
    private ResolvedPath decide(String input, Path real, List<PathEntry> containing, Set<Permission> needed,
                                boolean checkMounts) {
        if (containing.isEmpty()) {
            throw notCovered(input, real);
        }
        if (checkMounts) {
            for (PathEntry entry : containing) {
                entry.requireUnchanged(contextName);
            }
        }
        Optional<String> protectedBy = protectedPattern(real, containing);
        if (protectedBy.isPresent()) {
            throw protectedPath(input, real, protectedBy.get());
        }
        for (PathEntry entry : containing) {
            EnumSet<Permission> hit = intersection(needed, entry.denied());
            if (!hit.isEmpty()) {
                throw new PathAccessDeniedException("Path " + Messages.quote(input) + " is denied permission(s) "
                        + Messages.permissions(hit) + " by " + Messages.quote(entry.mountPoint()) + " in context "
                        + Messages.quote(contextName) + ".");
            }
        }
        if (needed.contains(Permission.WRITE) || needed.contains(Permission.DELETE)) {
            refuseRepositoryMetadata(input, real, containing.get(containing.size() - 1));
        }
        checkPermission(needed);
        Path innermostRoot = containing.get(containing.size() - 1).realPath();
        EnumSet<Permission> effective = EnumSet.copyOf(ceiling.isEmpty() ? EnumSet.noneOf(Permission.class) : ceiling);
        PathEntry deciding = null;
        for (PathEntry entry : containing) {
            if (!entry.realPath().equals(innermostRoot)) {
                continue;
            }
            // the same directory mounted twice is judged by its strictest view
            EnumSet<Permission> lacking = difference(needed, entry.allowed());
            if (!lacking.isEmpty()) {
                throw new PermissionDeniedException(Messages.quote(entry.mountPoint()) + " in context "
                        + Messages.quote(contextName) + " lacks permission(s) " + Messages.permissions(lacking)
                        + " for " + Messages.quote(input) + " (allows: " + Messages.permissions(entry.allowed()) + ").");
            }
            effective.retainAll(entry.allowed());
            if (deciding == null) {
                deciding = entry;
            }
        }
        EnumSet<Permission> approvalRequired = EnumSet.noneOf(Permission.class);
        for (PathEntry entry : containing) {
            effective.removeAll(entry.denied());
            approvalRequired.addAll(entry.approvalRequired());
        }
        return new ResolvedPath(input, deciding, virtualPath(deciding, real), real, needed, effective,
                approvalRequired);
    }

    /**
     * A repository's configuration and hooks name programs that git runs (an external diff, a filter, a
     * hook), so an agent never changes anything inside a {@code .git} directory below its mount, nor inside
     * any other directory that is a git repository whatever its name (a {@code HEAD} file, {@code objects/}
     * and {@code refs/}: a bare repository or a {@code --separate-git-dir}), nor such a directory itself. It
     * changes a repository through git commands, which the command policy decides.
     */
    private void refuseRepositoryMetadata(String input, Path real, PathEntry innermost) {
        Path directory = innermost.realPath();
        for (Path name : directory.relativize(real)) {
            if (name.toString().equalsIgnoreCase(".git")) {
                throw new PathAccessDeniedException("Path " + Messages.quote(input) + " is inside a '.git' directory, "
                        + "which may not be changed in context " + Messages.quote(contextName) + ": a repository's "
                        + "configuration and hooks can make git run programs. Change the repository with git "
                        + "commands instead.");
            }
        }
        Path current = directory;
        if (isRepository(current)) {
            throw insideRepository(input, innermost, current);
        }
        for (Path name : directory.relativize(real)) {
            if (name.toString().isEmpty()) {
                continue;
            }
            current = current.resolve(name);
            if (isRepository(current)) {
                throw insideRepository(input, innermost, current);
            }
        }
    }

    /** A directory git would open as a repository: {@code HEAD}, {@code objects/} and {@code refs/}. */
    static boolean isRepository(Path directory) {
        return Files.isDirectory(directory.resolve("objects"), LinkOption.NOFOLLOW_LINKS)
                && Files.isDirectory(directory.resolve("refs"), LinkOption.NOFOLLOW_LINKS)
                && Files.exists(directory.resolve("HEAD"), LinkOption.NOFOLLOW_LINKS);
    }

    private PathAccessDeniedException insideRepository(String input, PathEntry entry, Path repository) {
        return new PathAccessDeniedException("Path " + Messages.quote(input) + " is inside the git repository "
                + "directory " + Messages.quote(virtualPath(entry, repository)) + ", which may not be changed in "
                + "context " + Messages.quote(contextName) + ": a repository's configuration and hooks can make git "
                + "run programs, whatever the directory is called. Change the repository with git commands instead.");
    }

    /**
     * The protected path glob that covers a canonical path, matched against its path inside every entry that
     * contains it (and the directories above it there).
     *
     * @param real a canonical host path
     * @return the first matching glob, empty when none matches or no entry contains the path
     */
    public Optional<String> protectedPattern(Path real) {
        return protection.isEmpty() ? Optional.empty() : protectedPattern(real, containing(real));
    }

    private Optional<String> protectedPattern(Path real, List<PathEntry> containing) {
        if (protection.isEmpty()) {
            return Optional.empty();
        }
        for (PathEntry entry : containing) {
            Optional<String> found = protection.match(inside(entry, real));
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /**
     * The protected path glob that covers {@code directory/name}, where {@code directory} and every directory
     * above it inside its entries are not protected: only the entry's full path inside each containing entry is
     * matched. An entry that is itself a mount root is the empty path there, which nothing matches, so the entries
     * containing the directory are all that count; they are kept for the last directory asked about, as a walk
     * asks for every entry of a directory in turn. Public for the facade ({@code SecurityContext}) only.
     *
     * @param directory the canonical host path of a directory a walk entered
     * @param name      the name of an entry there
     * @return the first matching glob, empty when none matches
     */
    public Optional<String> protectedEntryPattern(Path directory, String name) {
        if (protection.isEmpty()) {
            return Optional.empty();
        }
        DirectoryInside inside = lastDirectory;
        if (inside == null || !inside.directory().equals(directory)) {
            List<PathEntry> containing = containing(directory);
            List<String> paths = new ArrayList<>(containing.size());
            containing.forEach(entry -> paths.add(inside(entry, directory)));
            inside = new DirectoryInside(directory, paths);
            lastDirectory = inside;
        }
        for (String path : inside.paths()) {
            Optional<String> found = path.isEmpty() ? protection.matchName(name, 0)
                    : protection.matchName(path + "/" + name, path.length() + 1);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /** A directory's path inside each entry containing it, outermost first. */
    private record DirectoryInside(Path directory, List<String> paths) {
    }

    /** The path of {@code real} inside an entry containing it, {@code '/'}-separated; empty for the root. */
    private static String inside(PathEntry entry, Path real) {
        return relative(entry.realPath(), real);
    }

    /**
     * {@code root.relativize(real).toString()} for a canonical path at or below {@code root}, cut from the path's
     * text without building a path per name: every decision asks it twice, and a confined open once more. Public
     * for the tool operations' confined opens only.
     *
     * @param root a directory
     * @param real a path at or below it
     * @return the path of {@code real} below {@code root}, {@code '/'}-separated; empty for {@code root} itself
     */
    public static String relative(Path root, Path real) {
        String rootText = root.toString();
        String realText = real.toString();
        int length = rootText.length();
        if (realText.length() == length && realText.equals(rootText)) {
            return "";
        }
        int from = rootText.endsWith("/") ? length : length + 1;
        if (realText.length() > from && realText.startsWith(rootText) && realText.charAt(from - 1) == '/') {
            return realText.substring(from);
        }
        return root.relativize(real).toString();
    }

    /**
     * The refusal of a protected path. It names the glob, never the file's content or where a link led; the
     * host path goes to the audit log only.
     */
    private PathAccessDeniedException protectedPath(String input, Path real, String pattern) {
        return (PathAccessDeniedException) new PathAccessDeniedException("Path " + Messages.quote(input)
                + " is protected by the pattern " + Messages.quote(pattern) + " in context "
                + Messages.quote(contextName) + ": no tool or command may read, write or delete it, whatever the "
                + "entries allow. Continue without it; only the operator can change the protected paths.")
                .withAuditDetail("protected path pattern " + Messages.quote(pattern) + ", resolves to "
                        + Messages.quote(real.toString()));
    }

    /**
     * Entries whose real directory contains {@code real}, outermost first: a look-up per ancestor at the depths
     * where entries are (usually one), reached from {@code real} upwards, not built from the root down.
     */
    private List<PathEntry> containing(Path real) {
        List<PathEntry> result = new ArrayList<>(2);
        if (real.getRoot() == null) {
            return result;
        }
        Path ancestor = real;
        int at = real.getNameCount();
        for (int i = rootDepths.length - 1; i >= 0; i--) {
            int depth = rootDepths[i];
            if (depth > at) {
                continue;
            }
            while (at > depth) {
                ancestor = ancestor.getParent();
                at--;
            }
            List<PathEntry> found = byRealRoot.get(ancestor);
            if (found != null) {
                result.addAll(0, found);
            }
        }
        return result;
    }

    /** The outermost entry whose real or configured directory is a leading part of {@code names}. */
    private PathEntry outermostLexicalRoot(List<String> names) {
        int none = byDepth.size();
        int outermost = none;
        for (int count = 0; count <= names.size(); count++) {
            for (int position : byLexicalRoot.getOrDefault(names.subList(0, count), List.of())) {
                outermost = Math.min(outermost, position);
            }
        }
        return outermost == none ? null : byDepth.get(outermost);
    }

    private static boolean startsWith(List<String> names, Path root) {
        int count = root.getNameCount();
        if (names.size() < count) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            if (!names.get(i).equals(root.getName(i).toString())) {
                return false;
            }
        }
        return true;
    }

    private static String virtualPath(PathEntry entry, Path real) {
        String relative = relative(entry.realPath(), real);
        return relative.isEmpty() ? entry.mountPoint() : entry.mountPoint() + "/" + relative;
    }

    /**
     * The seed's "not covered" message without the host path: a path that leads out of its mount is named as
     * the agent wrote it, and where it leads (a host path) goes to the audit log only.
     */
    private PathAccessDeniedException notCovered(String input, Path resolved) {
        return (PathAccessDeniedException) new PathAccessDeniedException("Path " + Messages.quote(input)
                + " (resolves outside the mounted entries) is not covered by any PathEntry in context "
                + Messages.quote(contextName) + ".").withAuditDetail("resolves to " + Messages.quote(resolved.toString()));
    }

    private PathAccessDeniedException danglingLink(String input, Path link) {
        String shown = virtualPath(link).map(v -> " " + Messages.quote(v)).orElse("");
        return (PathAccessDeniedException) new PathAccessDeniedException("Path " + Messages.quote(input)
                + " goes through the symbolic link" + shown + ", whose target does not exist or loops; such a link "
                + "is never followed or written through in context " + Messages.quote(contextName) + ".")
                .withAuditDetail("symbolic link " + Messages.quote(link.toString()));
    }

    /**
     * Rewrites every host directory of an entry that appears in {@code text} (a program's output) as the
     * entry's mount point: {@code /srv/ws/notes.txt} becomes {@code /ws/notes.txt}. Longer directories go
     * first, so a nested entry keeps its own slug; a directory counts only where a name ends
     * ({@code /srv/ws2} is left alone).
     */
    public String virtualised(String text) {
        List<PathEntry> deepestFirst = new ArrayList<>(byDepth);
        java.util.Collections.reverse(deepestFirst);
        String result = text;
        for (PathEntry entry : deepestFirst) {
            result = replaceDirectory(result, entry.realPath().toString(), entry.mountPoint());
            if (!entry.path().equals(entry.realPath())) {
                result = replaceDirectory(result, entry.path().toString(), entry.mountPoint());
            }
        }
        return result;
    }

    private static String replaceDirectory(String text, String directory, String mountPoint) {
        if (directory.equals("/") || !text.contains(directory)) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int from = 0;
        int at;
        while ((at = text.indexOf(directory, from)) >= 0) {
            int end = at + directory.length();
            boolean nameEnds = end == text.length() || !isNameCharacter(text.charAt(end));
            boolean nameStarts = at == 0 || !isNameCharacter(text.charAt(at - 1)) && text.charAt(at - 1) != '/';
            out.append(text, from, at).append(nameEnds && nameStarts ? mountPoint : directory);
            from = end;
        }
        return out.append(text, from, text.length()).toString();
    }

    private static boolean isNameCharacter(char c) {
        return Character.isLetterOrDigit(c) || c == '.' || c == '_' || c == '-' || c == '~' || c == '+';
    }

    /**
     * How the agent names a host path: {@code /slug/rest} under the innermost entry that contains it.
     *
     * @param real a real (canonical) host path
     * @return the virtual path, or empty when no entry contains it
     */
    public Optional<String> virtualPath(Path real) {
        List<PathEntry> holding = containing(real);
        return holding.isEmpty() ? Optional.empty()
                : Optional.of(virtualPath(holding.get(holding.size() - 1), real));
    }

    private OperationFailedException unresolvable(String input, IOException cause) {
        return new OperationFailedException("Path " + Messages.quote(input) + " could not be resolved"
                + (cause == null ? "" : " (" + Messages.ioReason(cause) + ")") + ".", cause);
    }

    /** The first {@value #MAX_LISTED_MOUNTS} mount points, and how many more there are: a denial stays small. */
    private String mounted() {
        StringJoiner joiner = new StringJoiner(", ");
        for (PathEntry entry : entries.subList(0, Math.min(entries.size(), MAX_LISTED_MOUNTS))) {
            joiner.add(Messages.quote(entry.mountPoint()));
        }
        if (entries.size() > MAX_LISTED_MOUNTS) {
            return joiner + " and " + (entries.size() - MAX_LISTED_MOUNTS) + " more; list_roots shows them all";
        }
        return joiner.length() == 0 ? "none" : joiner.toString();
    }

    private static EnumSet<Permission> intersection(Set<Permission> a, Set<Permission> b) {
        EnumSet<Permission> result = a.isEmpty() ? EnumSet.noneOf(Permission.class) : EnumSet.copyOf(a);
        result.retainAll(b);
        return result;
    }

    private static EnumSet<Permission> difference(Set<Permission> a, Set<Permission> b) {
        EnumSet<Permission> result = a.isEmpty() ? EnumSet.noneOf(Permission.class) : EnumSet.copyOf(a);
        result.removeAll(b);
        return result;
    }
}
