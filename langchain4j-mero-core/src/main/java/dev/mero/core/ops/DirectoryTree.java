package dev.mero.core.ops;

import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;

/**
 * {@code directory_tree(path, max_depth?)}: the entries below a directory as an indented tree, bounded in depth
 * and entries; links are shown with {@code '@'} and never followed.
 */
final class DirectoryTree implements ToolOperation {

    /** Depth when the model gives none. */
    static final int DEFAULT_DEPTH = 3;

    private final SecurityContext context;
    private final OperationLimits limits;

    DirectoryTree(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    @Override
    public String run(ToolArguments arguments) {
        int depth = arguments.optionalInt("max_depth").orElse(DEFAULT_DEPTH);
        if (depth < 1 || depth > limits.maxTreeDepth()) {
            throw ToolArguments.invalid(arguments.tool(), "'max_depth' is " + depth + "; it must be between 1 and "
                    + limits.maxTreeDepth());
        }
        return context.run(Operation.DIRECTORY_LIST, arguments.string("path"), null, null, target -> {
            StringBuilder lines = new StringBuilder();
            TreeWalk.Outcome outcome;
            try {
                // bounded in time as well as entries: a slow file system or a huge directory ends the tree early
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.searchTimeoutMillis());
                outcome = TreeWalk.walk(context, target, depth, limits.maxTreeEntries(), deadline,
                        Permission.READ, new TreeWalk.Visitor() {
                            @Override
                            public boolean visit(String relative, int level, BasicFileAttributes a,
                                                 SecureDirectory parent, String name) {
                                lines.append('\n').append("  ".repeat(level - 1))
                                        .append(DirectoryListing.displayName(name))
                                        .append(a.isDirectory() ? "/" : a.isSymbolicLink() ? "@" : "");
                                return true;
                            }

                            @Override
                            public boolean typesSuffice() {
                                return true;
                            }

                            @Override
                            public boolean gathersOnly() {
                                return true;
                            }

                            @Override
                            public void denied(String relative) {
                                lines.append(" (no access)");
                            }

                            @Override
                            public boolean protectedEntry(String relative, int level, BasicFileAttributes a,
                                                          String pattern) {
                                visit(relative, level, a, null, Targets.lastName(relative));
                                lines.append(DirectoryListing.PROTECTED_MARK);
                                return true;
                            }
                        });
            } catch (IOException e) {
                throw ListDirectory.failure(context, target, e);
            }
            if (outcome.entries == 0 && outcome.unusableNames == 0) {
                return Messages.quote(target.virtualPath()) + " is an empty directory.";
            }
            StringBuilder out = new StringBuilder("Tree of ").append(Messages.quote(target.virtualPath()))
                    .append(" (depth ").append(depth).append("; directories end with '/', symbolic links with '@'):")
                    .append(lines);
            if (outcome.cutByEntries) {
                out.append("\n[Truncated: showing the first ").append(outcome.entries)
                        .append(" entries; list a subdirectory or use a smaller max_depth.]");
            } else if (outcome.cutByTime) {
                out.append("\n[Incomplete: stopped after ").append(outcome.entries).append(" entries at the time "
                        + "limit of ").append(limits.searchTimeoutMillis()).append(" ms; list a subdirectory.]");
            }
            out.append(outcome.unusableNote());
            return out.toString();
        });
    }
}
