package dev.mero.core.ops;

import com.google.re2j.Pattern;
import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@code search_text(path, pattern, glob?)}: a regular expression searched line by line in the text files below
 * a directory (or in one file), in Java on the core's checks, never by running grep. The expression is RE2 syntax,
 * matched in linear time ({@link SearchPattern}). Files are reached through open directories without following
 * links; the search is bounded in files, bytes per file, matches and time (checked while a line is matched too,
 * see {@link DeadlineText}). Results are {@code path:line: text} with
 * virtual paths.
 */
final class SearchText implements ToolOperation {

    private final SecurityContext context;
    private final OperationLimits limits;
    private final int threads;

    SearchText(SecurityContext context, OperationLimits limits) {
        this(context, limits, Math.min(2, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * A search with a given number of threads per call.
     *
     * @param threads 1, or 2 to search the files of a directory on the calling thread and one helper
     */
    SearchText(SecurityContext context, OperationLimits limits, int threads) {
        this.context = context;
        this.limits = limits;
        this.threads = threads;
    }

    /** Matches and counters of one search. */
    private static final class Results {
        final List<String> lines = new ArrayList<>();
        int files;
        int cutFiles;
        boolean moreMatches;
        boolean timedOut;
    }

    @Override
    public String run(ToolArguments arguments) {
        String regex = arguments.string("pattern");
        Pattern pattern = SearchPattern.compile(arguments.tool(), regex);
        Optional<GlobPattern> glob = arguments.optionalString("glob")
                .map(g -> GlobPattern.compile(arguments.tool(), "glob", g));
        return context.run(Operation.FILE_READ, arguments.string("path"), null, null, target -> {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.searchTimeoutMillis());
            Results results = new Results();
            LiteralPrefilter prefilter = LiteralPrefilter.of(regex).orElse(null);
            Supplier<FileScanner> scanners = () -> new FileScanner(pattern, prefilter, limits.maxSearchFileBytes(),
                    limits.maxSearchMatches() + 1, target.entry());
            TreeWalk.Outcome outcome = null;
            try (SearchBatch batch = new SearchBatch(scanners, threads, deadline)) {
                Optional<BasicFileAttributes> self = attributesOf(target);
                if (self.isPresent() && self.get().isRegularFile()) {
                    try (SecureDirectory parent = Targets.openParent(target)) {
                        context.recheck(target);
                        batch.add(new SearchBatch.Pending(parent, Targets.name(target), self.get().size(),
                                target::virtualPath));
                        merge(batch.search(), deadline, results);
                    }
                } else {
                    context.checkScope(Operation.DIRECTORY_LIST);
                    outcome = TreeWalk.walk(context, target, TreeWalk.MAX_DEPTH, limits.maxScanEntries(), deadline,
                            Permission.READ, new TreeWalk.Visitor() {
                                @Override
                                public boolean visit(String relative, int depth, BasicFileAttributes attributes,
                                                     SecureDirectory parent, String name) {
                                    if (attributes.isRegularFile()
                                            && (glob.isEmpty() || glob.get().matches(relative))) {
                                        boolean full = batch.add(new SearchBatch.Pending(parent, name,
                                                TypedName.sizeOf(attributes),
                                                () -> Targets.child(target.virtualPath(), relative)));
                                        return !full || settle();
                                    }
                                    return true;
                                }

                                @Override
                                public boolean settle() {
                                    return merge(batch.search(), deadline, results);
                                }

                                /**
                                 * Where the kernel lists the types with the names, the type is all a file needs
                                 * here: its size is read when it is opened ({@link ListedFiles}), so the walk reads
                                 * no attributes per file. On the JDK's path, as before, every entry's.
                                 */
                                @Override
                                public boolean typesSuffice() {
                                    return ConfinedCalls.current().walks();
                                }

                                @Override
                                public boolean gathersOnly() {
                                    return true;
                                }
                            });
                }
            } catch (IOException e) {
                throw ListDirectory.failure(context, target, e);
            }
            return render(target, regex, results, outcome);
        });
    }

    private Optional<BasicFileAttributes> attributesOf(ResolvedPath target) throws IOException {
        if (target.isMountRoot()) {
            return Optional.empty();
        }
        try (SecureDirectory parent = Targets.openParent(target)) {
            return parent.attributes(Targets.name(target));
        }
    }

    /**
     * Adds what a batch of files held to the results, in order, as if each had been searched in turn.
     *
     * @return {@code false} when the search must stop (match limit, time limit)
     */
    private boolean merge(List<SearchBatch.Searched> batch, long deadline, Results results) {
        for (SearchBatch.Searched searched : batch) {
            FileScanner.Found found = searched.found();
            if (!found.searched) {
                if (found.timedOut) {
                    // a worker did not reach it by the deadline (blocked on a pipe swapped in)
                    results.timedOut = true;
                    return false;
                }
                continue;
            }
            results.files++;
            if (found.cut) {
                results.cutFiles++;
            }
            if (!found.lines.isEmpty()) {
                // a name with a line break or a bidirectional override must not start a forged result line
                String path = DirectoryListing.displayName(searched.file().virtualPath().get());
                for (String line : found.lines) {
                    if (results.lines.size() == limits.maxSearchMatches()) {
                        results.moreMatches = true;
                        return false;
                    }
                    results.lines.add(path + line);
                }
            }
            if (found.timedOut) {
                results.timedOut = true;
                return false;
            }
            if (expired(deadline, results)) {
                return false;
            }
        }
        return true;
    }

    private static boolean expired(long deadline, Results results) {
        if (System.nanoTime() - deadline > 0) {
            results.timedOut = true;
            return true;
        }
        return false;
    }

    private String render(ResolvedPath target, String regex, Results results, TreeWalk.Outcome outcome) {
        StringBuilder out = new StringBuilder();
        if (results.lines.isEmpty()) {
            out.append("No line in ").append(Messages.quote(target.virtualPath())).append(" matches ")
                    .append(Messages.quote(regex)).append(" (searched ").append(results.files)
                    .append(results.files == 1 ? " file" : " files").append(").");
        } else {
            out.append(results.lines.size()).append(results.lines.size() == 1 ? " matching line" : " matching lines")
                    .append(" for ").append(Messages.quote(regex)).append(" in ")
                    .append(Messages.quote(target.virtualPath())).append(" (searched ").append(results.files)
                    .append(results.files == 1 ? " file" : " files").append("):");
            results.lines.forEach(line -> out.append('\n').append(line));
        }
        if (results.moreMatches) {
            out.append("\n[Truncated: showing the first ").append(results.lines.size())
                    .append(" matches; use a narrower pattern, glob or directory.]");
        }
        if (results.timedOut || outcome != null && outcome.cutByTime) {
            out.append("\n[Incomplete: the search reached its time limit of ").append(limits.searchTimeoutMillis())
                    .append(" ms; use a simpler pattern or a smaller directory.]");
        } else if (outcome != null && outcome.cutByEntries) {
            out.append("\n[Incomplete: stopped after ").append(outcome.entries)
                    .append(" entries; search a smaller directory.]");
        }
        if (!results.moreMatches && !results.timedOut) {
            out.append(TreeWalk.depthNote(outcome, target, "search_text"));
        }
        if (results.cutFiles > 0) {
            out.append("\n[").append(results.cutFiles).append(results.cutFiles == 1 ? " file was" : " files were")
                    .append(" searched only in its first ").append(limits.maxSearchFileBytes()).append(" bytes.]");
        }
        if (outcome != null) {
            out.append(outcome.unusableNote());
        }
        if (outcome != null && outcome.protectedEntries > 0) {
            out.append("\n[").append(outcome.protectedEntries).append(outcome.protectedEntries == 1
                    ? " protected file or directory was" : " protected files or directories were")
                    .append(" not searched.]");
        }
        if (outcome != null && outcome.deniedDirectories > 0) {
            out.append("\n[").append(outcome.deniedDirectories)
                    .append(" director").append(outcome.deniedDirectories == 1 ? "y was" : "ies were")
                    .append(" not searched: no READ permission there.]");
        }
        return out.toString();
    }
}
