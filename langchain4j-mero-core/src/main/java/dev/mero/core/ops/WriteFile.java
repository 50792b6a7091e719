package dev.mero.core.ops;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.nio.file.StandardOpenOption.READ;

import dev.mero.core.InvalidInputException;
import dev.mero.core.path.ContentDigest;
import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.util.Arrays;

/**
 * {@code write_file(path, content)}: replaces a file atomically ({@link AtomicWrite}); identical content is
 * reported as unchanged and not written. The approval request carries the SHA-256 of the complete content.
 */
final class WriteFile implements ToolOperation {

    private final SecurityContext context;
    private final OperationLimits limits;

    WriteFile(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    @Override
    public String run(ToolArguments arguments) {
        String text = arguments.string("content");
        byte[] bytes = text.getBytes(UTF_8);
        checkSize(bytes.length, limits.maxWriteBytes(), "write_file");
        String details = ApprovalDetails.content("New contents", text);
        return context.run(Operation.FILE_WRITE, arguments.string("path"), details, ContentDigest.of(bytes), target -> {
            try (WriteTarget write = WriteTarget.open(context, target, "write_file")) {
                if (write.existsAsFile() && sameContent(write, bytes)) {
                    return Messages.quote(target.virtualPath()) + " already holds exactly this content ("
                            + bytes.length + " bytes); unchanged.";
                }
                context.recheck(target, bytes);
                AtomicWrite.replace(write.parent, write.name, bytes, AtomicWrite.mayRemoveStale(context, target));
                context.recheck(target);
                return "Wrote " + bytes.length + (bytes.length == 1 ? " byte" : " bytes") + " to "
                        + Messages.quote(target.virtualPath()) + " ("
                        + (write.existsAsFile() ? "replaced its previous contents" : "created the file")
                        + write.parentsNote() + ").";
            } catch (IOException e) {
                throw Targets.failure(context, "write", target, e);
            }
        });
    }

    /**
     * Refuses content above a limit before anything is guarded or touched.
     *
     * @param bytes the content's size
     * @param max   the limit
     * @param tool  the tool, for the message
     */
    static void checkSize(long bytes, long max, String tool) {
        if (bytes > max) {
            throw new InvalidInputException("The content is " + bytes + " bytes of UTF-8; " + tool + " writes at "
                    + "most " + max + " bytes at once. Write a shorter text.");
        }
    }

    private static boolean sameContent(WriteTarget write, byte[] bytes) throws IOException {
        if (write.existing.get().size() != bytes.length) {
            return false;
        }
        try (SeekableByteChannel channel = write.parent.newByteChannel(write.name, READ);
             InputStream in = Channels.newInputStream(channel)) {
            return Arrays.equals(in.readNBytes(bytes.length + 1), bytes);
        }
    }
}
