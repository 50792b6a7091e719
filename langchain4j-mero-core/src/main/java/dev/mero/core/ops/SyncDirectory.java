package dev.mero.core.ops;

import static java.nio.file.StandardOpenOption.READ;

import dev.mero.core.path.ContentDigest;
import dev.mero.core.path.FileNameEncoding;
import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code sync_directory(source, destination, delete_extraneous?, dry_run?)}: one-way, rsync-like. Both trees
 * are walked through open directories without following links (links and special files in the source are
 * skipped), a plan is made (copy new files, update changed ones, with {@code delete_extraneous} delete what the
 * source lacks), and only then, after one guarded, approved decision on the destination (WRITE, and DELETE for
 * deletions) whose approval request carries the plan and its SHA-256, is it carried out: files are copied
 * atomically, directories created level by level.
 */
final class SyncDirectory implements ToolOperation {

    private static final int LISTED_PER_KIND = 50;

    private final SecurityContext context;
    private final OperationLimits limits;

    SyncDirectory(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    /** What the walk of one tree found: relative path to its attributes. */
    private static final class Tree {
        final Map<String, BasicFileAttributes> entries = new TreeMap<>();
        int skipped;
        /** Protected files and directories, never read, copied or deleted. */
        int protectedEntries;
        /** Where they are, so that no directory holding one is deleted. */
        final NavigableSet<String> protectedPaths = new TreeSet<>();

        /** One look-up in sorted order, not a scan per directory: a tree may hold many protected names. */
        boolean holdsProtected(String directory) {
            String below = protectedPaths.ceiling(directory + "/");
            return below != null && below.startsWith(directory + "/");
        }
    }

    /** What the sync will do. */
    private static final class Plan {
        final List<String> directories = new ArrayList<>();
        final List<String> copies = new ArrayList<>();
        final List<String> updates = new ArrayList<>();
        final List<String> deletions = new ArrayList<>();
        final List<String> conflicts = new ArrayList<>();

        String describe() {
            StringBuilder out = new StringBuilder();
            list(out, "copy", copies);
            list(out, "update", updates);
            list(out, "delete", deletions);
            list(out, "create directory", directories);
            list(out, "conflict (a file and a directory share the name; left alone)", conflicts);
            return out.toString();
        }

        private static void list(StringBuilder out, String label, List<String> paths) {
            for (int i = 0; i < Math.min(paths.size(), LISTED_PER_KIND); i++) {
                // a name with a line break or a bidirectional override must not forge a line of the plan
                out.append('\n').append(label).append(": ").append(DirectoryListing.displayName(paths.get(i)));
            }
            if (paths.size() > LISTED_PER_KIND) {
                out.append('\n').append(label).append(": ... and ").append(paths.size() - LISTED_PER_KIND)
                        .append(" more");
            }
        }
    }

    @Override
    public String run(ToolArguments arguments) {
        boolean deleteExtraneous = arguments.optionalBoolean("delete_extraneous").orElse(false);
        boolean dryRun = arguments.optionalBoolean("dry_run").orElse(false);
        String destinationPath = arguments.string("destination");
        return context.run(Operation.DIRECTORY_LIST, arguments.string("source"), null, null, source -> {
            ResolvedPath destination = context.checkPathAccess(destinationPath, Permission.READ, Permission.WRITE);
            if (source.realPath().startsWith(destination.realPath())
                    || destination.realPath().startsWith(source.realPath())) {
                throw new OperationFailedException("The source " + Messages.quote(source.virtualPath()) + " and the "
                        + "destination " + Messages.quote(destination.virtualPath()) + " overlap; sync into a directory "
                        + "outside the source.");
            }
            Tree from = walk(source, Permission.READ, true);
            Tree to = destinationExists(destination) ? walk(destination, Permission.WRITE, false) : new Tree();
            Plan plan = plan(source, destination, from, to, deleteExtraneous);
            String summary = summary(source, destination, plan, from.skipped, dryRun)
                    + protectedNote(from.protectedEntries, to.protectedEntries, dryRun);
            if (dryRun || plan.copies.isEmpty() && plan.updates.isEmpty() && plan.deletions.isEmpty()
                    && plan.directories.isEmpty()) {
                return summary + plan.describe();
            }
            String details = plan.describe();
            ResolvedPath guarded = context.guard(Operation.FILE_WRITE, destinationPath,
                    "Sync from " + Messages.quote(source.virtualPath()) + ":" + details, ContentDigest.of(details));
            if (!plan.deletions.isEmpty()) {
                context.guard(Operation.FILE_DELETE, destinationPath);
            }
            if (!guarded.realPath().equals(destination.realPath())) {
                throw new OperationFailedException(Messages.quote(destination.virtualPath()) + " changed while the sync "
                        + "was being approved; nothing was done.");
            }
            carryOut(source, guarded, plan);
            return summary.replace("Dry run: ", "") + plan.describe();
        });
    }

    private boolean destinationExists(ResolvedPath destination) {
        if (destination.isMountRoot()) {
            return true;
        }
        try (SecureDirectory parent = Targets.openParent(destination)) {
            Optional<BasicFileAttributes> attributes = parent.attributes(Targets.name(destination));
            if (attributes.isPresent() && !attributes.get().isDirectory()) {
                throw new OperationFailedException(Messages.quote(destination.virtualPath()) + " exists and is not a "
                        + "directory.");
            }
            return attributes.isPresent();
        } catch (IOException e) {
            return false;
        }
    }

    private Tree walk(ResolvedPath root, Permission needed, boolean source) {
        Tree tree = new Tree();
        TreeWalk.Outcome outcome;
        try {
            outcome = TreeWalk.walk(context, root, TreeWalk.MAX_DEPTH, limits.maxScanEntries(), Long.MAX_VALUE,
                    needed, new TreeWalk.Visitor() {
                        @Override
                        public boolean visit(String relative, int depth, BasicFileAttributes attributes,
                                             SecureDirectory parent, String name) {
                            if (attributes.isRegularFile() || attributes.isDirectory()) {
                                tree.entries.put(relative, attributes);
                            } else {
                                tree.skipped++;
                            }
                            return true;
                        }

                        @Override
                        public boolean protectedEntry(String relative, int depth, BasicFileAttributes attributes,
                                                      String pattern) {
                            tree.protectedPaths.add(relative);
                            return true;
                        }
                    });
        } catch (IOException e) {
            throw ListDirectory.failure(context, root, e);
        }
        if (outcome.unusableNames > 0) {
            throw new OperationFailedException(Messages.quote(root.virtualPath()) + " holds " + outcome.unusableNames
                    + " name(s) that cannot be read: " + FileNameEncoding.unusableNameReason() + ". Nothing was done.");
        }
        tree.protectedEntries = outcome.protectedEntries;
        if (!outcome.complete() || outcome.notEntered > 0 || outcome.deniedDirectories > 0) {
            throw new OperationFailedException(Messages.quote(root.virtualPath()) + " holds more than "
                    + limits.maxScanEntries() + " entries, is nested too deep, or holds directories without "
                    + needed + " permission, so the " + (source ? "source" : "destination") + " cannot be synced "
                    + "as a whole; nothing was done. Sync smaller directories.");
        }
        return tree;
    }

    private Plan plan(ResolvedPath source, ResolvedPath destination, Tree from, Tree to, boolean deleteExtraneous) {
        Plan plan = new Plan();
        for (Map.Entry<String, BasicFileAttributes> entry : from.entries.entrySet()) {
            String relative = entry.getKey();
            BasicFileAttributes there = to.entries.get(relative);
            if (entry.getValue().isDirectory()) {
                if (there == null) {
                    plan.directories.add(relative);
                } else if (!there.isDirectory()) {
                    plan.conflicts.add(relative);
                }
            } else if (entry.getValue().size() > limits.maxCopyBytes()) {
                throw new OperationFailedException(Messages.quote(Targets.child(source.virtualPath(), relative))
                        + " is larger than " + limits.maxCopyBytes() + " bytes, more than sync_directory copies; "
                        + "nothing was changed.");
            } else if (there == null) {
                plan.copies.add(relative);
            } else if (there.isDirectory()) {
                plan.conflicts.add(relative);
            } else if (differ(source, destination, relative, entry.getValue(), there)) {
                plan.updates.add(relative);
            }
        }
        if (deleteExtraneous) {
            for (String relative : to.entries.keySet()) {
                boolean inside = plan.deletions.stream().anyMatch(d -> relative.startsWith(d + "/"));
                if (!from.entries.containsKey(relative) && !inside && !to.holdsProtected(relative)) {
                    plan.deletions.add(relative);
                }
            }
        }
        return plan;
    }

    private boolean differ(ResolvedPath source, ResolvedPath destination, String relative, BasicFileAttributes a,
                           BasicFileAttributes b) {
        if (a.size() != b.size()) {
            return true;
        }
        try {
            return !Arrays.equals(bytes(source, relative), bytes(destination, relative));
        } catch (IOException e) {
            return true;
        }
    }

    private byte[] bytes(ResolvedPath root, String relative) throws IOException {
        ResolvedPath file = context.checkPathAccess(Targets.child(root.virtualPath(), relative), Permission.READ);
        try (SecureDirectory parent = Targets.openParent(file);
             SeekableByteChannel channel = parent.newByteChannel(Targets.name(file), READ);
             InputStream in = Channels.newInputStream(channel)) {
            return in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limits.maxCopyBytes() + 1));
        }
    }

    private void carryOut(ResolvedPath source, ResolvedPath destination, Plan plan) {
        // every target is resolved and checked before anything changes: a refusal leaves both trees as they were
        List<ResolvedPath> directories = new ArrayList<>();
        for (String relative : plan.directories) {
            directories.add(below(destination, relative, Permission.WRITE));
        }
        List<ResolvedPath[]> files = new ArrayList<>();
        List<String> copied = new ArrayList<>(plan.copies);
        copied.addAll(plan.updates);
        for (String relative : copied) {
            files.add(new ResolvedPath[] {below(source, relative, Permission.READ),
                    below(destination, relative, Permission.WRITE)});
        }
        List<ResolvedPath> deletions = new ArrayList<>();
        for (String relative : plan.deletions) {
            deletions.add(below(destination, relative, Permission.DELETE));
        }
        if (!destination.isMountRoot()) {
            Directories.ensure(context, destination.realPath(), destination);
        }
        for (ResolvedPath directory : directories) {
            Directories.ensure(context, directory.realPath(), directory);
        }
        for (ResolvedPath[] pair : files) {
            FileCopy.Digest digest = FileCopy.digest(context, pair[0], limits.maxCopyBytes(), "sync_directory");
            try (WriteTarget write = WriteTarget.open(context, pair[1], "sync_directory")) {
                FileCopy.copy(context, pair[0], write, digest, limits.maxCopyBytes(), "sync_directory");
            } catch (IOException e) {
                throw Targets.failure(context, "write", pair[1], e);
            }
        }
        for (ResolvedPath gone : deletions) {
            try (SecureDirectory parent = Targets.openParent(gone)) {
                context.recheck(gone);
                String name = Targets.name(gone);
                Optional<BasicFileAttributes> attributes = parent.attributes(name);
                if (attributes.isPresent() && attributes.get().isDirectory()) {
                    try (SecureDirectory directory = parent.child(name)) {
                        DeleteDirectory.deleteContents(directory, 1, new int[] {limits.maxScanEntries()});
                    }
                    parent.deleteDirectory(name);
                } else if (attributes.isPresent()) {
                    parent.deleteFile(name);
                }
            } catch (IOException e) {
                throw Targets.failure(context, "delete", gone, e);
            }
        }
    }

    /** A path below a synced root, checked, and refused if a link makes it resolve anywhere else. */
    private ResolvedPath below(ResolvedPath root, String relative, Permission needed) {
        ResolvedPath target = context.checkPathAccess(Targets.child(root.virtualPath(), relative), needed);
        if (!target.realPath().equals(Targets.below(root.realPath(), relative))) {
            throw new PathAccessDeniedException("Path " + Messages.quote(target.virtualPath())
                    + " leads through a symbolic link; sync_directory never writes through links. Nothing was "
                    + "changed.");
        }
        return target;
    }

    /** How many protected entries the sync left alone, in the source and in the destination. */
    private static String protectedNote(int inSource, int inDestination, boolean dryRun) {
        StringBuilder note = new StringBuilder();
        if (inSource > 0) {
            note.append("\n[").append(dryRun ? "Would skip " : "Skipped ").append(inSource)
                    .append(inSource == 1 ? " protected file or directory" : " protected files or directories")
                    .append(" in the source: protected paths are never read or copied.]");
        }
        if (inDestination > 0) {
            note.append("\n[").append(dryRun ? "Would leave " : "Left ").append(inDestination)
                    .append(inDestination == 1 ? " protected file or directory" : " protected files or directories")
                    .append(" in the destination alone.]");
        }
        return note.toString();
    }

    private static String summary(ResolvedPath source, ResolvedPath destination, Plan plan, int skipped,
                                  boolean dryRun) {
        return (dryRun ? "Dry run: syncing " : "Synced ") + Messages.quote(source.virtualPath()) + " to "
                + Messages.quote(destination.virtualPath()) + (dryRun ? " would copy " : ": copied ")
                + plan.copies.size() + ", " + (dryRun ? "update " : "updated ") + plan.updates.size() + ", "
                + (dryRun ? "delete " : "deleted ") + plan.deletions.size() + " (" + plan.directories.size()
                + " new director" + (plan.directories.size() == 1 ? "y" : "ies")
                + (skipped > 0 ? "; skipped " + skipped + " symbolic links or special files" : "")
                + (plan.conflicts.isEmpty() ? "" : "; " + plan.conflicts.size() + " conflicts left alone") + ")"
                + (dryRun ? "; nothing was changed." : ".");
    }
}
