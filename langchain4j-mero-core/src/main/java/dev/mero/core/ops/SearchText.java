package dev.mero.core.ops;

import static java.nio.file.StandardOpenOption.READ;

import dev.mero.core.Messages;
import dev.mero.core.Operation;
import dev.mero.core.Permission;
import dev.mero.core.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code search_text(path, pattern, glob?)}: a regular expression searched line by line in the text files below
 * a directory (or in one file), in Java on the core's checks, never by running grep. Files are reached through
 * open directories without following links; the search is bounded in files, bytes per file, matches and time
 * (including a pattern's backtracking, see {@link DeadlineText}). Results are {@code path:line: text} with
 * virtual paths.
 */
final class SearchText implements ToolOperation {

    private static final int MAX_PATTERN_LENGTH = 1000;
    private static final int MAX_LINE_CHARS = 300;
    private static final int SNIFF_BYTES = 8192;

    private final SecurityContext context;
    private final OperationLimits limits;

    SearchText(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
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
        Pattern pattern = compile(arguments.tool(), regex);
        Optional<GlobPattern> glob = arguments.optionalString("glob")
                .map(g -> GlobPattern.compile(arguments.tool(), "glob", g));
        return context.run(Operation.FILE_READ, arguments.string("path"), null, null, target -> {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(limits.searchTimeoutMillis());
            Results results = new Results();
            TreeWalk.Outcome outcome = null;
            try {
                Optional<BasicFileAttributes> self = attributesOf(target);
                if (self.isPresent() && self.get().isRegularFile()) {
                    try (SecureDirectory parent = Targets.openParent(target)) {
                        context.recheck(target);
                        search(parent, Targets.name(target), target.virtualPath(), pattern, deadline, results);
                    }
                } else {
                    context.checkScope(Operation.DIRECTORY_LIST);
                    outcome = TreeWalk.walk(context, target, TreeWalk.MAX_DEPTH, limits.maxScanEntries(), deadline,
                            Permission.READ, (relative, depth, attributes, parent, name) -> {
                                if (attributes.isRegularFile() && (glob.isEmpty() || glob.get().matches(relative))) {
                                    return search(parent, name, Targets.child(target.virtualPath(), relative), pattern,
                                            deadline, results);
                                }
                                return true;
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

    /** Searches one file; returns {@code false} when the search must stop. */
    private boolean search(SecureDirectory parent, String name, String virtualPath, Pattern pattern, long deadline,
                           Results results) throws IOException {
        byte[] bytes;
        boolean cut;
        try (SeekableByteChannel channel = parent.newByteChannel(name, READ);
             InputStream in = Channels.newInputStream(channel)) {
            bytes = in.readNBytes(limits.maxSearchFileBytes() + 1);
        } catch (IOException e) {
            // an unreadable file does not stop the search
            return true;
        }
        cut = bytes.length > limits.maxSearchFileBytes();
        int length = cut ? limits.maxSearchFileBytes() : bytes.length;
        if (Utf8Text.isBinary(bytes, Math.min(length, SNIFF_BYTES))) {
            return true;
        }
        results.files++;
        if (cut) {
            results.cutFiles++;
        }
        String text = Utf8Text.decode(bytes, length, !cut).text();
        int lineNumber = 0;
        int start = 0;
        try {
            while (start < text.length()) {
                int end = text.indexOf('\n', start);
                if (end < 0) {
                    end = text.length();
                }
                lineNumber++;
                String line = text.substring(start, end);
                Matcher matcher = pattern.matcher(new DeadlineText(line, deadline));
                if (matcher.find()) {
                    if (results.lines.size() == limits.maxSearchMatches()) {
                        results.moreMatches = true;
                        return false;
                    }
                    results.lines.add(virtualPath + ":" + lineNumber + ": " + shown(line));
                }
                start = end + 1;
            }
        } catch (DeadlineText.Expired e) {
            results.timedOut = true;
            return false;
        }
        if (System.nanoTime() - deadline > 0) {
            results.timedOut = true;
            return false;
        }
        return true;
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
        if (results.cutFiles > 0) {
            out.append("\n[").append(results.cutFiles).append(results.cutFiles == 1 ? " file was" : " files were")
                    .append(" searched only in its first ").append(limits.maxSearchFileBytes()).append(" bytes.]");
        }
        if (outcome != null && outcome.deniedDirectories > 0) {
            out.append("\n[").append(outcome.deniedDirectories)
                    .append(" director").append(outcome.deniedDirectories == 1 ? "y was" : "ies were")
                    .append(" not searched: no READ permission there.]");
        }
        return out.toString();
    }

    private static String shown(String line) {
        String cut = line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) + " [...]" : line;
        StringBuilder out = new StringBuilder(cut.length());
        cut.codePoints().forEach(cp -> {
            if (cp == '\t') {
                out.append(' ');
            } else if (Messages.isControlOrInvisible(cp)) {
                out.append(Messages.codePoint(cp));
            } else {
                out.appendCodePoint(cp);
            }
        });
        return out.toString();
    }

    private static Pattern compile(ToolDescriptor tool, String regex) {
        if (regex.isEmpty() || regex.length() > MAX_PATTERN_LENGTH) {
            throw ToolArguments.invalid(tool, "'pattern' must be a regular expression of 1 to " + MAX_PATTERN_LENGTH
                    + " characters");
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw ToolArguments.invalid(tool, "'pattern' is not a valid regular expression (" + e.getDescription()
                    + " near index " + e.getIndex() + ")");
        }
    }
}
