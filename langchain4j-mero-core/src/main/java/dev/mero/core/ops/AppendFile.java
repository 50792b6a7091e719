package dev.mero.core.ops;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.nio.file.StandardOpenOption.APPEND;
import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.WRITE;

import dev.mero.core.path.ContentDigest;
import dev.mero.core.message.Messages;
import dev.mero.core.guard.Operation;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;

/**
 * {@code append_file(path, content)}: adds text at the end of a file, creating it if needed. The file is opened
 * relative to its directory without following a link ({@code O_APPEND|O_NOFOLLOW}); a device or pipe is refused
 * before it is opened. The approval request carries the SHA-256 of the complete appended text as its content
 * digest.
 */
final class AppendFile implements ToolOperation {

    private final SecurityContext context;
    private final OperationLimits limits;

    AppendFile(SecurityContext context, OperationLimits limits) {
        this.context = context;
        this.limits = limits;
    }

    @Override
    public String run(ToolArguments arguments) {
        String text = arguments.string("content");
        byte[] bytes = text.getBytes(UTF_8);
        WriteFile.checkSize(bytes.length, limits.maxWriteBytes(), "append_file");
        String details = ApprovalDetails.content("Appended text", text);
        return context.run(Operation.FILE_WRITE, arguments.string("path"), details, ContentDigest.of(bytes), target -> {
            try (WriteTarget write = WriteTarget.open(context, target, "append_file")) {
                context.recheck(target);
                refuseSharedInode(write);
                long size;
                try (SeekableByteChannel out = write.parent.newByteChannel(write.name, CREATE, WRITE, APPEND)) {
                    context.recheck(target, bytes);
                    ByteBuffer buffer = ByteBuffer.wrap(bytes);
                    while (buffer.hasRemaining()) {
                        out.write(buffer);
                    }
                    size = out.size();
                }
                return "Appended " + bytes.length + (bytes.length == 1 ? " byte" : " bytes") + " to "
                        + Messages.quote(target.virtualPath()) + " ("
                        + (write.existsAsFile() ? "now " + size + " bytes" : "created the file" + write.parentsNote())
                        + ").";
            } catch (IOException e) {
                throw Targets.failure(context, "append to", target, e);
            }
        });
    }

    /**
     * Appending changes a file in place, so a file with other hard links (which may lie outside every mount) is
     * refused; write_file, which replaces the directory entry, never changes the shared file.
     */
    private static void refuseSharedInode(WriteTarget write) throws IOException {
        if (!write.existsAsFile()) {
            return;
        }
        Object links = Files.getAttribute(write.target.realPath(), "unix:nlink", LinkOption.NOFOLLOW_LINKS);
        if (links instanceof Integer count && count > 1) {
            throw new PathAccessDeniedException("Path " + Messages.quote(write.target.virtualPath()) + " has "
                    + (count - 1) + " other hard link(s), which may lie outside the mounts; append_file does not "
                    + "change a shared file in place. Use write_file with the complete new content instead.");
        }
    }
}
