package dev.mero.core.ops;

import dev.mero.core.InvalidInputException;
import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * {@code read_file(path, offset?, limit?)}: a window of a text file's lines. The file's type is read without
 * following a link before it is opened, so a directory, device, pipe or socket is refused and never opened
 * (a pipe would block); the file is opened relative to its directory, reached from the mount's directory handle,
 * without following links.
 */
final class ReadFile implements ToolOperation {

    private final SecurityContext context;
    private final OperationLimits limits;

    ReadFile(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    @Override
    public String run(ToolArguments arguments) {
        int offset = arguments.optionalInt("offset").orElse(1);
        int limit = arguments.optionalInt("limit").orElse(Integer.MAX_VALUE);
        if (offset < 1) {
            throw ToolArguments.invalid(arguments.tool(), "'offset' is " + offset + "; lines are numbered from 1");
        }
        if (limit < 1) {
            throw ToolArguments.invalid(arguments.tool(), "'limit' is " + limit + "; give at least 1 line");
        }
        // where the kernel confines opens, the decision opens the file (ReadOpen) and the action reads it
        ReadOpen opened = ReadOpen.begin(ConfinedCalls.current(), context.approvalRequired().contains(Permission.READ));
        try {
            return read(arguments.string("path"), offset, limit, opened);
        } finally {
            if (opened != null) {
                opened.close();
            }
        }
    }

    private String read(String path, int offset, int limit, ReadOpen opened) {
        return context.run(Operation.FILE_READ, path, null, null, target -> {
            if (target.isMountRoot()) {
                throw new OperationFailedException(Messages.quote(target.virtualPath()) + " is a directory, not a "
                        + "regular file; read_file works on regular files only. Use list_directory to see its entries.");
            }
            LineWindow window;
            // one open the kernel confines below the mount, where it can (ConfinedCalls); anything but a plain
            // success there takes the path below, which decides and explains as it always has
            SeekableByteChannel taken = opened == null ? null : opened.taken(target.realPath());
            try (SeekableByteChannel confined = taken != null ? taken : Targets.openConfined(target)) {
                if (confined != null) {
                    window = LineWindow.read(confined, confined.size(), offset, limit,
                            limits.maxReadBytes(), limits.maxScanBytes());
                    return render(target.virtualPath(), window, offset);
                }
            } catch (IOException e) {
                throw Targets.failure(context, "read", target, e);
            }
            // the open walks from the mount's own directory handle without following a link, so it reaches the
            // checked file or fails; a failure is re-checked and explained by Targets.failure
            try (SecureDirectory parent = Targets.openParent(target)) {
                BasicFileAttributes attributes = parent.attributes(Targets.name(target))
                        .orElseThrow(() -> Targets.missing(target));
                if (!attributes.isRegularFile()) {
                    throw Targets.notAFile(target, attributes, "read_file");
                }
                // its type was read just above: not read again before the open (a pipe swapped in since then is
                // opened through BoundedOpen and refused, as after any listing)
                try (SeekableByteChannel channel = parent.openListedFile(Targets.name(target))) {
                    window = LineWindow.read(channel, attributes.size(), offset, limit,
                            limits.maxReadBytes(), limits.maxScanBytes());
                }
            } catch (IOException e) {
                throw Targets.failure(context, "read", target, e);
            }
            return render(target.virtualPath(), window, offset);
        });
    }

    /** The answer for a window, after which its spare buffer goes back for the next read. */
    private static String render(String virtualPath, LineWindow window, int offset) {
        try {
            return text(virtualPath, window, offset);
        } finally {
            window.release();
        }
    }

    private static String text(String virtualPath, LineWindow window, int offset) {
        // a whole file's NUL bytes are looked for in its text (faster there), which is decoded before any other
        // check could apply to it: it is neither empty nor short of the offset
        boolean nulsInText = window.nulsUnchecked();
        if (!nulsInText && window.binary()) {
            throw binary(virtualPath);
        }
        if (window.length == 0 && window.totalLines() == 0 && window.totalKnown) {
            return "[" + Messages.quote(virtualPath) + " is an empty file.]";
        }
        if (window.length == 0 && offset > window.totalLines()) {
            throw new InvalidInputException("Invalid input: 'offset' is " + offset + " but "
                    + Messages.quote(virtualPath) + " has " + (window.totalKnown ? "" : "at least ")
                    + window.totalLines() + (window.totalLines() == 1 ? " line" : " lines")
                    + ". Expected an offset between 1 and " + window.totalLines() + ".");
        }
        // a whole file read from line 1 answers without its lines counted
        boolean whole = window.wholeFile || offset == 1 && window.totalKnown && window.lastLine() >= window.totalLines()
                && !window.cutInsideLine;
        Utf8Text decoded = Utf8Text.decode(window.buffer, window.length, whole || !window.cutInsideLine);
        if (nulsInText && decoded.text().indexOf('\0') >= 0) {
            throw binary(virtualPath);
        }
        if (whole && decoded.replaced() == 0) {
            return decoded.text();
        }
        StringBuilder out = new StringBuilder(decoded.text());
        if (decoded.replaced() > 0) {
            out.append("\n[Note: ").append(decoded.replaced()).append(" byte sequence(s) that are not valid UTF-8 "
                    + "were replaced with U+FFFD.]");
        }
        if (!whole) {
            out.append('\n').append(note(virtualPath, window));
        }
        return out.toString();
    }

    private static OperationFailedException binary(String virtualPath) {
        return new OperationFailedException(Messages.quote(virtualPath) + " looks like a binary file (it "
                + "contains NUL bytes); read_file only returns text.");
    }

    private static String note(String virtualPath, LineWindow window) {
        String of = (window.totalKnown ? " of " : " of at least ") + window.totalLines();
        if (window.cutInsideLine) {
            return "[Truncated: line " + window.lastLine() + of + " of " + Messages.quote(virtualPath)
                    + " is longer than " + window.length + " bytes; only its start is shown.]";
        }
        boolean atEnd = window.totalKnown && window.lastLine() >= window.totalLines();
        String shown = "lines " + window.firstLine + "-" + window.lastLine() + of + " of " + Messages.quote(virtualPath);
        return atEnd ? "[Showing " + shown + " (to the end).]"
                : "[Truncated: showing " + shown + "; call read_file with offset=" + (window.lastLine() + 1)
                + " to read on.]";
    }
}
