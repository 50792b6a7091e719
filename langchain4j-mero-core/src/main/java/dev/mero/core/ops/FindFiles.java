package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code find_files(path, pattern)}: the paths below a directory that match a glob, found by walking the tree
 * through open directories ({@link TreeWalk}): bounded in entries, results and time; links are listed when they
 * match but never followed, so the search never leaves the directory it started in.
 */
final class FindFiles implements ToolOperation {

    private final SecurityContext context;
    private final OperationLimits limits;

    FindFiles(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    @Override
    public String run(ToolArguments arguments) {
        String pattern = arguments.string("pattern");
        GlobPattern glob = GlobPattern.compile(arguments.tool(), "pattern", pattern);
        return context.run(Operation.DIRECTORY_LIST, arguments.string("path"), null, null, target -> {
            List<String> found = new ArrayList<>();
            boolean[] moreResults = {false};
            TreeWalk.Outcome outcome;
            try {
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.searchTimeoutMillis());
                outcome = TreeWalk.walk(context, target, TreeWalk.MAX_DEPTH, limits.maxScanEntries(), deadline,
                        Permission.READ, new TreeWalk.Visitor() {
                            @Override
                            public boolean visit(String relative, int depth, BasicFileAttributes attributes,
                                                 SecureDirectory parent, String name) {
                                return add(relative, attributes, "");
                            }

                            @Override
                            public boolean protectedEntry(String relative, int depth, BasicFileAttributes attributes,
                                                          String protectedBy) {
                                return add(relative, attributes, DirectoryListing.PROTECTED_MARK);
                            }

                            @Override
                            public boolean typesSuffice() {
                                return true;
                            }

                            @Override
                            public boolean gathersOnly() {
                                return true;
                            }

                            private boolean add(String relative, BasicFileAttributes attributes, String mark) {
                                if (glob.matches(relative)) {
                                    if (found.size() == limits.maxFindResults()) {
                                        moreResults[0] = true;
                                        return false;
                                    }
                                    found.add(displayed(Targets.child(target.virtualPath(), relative)
                                            + (attributes.isDirectory() ? "/" : attributes.isSymbolicLink() ? "@" : ""))
                                            + mark);
                                }
                                return true;
                            }
                        });
            } catch (IOException e) {
                throw ListDirectory.failure(context, target, e);
            }
            StringBuilder out = new StringBuilder();
            if (found.isEmpty()) {
                out.append("No paths below ").append(Messages.quote(target.virtualPath())).append(" match ")
                        .append(Messages.quote(pattern)).append('.');
            } else {
                out.append(found.size()).append(found.size() == 1 ? " path" : " paths").append(" below ")
                        .append(Messages.quote(target.virtualPath())).append(" match ").append(Messages.quote(pattern))
                        .append(" (directories end with '/', symbolic links with '@'):");
                found.forEach(path -> out.append('\n').append(path));
            }
            if (moreResults[0]) {
                out.append("\n[Truncated: showing the first ").append(found.size())
                        .append(" matches; use a narrower pattern or directory.]");
            } else if (outcome.cutByEntries || outcome.cutByTime) {
                out.append("\n[Incomplete: stopped after ").append(outcome.entries).append(" entries")
                        .append(outcome.cutByTime ? " (time limit)" : "").append("; search a smaller directory.]");
            }
            out.append(outcome.unusableNote());
            out.append(TreeWalk.depthNote(outcome, target, "find_files"));
            if (outcome.deniedDirectories > 0) {
                out.append("\n[").append(outcome.deniedDirectories).append(" director")
                        .append(outcome.deniedDirectories == 1 ? "y was" : "ies were")
                        .append(" not searched: no READ permission there.]");
            }
            return out.toString();
        });
    }

    private static String displayed(String path) {
        return path.codePoints().anyMatch(Messages::isControlOrInvisible) ? Messages.quote(path) : path;
    }
}
