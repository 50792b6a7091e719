package dev.mero.benchmarks;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.ToolArguments;
import dev.mero.core.catalogue.ToolCatalogue;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The guarded {@code read_file} and {@code write_file} of a 4 KiB file against the raw operation, in one run:
 * {@code read_file} vs {@link Files#readString(Path)}, and {@code write_file} vs a plain temporary file that is
 * forced to disk and renamed over the target (what an atomic write costs without the guard).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FileOperationBenchmark extends TemporaryWorkspace {

    /**
     * Set to {@code true} to give the context an audit sink (which only counts the events): without one, and with
     * the audit logger off for {@code info} as in this jar, an ALLOWED event is not built at all.
     */
    static final String AUDIT_SINK_PROPERTY = "mero.bench.auditSink";

    private static final int SIZE = 4096;

    private Path file;
    private Path written;
    private MeroOperations operations;
    private ToolArguments read;
    private ToolArguments[] writes;
    private byte[][] contents;
    private int turn;
    private long sunk;

    /**
     * A workspace with a 4 KiB text file and two alternating 4 KiB contents to write.
     *
     * @throws IOException if the workspace cannot be created
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Path ws = Files.createDirectories(base().resolve("ws"));
        file = ws.resolve("four-k.txt");
        written = ws.resolve("written.txt");
        Files.writeString(file, text('r'));
        Files.writeString(written, text('a'));
        SecurityContext.Builder context = SecurityContext.builder().name("bench")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE));
        if (Boolean.getBoolean(AUDIT_SINK_PROPERTY)) {
            // every event built and handed to a sink, as where an audit trail is kept
            context.auditSink(event -> sunk++);
        }
        operations = MeroOperations.forContext(context.build());
        ToolCatalogue catalogue = operations.catalogue();
        read = ToolArguments.of(catalogue.find("read_file").orElseThrow(), Map.of("path", "/ws/four-k.txt"));
        writes = new ToolArguments[2];
        contents = new byte[2][];
        for (int i = 0; i < 2; i++) {
            String content = text((char) ('b' + i));
            contents[i] = content.getBytes(StandardCharsets.UTF_8);
            writes[i] = ToolArguments.of(catalogue.find("write_file").orElseThrow(),
                    Map.of("path", "/ws/written.txt", "content", content));
        }
    }

    /** 4 KiB of lines of one letter. */
    static String text(char letter) {
        StringBuilder text = new StringBuilder();
        String line = String.valueOf(letter).repeat(63) + "\n";
        while (text.length() < SIZE) {
            text.append(line);
        }
        return text.substring(0, SIZE);
    }

    /**
     * The raw read.
     *
     * @return the content
     * @throws IOException if it cannot be read
     */
    @Benchmark
    public String rawReadString() throws IOException {
        return Files.readString(file);
    }

    /**
     * {@code read_file} through the core operation: guard, audit, open without following links, line window.
     *
     * @return the text for the model
     */
    @Benchmark
    public String guardedReadFile() {
        return operations.call("read_file", read);
    }

    /**
     * The raw atomic write: a temporary file in the same directory, forced to disk, renamed over the target.
     *
     * @return the target
     * @throws IOException if it cannot be written
     */
    @Benchmark
    public Path rawTemporaryFileAndRename() throws IOException {
        byte[] content = contents[turn++ & 1];
        Path temporary = Files.createTempFile(written.getParent(), ".written", ".tmp");
        try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(content);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
            out.force(true);
        }
        return Files.move(temporary, written, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * {@code write_file} through the core operation, alternating two contents so that every call writes.
     *
     * @return the text for the model
     */
    @Benchmark
    public String guardedWriteFile() {
        return operations.call("write_file", writes[turn++ & 1]);
    }
}
