package dev.mero.tools;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.nio.file.LinkOption.NOFOLLOW_LINKS;
import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.TRUNCATE_EXISTING;
import static java.nio.file.StandardOpenOption.WRITE;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.mero.core.ContentDigest;
import dev.mero.core.InvalidInputException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.Messages;
import dev.mero.core.Operation;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathEntry;
import dev.mero.core.ResolvedPath;
import dev.mero.core.SecureFiles;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * LangChain4j tools that read, write and list files inside the directories a {@link SecurityContext}
 * mounts: {@code read_file}, {@code write_file} and {@code list_directory}.
 *
 * <pre>{@code
 * SecurityContext context = SecurityContext.builder()
 *         .path(PathEntry.of("/srv/workspace", "ws", Permission.READ, Permission.WRITE))
 *         .build();
 * Agent agent = AiServices.builder(Agent.class)
 *         .chatModel(model)
 *         .tools(new FileTools(context))
 *         .toolExecutionErrorHandler(MeroToolExecutionErrorHandler.create())
 *         .build();
 * }</pre>
 *
 * <p>The model names files by virtual path ({@code /ws/notes.md}); results name them the same way and never
 * show a host path. Every call is guarded by the context ({@link SecurityContext#guard(Operation, String)}:
 * scopes, rate limit, path permissions, approval, audit) before anything touches the file system, so a
 * denied call changes nothing. The target is checked again right before it is opened and right after,
 * and files are opened through {@link SecureFiles}, which follows no symbolic link anywhere in the path, so
 * that a link swapped in after the check is not followed.
 *
 * <p>A refused or failed call throws a {@link MeroToolsException}: register
 * {@link MeroToolExecutionErrorHandler} so that the model reads {@code "Denied: ..."} or
 * {@code "Error: ..."} instead of the call failing. Reads, writes and listings are bounded (see
 * {@link Builder}). Instances are immutable and thread-safe.
 */
public final class FileTools {

    /** Default for {@link Builder#maxReadBytes(int)}: 256 KiB. */
    public static final int DEFAULT_MAX_READ_BYTES = 256 * 1024;
    /** Default for {@link Builder#maxWriteBytes(int)}: 1 MiB. */
    public static final int DEFAULT_MAX_WRITE_BYTES = 1024 * 1024;
    /** Default for {@link Builder#maxListEntries(int)}. */
    public static final int DEFAULT_MAX_LIST_ENTRIES = 1000;
    /** How much of a new file's text an approver sees. */
    private static final int APPROVAL_PREVIEW_CHARS = 4000;


    private final SecurityContext context;
    private final int maxReadBytes;
    private final int maxWriteBytes;
    private final int maxListEntries;
    /** Tells the model how to write a path when it left one out. */
    private final String pathHint;

    /**
     * Creates the tools with the default limits.
     *
     * @param context the context that decides every call
     */
    public FileTools(SecurityContext context) {
        this(builder().securityContext(context));
    }

    private FileTools(Builder builder) {
        this.context = Objects.requireNonNull(builder.context, "securityContext");
        this.maxReadBytes = builder.maxReadBytes;
        this.maxWriteBytes = builder.maxWriteBytes;
        this.maxListEntries = builder.maxListEntries;
        this.pathHint = pathHint(context);
    }

    /**
     * Starts a builder, for limits other than the defaults.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Reads a text file.
     *
     * @param path the file, as the model names it
     * @return the file's text, with a note at the end if it was truncated or had invalid UTF-8
     * @throws MeroToolsException if the call is refused or fails
     */
    @Tool(name = "read_file", value = {
            "Reads a text file and returns its contents (UTF-8).",
            "Paths are virtual: '/<mount>/<path inside it>', for example '/ws/notes.md', "
                    + "or relative to the first mount.",
            "Very long files are cut off, with a note at the end saying so. Binary files are refused."})
    public String readFile(@P("Path of the file to read, for example '/ws/notes.md'") String path) {
        return context.run(Operation.FILE_READ, required(path, "path", pathHint), null, null, target -> {
            Path real = context.recheck(target).realPath();
            if (!Files.isRegularFile(real, NOFOLLOW_LINKS)) {
                throw notAFile(target);
            }
            try (SeekableByteChannel channel = SecureFiles.newByteChannel(target, StandardOpenOption.READ)) {
                context.recheck(target);
                InputStream in = Channels.newInputStream(channel);
                byte[] bytes = in.readNBytes(maxReadBytes + 1);
                return readResult(target, bytes, Math.max(channel.size(), bytes.length));
            } catch (IOException e) {
                throw failure("read", target, e);
            }
        });
    }

    /**
     * Writes a text file, replacing its contents.
     *
     * @param path    the file, as the model names it
     * @param content the complete new contents
     * @return what was written, for example {@code Wrote 12 bytes to '/ws/a.txt' (created the file).}
     * @throws MeroToolsException if the call is refused or fails
     */
    @Tool(name = "write_file", value = {
            "Writes text to a file (UTF-8), creating it or replacing all of its contents.",
            "Missing parent directories are created.",
            "Paths are virtual: '/<mount>/<path inside it>', for example '/ws/summary.md', "
                    + "or relative to the first mount."})
    public String writeFile(@P("Path of the file to write, for example '/ws/summary.md'") String path,
                            @P("The complete new contents of the file") String content) {
        String checkedPath = required(path, "path", pathHint);
        String text = required(content, "content",
                "Give the complete text to write; an empty string writes an empty file.");
        byte[] bytes = text.getBytes(UTF_8);
        if (bytes.length > maxWriteBytes) {
            throw new InvalidInputException("The content is " + bytes.length + " bytes of UTF-8; write_file writes "
                    + "at most " + maxWriteBytes + " bytes at once. Write a shorter file.");
        }
        return context.run(Operation.FILE_WRITE, checkedPath, approvalDetails(text, bytes.length),
                ContentDigest.of(bytes), target -> {
            Path real = target.realPath();
            if (target.isMountRoot() || Files.isDirectory(real, NOFOLLOW_LINKS)) {
                throw new OperationFailedException(Messages.quote(target.virtualPath()) + " is a directory; give the "
                        + "path of a file inside it, for example " + Messages.quote(target.virtualPath() + "/notes.txt")
                        + ".");
            }
            try {
                boolean createdParents = createParents(target);
                context.recheck(target);
                boolean existed = Files.exists(real, NOFOLLOW_LINKS);
                try (OutputStream out = Channels.newOutputStream(
                        SecureFiles.newByteChannel(target, CREATE, TRUNCATE_EXISTING, WRITE))) {
                    context.recheck(target, bytes);
                    out.write(bytes);
                }
                return "Wrote " + bytes.length + (bytes.length == 1 ? " byte" : " bytes") + " to "
                        + Messages.quote(target.virtualPath()) + " ("
                        + (existed ? "replaced its previous contents" : "created the file")
                        + (createdParents ? " and its missing parent directories" : "") + ").";
            } catch (IOException e) {
                throw failure("write", target, e);
            }
        });
    }

    /**
     * Lists a directory.
     *
     * @param path the directory, as the model names it
     * @return the entries sorted by name, directories ending with {@code '/'}
     * @throws MeroToolsException if the call is refused or fails
     */
    @Tool(name = "list_directory", value = {
            "Lists the entries of a directory, sorted by name; names of directories end with '/'.",
            "Paths are virtual: '/<mount>' or '/<mount>/<path inside it>', for example '/ws' or '/ws/reports'."})
    public String listDirectory(@P("Path of the directory to list, for example '/ws'") String path) {
        return context.run(Operation.DIRECTORY_LIST, required(path, "path", pathHint), null, null, target -> {
            Path real = context.recheck(target).realPath();
            if (!Files.isDirectory(real, NOFOLLOW_LINKS)) {
                throw new OperationFailedException(Messages.quote(target.virtualPath())
                        + " is not a directory or does not exist.");
            }
            try {
                return DirectoryListing.render(target.virtualPath(), real, maxListEntries);
            } catch (IOException e) {
                throw failure("list", target, e);
            }
        });
    }

    private String readResult(ResolvedPath target, byte[] bytes, long size) {
        boolean truncated = bytes.length > maxReadBytes;
        int length = truncated ? maxReadBytes : bytes.length;
        if (Utf8Text.isBinary(bytes, length)) {
            throw new OperationFailedException(Messages.quote(target.virtualPath()) + " looks like a binary file "
                    + "(it contains NUL bytes); read_file only returns text.");
        }
        if (length == 0) {
            return "[" + Messages.quote(target.virtualPath()) + " is an empty file.]";
        }
        Utf8Text decoded = Utf8Text.decode(bytes, length, !truncated);
        StringBuilder out = new StringBuilder(decoded.text());
        if (decoded.replaced() > 0) {
            out.append("\n[Note: ").append(decoded.replaced()).append(" byte sequence(s) that are not valid UTF-8 "
                    + "were replaced with U+FFFD.]");
        }
        if (truncated) {
            out.append("\n[Truncated: showing the first ").append(maxReadBytes).append(" of ").append(size)
                    .append(" bytes of ").append(Messages.quote(target.virtualPath())).append(".]");
        }
        return out.toString();
    }

    /** Creates the missing directories above a write target; they lie inside the target's mount. */
    private boolean createParents(ResolvedPath target) throws IOException {
        Path parent = target.realPath().getParent();
        if (Files.isDirectory(parent, NOFOLLOW_LINKS)) {
            return false;
        }
        context.recheck(target);
        Files.createDirectories(parent);
        return true;
    }

    private OperationFailedException notAFile(ResolvedPath target) {
        boolean directory = Files.isDirectory(target.realPath(), NOFOLLOW_LINKS);
        return new OperationFailedException(Messages.quote(target.virtualPath()) + " is not a file or does not exist."
                + (directory ? " It is a directory: use list_directory to see its entries." : ""));
    }

    /**
     * An I/O failure as the model should read it. A target that moved while it was used is reported as
     * the denial the re-check raises, not as an I/O error.
     */
    private OperationFailedException failure(String action, ResolvedPath target, IOException cause) {
        context.recheck(target);
        return new OperationFailedException("Could not " + action + " " + Messages.quote(target.virtualPath())
                + ": " + Messages.ioReason(cause) + ".", cause);
    }

    /** What a human approving a write sees besides the action: the size and the start of the new text. */
    private static String approvalDetails(String text, int bytes) {
        int shown = Math.min(text.length(), APPROVAL_PREVIEW_CHARS);
        return "New contents (" + bytes + " bytes" + (shown < text.length() ? ", first " + shown + " characters" : "")
                + "):\n" + text.substring(0, shown);
    }

    /** LangChain4j passes {@code null} for an argument the model left out. */
    private static String required(String value, String name, String hint) {
        if (value == null) {
            throw new InvalidInputException("The argument " + Messages.quote(name) + " is missing. " + hint);
        }
        return value;
    }

    private static String pathHint(SecurityContext context) {
        if (context.paths().isEmpty()) {
            return "Give a path, although this context mounts no directories.";
        }
        StringJoiner mounts = new StringJoiner(", ");
        for (PathEntry entry : context.paths()) {
            mounts.add(Messages.quote(entry.mountPoint()));
        }
        return "Give a path such as " + Messages.quote(context.paths().get(0).mountPoint() + "/notes.txt")
                + " (mounted: " + mounts + ").";
    }

    /** Builds {@link FileTools}; {@link #securityContext(SecurityContext)} is required. */
    public static final class Builder {

        private SecurityContext context;
        private int maxReadBytes = DEFAULT_MAX_READ_BYTES;
        private int maxWriteBytes = DEFAULT_MAX_WRITE_BYTES;
        private int maxListEntries = DEFAULT_MAX_LIST_ENTRIES;

        private Builder() {
        }

        /**
         * Sets the context that decides every call.
         *
         * @param context the context
         * @return this builder
         */
        public Builder securityContext(SecurityContext context) {
            this.context = Objects.requireNonNull(context, "securityContext");
            return this;
        }

        /**
         * Sets how many bytes {@code read_file} returns at most; longer files are truncated with a note.
         *
         * @param maxReadBytes at least 1 (default {@value FileTools#DEFAULT_MAX_READ_BYTES})
         * @return this builder
         */
        public Builder maxReadBytes(int maxReadBytes) {
            this.maxReadBytes = positive(maxReadBytes, "maxReadBytes");
            return this;
        }

        /**
         * Sets how many bytes {@code write_file} writes at most; larger content is refused.
         *
         * @param maxWriteBytes at least 1 (default {@value FileTools#DEFAULT_MAX_WRITE_BYTES})
         * @return this builder
         */
        public Builder maxWriteBytes(int maxWriteBytes) {
            this.maxWriteBytes = positive(maxWriteBytes, "maxWriteBytes");
            return this;
        }

        /**
         * Sets how many entries {@code list_directory} shows at most; the rest are counted in a note.
         *
         * @param maxListEntries at least 1 (default {@value FileTools#DEFAULT_MAX_LIST_ENTRIES})
         * @return this builder
         */
        public Builder maxListEntries(int maxListEntries) {
            this.maxListEntries = positive(maxListEntries, "maxListEntries");
            return this;
        }

        /**
         * Builds the tools.
         *
         * @return the tools
         * @throws NullPointerException if no security context was set
         */
        public FileTools build() {
            return new FileTools(this);
        }

        private static int positive(int value, String name) {
            // the read buffer holds one byte more than the limit, so the limit must leave room for it
            if (value < 1 || value == Integer.MAX_VALUE) {
                throw new IllegalArgumentException(name + " must be between 1 and " + (Integer.MAX_VALUE - 1)
                        + ", was " + value);
            }
            return value;
        }
    }
}
