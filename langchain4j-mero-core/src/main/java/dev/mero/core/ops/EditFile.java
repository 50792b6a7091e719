package dev.mero.core.ops;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.mero.core.path.ContentDigest;
import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.util.Arrays;

/**
 * {@code edit_file(path, old_text, new_text, replace_all?, dry_run?)}: replaces an exact piece of text and
 * returns a unified diff. Reading needs READ; the write is guarded separately (WRITE, with the SHA-256 of the
 * whole edit and the diff for an approver), the file is read again right before it is replaced to make sure
 * it did not change meanwhile, and it is replaced atomically.
 *
 * <p>Memory is bounded before it is taken: {@code new_text} is refused when it alone is over the write limit, the
 * size of the result is computed from the number of matches before the result is built, and the diff is rendered
 * only as far as it is shown, so one call holds a small multiple of {@link OperationLimits#maxWriteBytes()}.
 */
final class EditFile implements ToolOperation {

    /** How much of a diff the model sees. */
    private static final int MAX_DIFF_CHARS = 20_000;

    private final SecurityContext context;
    private final OperationLimits limits;

    EditFile(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    @Override
    public String run(ToolArguments arguments) {
        String oldText = arguments.string("old_text");
        String newText = arguments.string("new_text");
        boolean replaceAll = arguments.optionalBoolean("replace_all").orElse(false);
        boolean dryRun = arguments.optionalBoolean("dry_run").orElse(false);
        if (oldText.isEmpty()) {
            throw ToolArguments.invalid(arguments.tool(), "'old_text' is empty; give the exact text to replace");
        }
        WriteFile.checkSize(Utf8Text.encodedLength(newText), limits.maxWriteBytes(), "edit_file");
        String path = arguments.string("path");
        return context.run(Operation.FILE_READ, path, null, null, target -> {
            byte[] original = FileContent.read(context, target, limits.maxWriteBytes(), "edit_file");
            String before = decode(target, original);
            int count = occurrences(before, oldText);
            if (count == 0) {
                throw new OperationFailedException("'old_text' was not found in " + Messages.quote(target.virtualPath())
                        + ". Read the file again and copy the text exactly, including whitespace and line breaks.");
            }
            if (count > 1 && !replaceAll) {
                throw new OperationFailedException("'old_text' occurs " + count + " times in "
                        + Messages.quote(target.virtualPath()) + ". Include more surrounding text so that it occurs "
                        + "once, or set replace_all to true to replace every occurrence.");
            }
            checkResultSize(original.length, count, oldText, newText);
            String after = replace(before, oldText, newText, count);
            byte[] bytes = after.getBytes(UTF_8);
            WriteFile.checkSize(bytes.length, limits.maxWriteBytes(), "edit_file");
            UnifiedDiff.Rendered diff = UnifiedDiff.of(target.virtualPath(), before, after, MAX_DIFF_CHARS);
            String replacements = count + (count == 1 ? " replacement" : " replacements");
            if (dryRun) {
                // what the real edit would be refused (scope, WRITE), a dry run is refused too; nothing is approved
                context.checkScope(Operation.FILE_WRITE);
                context.checkPathAccess(path, Permission.WRITE);
                return "Dry run: editing " + Messages.quote(target.virtualPath()) + " would make " + replacements
                        + "; nothing was written.\n" + shown(diff);
            }
            if (before.equals(after)) {
                return Messages.quote(target.virtualPath()) + " is unchanged: 'new_text' equals 'old_text'.";
            }
            ResolvedPath writable = context.guard(Operation.FILE_WRITE, path,
                    ApprovalDetails.edit(diff.text(), diff.length()), ContentDigest.of(bytes));
            if (!writable.realPath().equals(target.realPath())) {
                throw new OperationFailedException(Messages.quote(target.virtualPath()) + " changed while it was being "
                        + "edited; nothing was written. Read it again and retry.");
            }
            try (SecureDirectory parent = Targets.openParent(writable)) {
                byte[] now = FileContent.read(writable, parent, limits.maxWriteBytes(), "edit_file");
                if (!Arrays.equals(now, original)) {
                    throw new OperationFailedException(Messages.quote(target.virtualPath()) + " changed since it was "
                            + "read; nothing was written. Read it again and retry the edit.");
                }
                context.recheck(writable, bytes);
                    AtomicWrite.replace(parent, Targets.name(writable), bytes,
                            AtomicWrite.mayRemoveStale(context, writable));
                context.recheck(writable);
            } catch (IOException e) {
                throw Targets.failure(context, "edit", writable, e);
            }
            return "Edited " + Messages.quote(target.virtualPath()) + " (" + replacements + "):\n" + shown(diff);
        });
    }

    private static String shown(UnifiedDiff.Rendered diff) {
        return diff.length() <= MAX_DIFF_CHARS ? diff.text()
                : diff.text() + "\n[Diff truncated: showing " + MAX_DIFF_CHARS + " of " + diff.length()
                + " characters.]";
    }

    /**
     * Refuses an edit whose result would be over the write limit, before it is built. Each replacement changes the
     * size by the difference of the two texts' UTF-8 lengths: exact when neither holds half of a surrogate pair (a
     * match then never splits a character). The figure is never below the result's length in characters (each
     * character counts at least one byte), so it bounds what building the result allocates; the result's bytes are
     * checked again once encoded.
     */
    private void checkResultSize(int bytes, int count, String oldText, String newText) {
        long resultBytes = bytes + (long) count * (Utf8Text.encodedLength(newText) - Utf8Text.encodedLength(oldText));
        WriteFile.checkSize(resultBytes, limits.maxWriteBytes(), "edit_file");
    }

    private static String decode(ResolvedPath target, byte[] bytes) {
        for (byte b : bytes) {
            if (b == 0) {
                throw new OperationFailedException(Messages.quote(target.virtualPath()) + " looks like a binary file "
                        + "(it contains NUL bytes); edit_file only edits text.");
            }
        }
        try {
            return UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new OperationFailedException(Messages.quote(target.virtualPath()) + " is not valid UTF-8; "
                    + "edit_file would corrupt it. Use write_file with the complete new text instead.", e);
        }
    }

    private static int occurrences(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }

    /** Replaces the first {@code count} occurrences, building the result once at its final size. */
    private static String replace(String text, String part, String replacement, int count) {
        StringBuilder out = new StringBuilder(text.length() + count * (replacement.length() - part.length()));
        int from = 0;
        for (int i = 0; i < count; i++) {
            int at = text.indexOf(part, from);
            out.append(text, from, at).append(replacement);
            from = at + part.length();
        }
        return out.append(text, from, text.length()).toString();
    }
}
