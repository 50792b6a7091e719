package dev.mero.core.ops;

import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Walks the tree below a checked directory, depth first in name order, bounded in depth, entries and time.
 * Every directory is opened relative to its parent without following a link ({@link SecureDirectory}), so the
 * walk never leaves the directory it started in, whatever links it meets: links are reported, never followed.
 * A subdirectory where the context denies the needed permission (a nested mount with other rules) is reported
 * and not entered.
 */
final class TreeWalk {

    /** The deepest any walk goes, whatever the caller asks. */
    static final int MAX_DEPTH = 64;

    /** What a walk hands to its visitor. */
    interface Visitor {

        /**
         * Receives one entry.
         *
         * @param relative   the entry's path below the start, with {@code '/'} separators
         * @param depth      1 for the start directory's own entries
         * @param attributes its attributes, of the link itself for a link
         * @param parent     the open directory holding it
         * @param name       its name there
         * @return {@code false} to stop the walk
         * @throws IOException if the visitor's own I/O fails
         */
        boolean visit(String relative, int depth, BasicFileAttributes attributes, SecureDirectory parent, String name)
                throws IOException;

        /**
         * Hears of a directory that is not entered because the context denies access there.
         *
         * @param relative the directory's path below the start
         */
        default void denied(String relative) {
        }

        /**
         * Hears of an entry that a protected path covers ({@link SecurityContext#protectedPattern}): it is never
         * handed to {@link #visit} and a protected directory is never entered, so no visitor can read, copy or
         * search what it holds. A listing may show the name; everything else skips it (the default).
         *
         * @param relative   the entry's path below the start
         * @param depth      1 for the start directory's own entries
         * @param attributes its attributes, of the link itself for a link
         * @param pattern    the protected path glob that covers it
         * @return {@code false} to stop the walk
         */
        default boolean protectedEntry(String relative, int depth, BasicFileAttributes attributes, String pattern) {
            return true;
        }

        /**
         * Finishes what the visitor deferred for the entries visited so far: called before the walk enters or
         * judges a subdirectory, before it leaves (and closes) a directory, and before it stops at a bound, so
         * that a visitor that batches the files of a directory answers as if it had handled each one when
         * visited.
         *
         * @return {@code false} to stop the walk
         * @throws IOException if the visitor's own I/O fails
         */
        default boolean settle() throws IOException {
            return true;
        }

        /**
         * Whether this visitor asks its entries' attributes for their type only ({@code isDirectory},
         * {@code isRegularFile}, {@code isSymbolicLink}, {@code isOther}), and only while it is called with them:
         * then, where the kernel reports the types with the names ({@link ConfinedCalls#list}), the walk reads no
         * attributes per entry and hands over type-only ones; where it does not, entries that the directory's
         * link count says are not directories ({@link SubdirectoryCount}) are read only when asked
         * ({@link NotADirectory}).
         *
         * @return {@code true} if the type is all this visitor reads of an entry's attributes
         */
        default boolean typesSuffice() {
            return false;
        }

        /**
         * Whether this visitor only gathers what its caller reads after the walk, and changes nothing: then, where
         * Java opens each directory through an opener thread ({@link BoundedOpen}), the walk runs on a thread of
         * its own whose opens run inline and which the caller bounds instead ({@link BoundedOpen#aside}), a hand-off
         * per walk instead of one per directory. A walk given up on a pipe stops at its next open.
         *
         * @return {@code true} if nothing this visitor does matters once its caller has given up
         */
        default boolean gathersOnly() {
            return false;
        }
    }

    /** How a walk ended. */
    static final class Outcome {
        int entries;
        boolean cutByEntries;
        boolean cutByTime;
        boolean stopped;
        int deniedDirectories;
        int notEntered;
        /** Names the JVM's file-name encoding cannot represent: neither visited nor entered. */
        int unusableNames;
        /** Entries a protected path covers, skipped (directories with everything below them). */
        int protectedEntries;
        /** The first directory not entered because of the depth bound, relative to the start, or {@code null}. */
        String firstNotEntered;

        /**
         * Tells whether the walk saw everything.
         *
         * @return {@code true} if no bound cut it, the visitor did not stop it and every name could be read
         */
        boolean complete() {
            return !cutByEntries && !cutByTime && !stopped && unusableNames == 0;
        }

        /**
         * A note for the model on names that could not be read, or nothing.
         *
         * @return {@code "\n[...]"} or {@code ""}
         */
        String unusableNote() {
            return unusableNames == 0 ? "" : "\n[" + unusableNames + (unusableNames == 1 ? " name was" : " names were")
                    + " skipped: " + UnusableName.WHY + ".]";
        }
    }

    private final SecurityContext context;
    private final ResolvedPath start;
    private final int maxDepth;
    private final int maxEntries;
    private final long deadline;
    private final Permission needed;
    private final Visitor visitor;
    private final Outcome outcome = new Outcome();
    /** Where the start's file system counts subdirectories and the visitor needs types only; else {@code null}. */
    private SubdirectoryCount counts;

    private TreeWalk(SecurityContext context, ResolvedPath start, int maxDepth, int maxEntries, long deadline,
                     Permission needed, Visitor visitor) {
        this.context = context;
        this.start = start;
        this.maxDepth = Math.min(maxDepth, MAX_DEPTH);
        this.maxEntries = maxEntries;
        this.deadline = deadline;
        this.needed = needed;
        this.visitor = visitor;
    }

    /**
     * Walks a checked directory.
     *
     * @param context    the context that checked it
     * @param start      the checked start directory
     * @param maxDepth   how many levels to enter (1: its own entries)
     * @param maxEntries how many entries to visit at most
     * @param deadline   {@link System#nanoTime()} at which to stop, or {@link Long#MAX_VALUE}
     * @param needed     the permission every entered directory must grant
     * @param visitor    receives the entries
     * @return how the walk ended
     * @throws IOException if the start is not a plain directory or cannot be read
     */
    static Outcome walk(SecurityContext context, ResolvedPath start, int maxDepth, int maxEntries, long deadline,
                        Permission needed, Visitor visitor) throws IOException {
        TreeWalk walk = new TreeWalk(context, start, maxDepth, maxEntries, deadline, needed, visitor);
        try (SecureDirectory root = Targets.openDirectory(start)) {
            context.recheck(start);
            walk.counts = visitor.typesSuffice() ? SubdirectoryCount.of(start.realPath()) : null;
            if (visitor.gathersOnly() && !ConfinedCalls.current().walks()
                    && DirectoryAccess.keepable(root.stream())) {
                SecureDirectory kept = root.retain();
                BoundedOpen.aside(() -> {
                    try (kept) {
                        return walk.walk(root, "", 1);
                    }
                });
            } else {
                walk.walk(root, "", 1);
            }
        }
        return walk.outcome;
    }

    /** Returns {@code false} when the walk must stop. */
    private boolean walk(SecureDirectory directory, String prefix, int depth) throws IOException {
        List<TypedName> names = names(directory);
        Path real = Targets.below(start.realPath(), prefix);
        names.sort(Comparator.comparing(TypedName::name));
        int subdirectoriesLeft = counts != null && names.stream().anyMatch(n -> n.type() == TypedName.Type.UNKNOWN)
                ? counts.subdirectories(real) : SubdirectoryCount.UNKNOWN;
        for (TypedName typed : names) {
            String name = typed.name();
            if (outcome.entries >= maxEntries) {
                return settled() && cut(false);
            }
            if (deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) {
                return settled() && cut(true);
            }
            Optional<BasicFileAttributes> attributes;
            if (typed.type() != TypedName.Type.UNKNOWN) {
                attributes = Optional.of(typed.attributes());
            } else if (subdirectoriesLeft == 0) {
                attributes = Optional.of(new NotADirectory(directory, name));
            } else {
                attributes = directory.attributes(name);
            }
            if (attributes.isEmpty()) {
                continue;
            }
            boolean isDirectory = attributes.get().isDirectory();
            if (isDirectory && subdirectoriesLeft > 0) {
                subdirectoriesLeft--;
            }
            if (isDirectory && !settled()) {
                return false;
            }
            outcome.entries++;
            String relative = prefix.isEmpty() ? name : prefix + "/" + name;
            Optional<String> protectedBy = context.protectedEntryPattern(real, name);
            if (protectedBy.isPresent()) {
                outcome.protectedEntries++;
                if (!visitor.protectedEntry(relative, depth, attributes.get(), protectedBy.get())) {
                    outcome.stopped = true;
                    return false;
                }
                continue;
            }
            if (!visitor.visit(relative, depth, attributes.get(), directory, name)) {
                outcome.stopped = true;
                return false;
            }
            if (isDirectory && depth >= maxDepth) {
                outcome.notEntered++;
                if (outcome.firstNotEntered == null) {
                    outcome.firstNotEntered = relative;
                }
            } else if (isDirectory) {
                if (!mayEnter(relative)) {
                    outcome.deniedDirectories++;
                    visitor.denied(relative);
                    continue;
                }
                try (SecureDirectory child = openChild(directory, name, relative)) {
                    if (!walk(child, relative, depth + 1)) {
                        return false;
                    }
                }
            }
        }
        return settled();
    }

    /**
     * The names of a directory, at most one more than the entries left, read until the deadline: one huge
     * directory does not outlast it. Where the visitor needs types only and the kernel reports them, they come
     * with the names; otherwise every type is {@link TypedName.Type#UNKNOWN}, to be read per entry.
     */
    private List<TypedName> names(SecureDirectory directory) throws IOException {
        int max = maxEntries - outcome.entries;
        if (visitor.typesSuffice()) {
            List<TypedName> typed = ConfinedCalls.current().list(start.entry(), directory, max);
            if (typed != null) {
                return typed;
            }
        }
        List<TypedName> names = new ArrayList<>();
        directory.scan(name -> {
            names.add(new TypedName(name, TypedName.Type.UNKNOWN));
            if ((names.size() & 0x3FF) == 0 && deadline != Long.MAX_VALUE && System.nanoTime() - deadline > 0) {
                return false;
            }
            return names.size() <= max;
        }, unusable -> outcome.unusableNames++);
        return names;
    }

    /**
     * Opens a subdirectory to enter: confined by the kernel where the JVM reaches it (one {@code openat2} that
     * cannot block), else through the JDK, type-checked and bounded ({@link SecureDirectory#child}).
     */
    private SecureDirectory openChild(SecureDirectory directory, String name, String relative) throws IOException {
        SecureDirectory confined = ConfinedCalls.current().openDirectory(start.entry(),
                Targets.below(start.realPath(), relative));
        return confined != null ? confined : directory.child(name);
    }

    /** Lets the visitor finish deferred work; records a stop. */
    private boolean settled() throws IOException {
        if (visitor.settle()) {
            return true;
        }
        outcome.stopped = true;
        return false;
    }

    /** Records a cut by a bound; always {@code false}. */
    private boolean cut(boolean byTime) {
        if (byTime) {
            outcome.cutByTime = true;
        } else {
            outcome.cutByEntries = true;
        }
        return false;
    }

    /**
     * The note for a search cut by the depth bound, or {@code ""}: without it a search that found nothing would
     * read as "no match" although whole subtrees were never looked at.
     *
     * @param outcome the walk's outcome
     * @param start   the directory the walk started in
     * @param tool    the tool to call again
     * @return the note, starting with a line break, or {@code ""}
     */
    static String depthNote(Outcome outcome, ResolvedPath start, String tool) {
        if (outcome == null || outcome.notEntered == 0) {
            return "";
        }
        return "\n[Incomplete: the walk stops " + MAX_DEPTH + " levels below the start, so " + outcome.notEntered
                + (outcome.notEntered == 1 ? " directory at that depth was" : " directories at that depth were")
                + " not searched, the first being "
                + Messages.quote(Targets.child(start.virtualPath(), outcome.firstNotEntered))
                + ". To search deeper, call " + tool + " again with such a directory as 'path'.]";
    }

    private boolean mayEnter(String relative) {
        try {
            ResolvedPath entered = context.checkPathAccess(Targets.child(start.virtualPath(), relative), needed);
            return entered.realPath().equals(Targets.below(start.realPath(), relative));
        } catch (MeroToolsException e) {
            return false;
        }
    }
}
