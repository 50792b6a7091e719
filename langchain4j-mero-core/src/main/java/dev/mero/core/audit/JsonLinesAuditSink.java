package dev.mero.core.audit;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mero.core.Permission;

import java.io.Closeable;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Appends audit events to a file in JSON Lines format: one JSON object per line, never rewritten.
 *
 * <pre>{@code
 * {"timestamp":"2025-01-01T10:00:00Z","type":"APPROVAL_REFUSED","outcome":"denied","context_name":"worker_1",
 *  "action":"WRITE: /ws/a.txt","subject":"/ws/a.txt","permissions":["WRITE"],
 *  "reason":"Action 'WRITE: /ws/a.txt' was not approved for context 'worker_1'.",
 *  "error_code":"approval_denied","request_id":"6f1c...","targets":["/ws/a.txt -> /srv/ws/a.txt"],
 *  "content_sha256":"9f86d0..."}
 * }</pre>
 * (shown wrapped; in the file each event is a single line). Keys are snake_case and always present, with
 * {@code null} for an absent value; the timestamp is ISO-8601 in UTC; non-ASCII and control characters are
 * escaped, so a line holds printable ASCII only and a hostile name can neither split nor disguise it.
 *
 * <p>Safe under concurrent writers: the file is opened in append mode, and each event is serialized first
 * and then written with a single write call while holding a lock shared by every sink of this JVM on the
 * same file, so lines never interleave. Across processes, append mode makes each line land at the current
 * end of the file. Writes are not buffered, so an event is in the file when {@link #write(AuditEvent)}
 * returns. The stream does not react to thread interrupts (unlike an interruptible channel, which would
 * close itself), so an interrupted caller cannot silence the audit log. A new file is created readable by
 * its owner only where the file system supports POSIX permissions.
 */
public final class JsonLinesAuditSink implements AuditSink, Closeable {

    /** One lock per file, shared by all sinks of this JVM, so that two sinks on one file never interleave. */
    private static final ConcurrentMap<Path, Object> FILE_LOCKS = new ConcurrentHashMap<>();

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
            .build();

    private final Path file;
    private final Object lock;
    private final FileOutputStream out;
    private boolean closed;

    private JsonLinesAuditSink(Path file, FileOutputStream out) {
        this.file = file;
        this.lock = FILE_LOCKS.computeIfAbsent(file, ignored -> new Object());
        this.out = out;
    }

    /**
     * Opens a file for appending, creating it (and nothing else: its directory must exist) if needed.
     *
     * <p>Only a regular file is accepted. What the path (after its links) names is checked without following
     * a link before anything is opened, so a FIFO, a device or a directory is refused instead of blocking the
     * caller or swallowing the log; the file is then opened while a non-blocking read-write probe holds it (a
     * FIFO swapped in meanwhile cannot block the open), and the opened descriptor is checked again: it must be
     * seekable and the path must still name the same regular file.
     *
     * @param file the file
     * @return the sink; close it when done
     * @throws IOException if the file is not a regular file, or cannot be created or opened for appending
     */
    public static JsonLinesAuditSink open(Path file) throws IOException {
        Objects.requireNonNull(file, "file");
        Path absolute = file.toAbsolutePath().normalize();
        createOwnerOnly(absolute);
        // The real path keys the shared lock, so two sinks reaching one file through a link share it too.
        Path real = absolute.toRealPath();
        Object identity = regularFileKey(real);
        // held open meanwhile: a FIFO swapped in after the check then has a reader, so opening it cannot block
        FileChannel probe = FileChannel.open(real, StandardOpenOption.READ, StandardOpenOption.WRITE,
                LinkOption.NOFOLLOW_LINKS);
        try {
            FileOutputStream out = new FileOutputStream(real.toFile(), true);
            try {
                FileChannel opened = out.getChannel();
                opened.position(opened.size()); // a pipe cannot seek: fails for a FIFO swapped in
                if (!Objects.equals(regularFileKey(real), identity)) {
                    throw new IOException("'" + real + "' changed while it was being opened");
                }
                return new JsonLinesAuditSink(real, out);
            } catch (IOException | RuntimeException e) {
                out.close();
                throw e;
            }
        } finally {
            probe.close();
        }
    }

    /**
     * The identity of a regular file, checked without following a link.
     *
     * @throws IOException if the path is not a regular file (a FIFO, a device, a directory, a link)
     */
    static Object regularFileKey(Path real) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class,
                LinkOption.NOFOLLOW_LINKS);
        if (!attributes.isRegularFile()) {
            throw new IOException("'" + real + "' is not a regular file (it is a "
                    + (attributes.isDirectory() ? "directory" : attributes.isSymbolicLink() ? "symbolic link"
                    : "FIFO, socket or device") + ")");
        }
        return attributes.fileKey() != null ? attributes.fileKey() : real;
    }

    /**
     * The file this sink appends to.
     *
     * @return the real (canonical) file path
     */
    public Path file() {
        return file;
    }

    /**
     * Appends one event as one line and returns once it is written.
     *
     * @param event the event
     * @throws IOException           if the line could not be written
     * @throws IllegalStateException if the sink is closed
     */
    @Override
    public void write(AuditEvent event) throws IOException {
        byte[] line = toJsonLine(event);
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("JsonLinesAuditSink for '" + file + "' is closed");
            }
            out.write(line);
        }
    }

    /**
     * Closes the file; later writes fail. Closing twice does nothing.
     *
     * @throws IOException if the file cannot be closed
     */
    @Override
    public void close() throws IOException {
        synchronized (lock) {
            if (!closed) {
                closed = true;
                out.close();
            }
        }
    }

    @Override
    public String toString() {
        return "JsonLinesAuditSink{" + file + "}";
    }

    /**
     * Serializes an event as one JSON object followed by a newline, exactly as it is written to the file.
     *
     * @param event the event
     * @return the UTF-8 (in fact ASCII) bytes of the line
     * @throws IOException if serialization fails
     */
    static byte[] toJsonLine(AuditEvent event) throws IOException {
        Objects.requireNonNull(event, "event");
        ObjectNode node = MAPPER.createObjectNode();
        node.put("timestamp", event.timestamp().toString());
        node.put("type", event.type().name());
        node.put("outcome", event.outcome());
        put(node, "context_name", event.contextName());
        put(node, "action", event.action());
        put(node, "subject", event.subject());
        ArrayNode permissions = node.putArray("permissions");
        for (Permission permission : event.permissions()) {
            permissions.add(permission.name());
        }
        put(node, "reason", event.reason());
        put(node, "error_code", event.errorCode());
        // operator-only facts (host paths, link targets); absent from most events
        event.detail().ifPresent(detail -> node.put("detail", detail));
        put(node, "request_id", event.requestId());
        ArrayNode targets = node.putArray("targets");
        event.targets().forEach(targets::add);
        put(node, "content_sha256", event.contentDigest());
        byte[] json = MAPPER.writeValueAsBytes(node);
        byte[] line = new byte[json.length + 1];
        System.arraycopy(json, 0, line, 0, json.length);
        line[json.length] = '\n';
        return line;
    }

    private static void put(ObjectNode node, String key, Optional<String> value) {
        node.put(key, value.orElse(null));
    }

    private static void createOwnerOnly(Path file) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            // appending to an existing log is the normal case
        } catch (UnsupportedOperationException e) {
            try {
                Files.createFile(file);
            } catch (FileAlreadyExistsException ignored) {
                // created concurrently by another writer
            }
        }
    }
}
