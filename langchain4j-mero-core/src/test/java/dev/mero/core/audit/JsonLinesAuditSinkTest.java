package dev.mero.core.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mero.core.Fifos;
import dev.mero.core.Permission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

@Timeout(60)
class JsonLinesAuditSinkTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static AuditEvent event(String subject) {
        return AuditEvent.builder().type(AuditEventType.DENIED).contextName("worker_1")
                .action("DELETE: " + subject).subject(subject).permissions(List.of(Permission.DELETE))
                .reason("Context 'worker_1' lacks permission(s) ['DELETE'] (has: ['READ']).")
                .errorCode("permission_denied").build();
    }

    @Test
    void anEventIsOneJsonObjectWithSnakeCaseKeys() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        AuditEvent event = AuditEvent.builder().type(AuditEventType.APPROVAL_REFUSED)
                .timestamp(Instant.parse("2025-01-01T10:00:00Z")).contextName("worker_1")
                .action("WRITE: /ws/a.txt").subject("/ws/a.txt").permissions(List.of(Permission.WRITE))
                .reason("Action 'WRITE: /ws/a.txt' was not approved for context 'worker_1'.")
                .errorCode("approval_denied").requestId("r-1").build();

        try (JsonLinesAuditSink sink = JsonLinesAuditSink.open(file)) {
            sink.write(event);
        }

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(1);
        JsonNode node = JSON.readTree(lines.get(0));
        assertThat(node.fieldNames()).toIterable().containsExactly("timestamp", "type", "outcome", "context_name",
                "action", "subject", "permissions", "reason", "error_code", "request_id", "targets", "content_sha256");
        assertThat(node.get("timestamp").asText()).isEqualTo("2025-01-01T10:00:00Z");
        assertThat(node.get("type").asText()).isEqualTo("APPROVAL_REFUSED");
        assertThat(node.get("outcome").asText()).isEqualTo("denied");
        assertThat(node.get("context_name").asText()).isEqualTo("worker_1");
        assertThat(node.get("action").asText()).isEqualTo("WRITE: /ws/a.txt");
        assertThat(node.get("permissions").toString()).isEqualTo("[\"WRITE\"]");
        assertThat(node.get("reason").asText())
                .isEqualTo("Action 'WRITE: /ws/a.txt' was not approved for context 'worker_1'.");
        assertThat(node.get("error_code").asText()).isEqualTo("approval_denied");
        assertThat(node.get("request_id").asText()).isEqualTo("r-1");
    }

    @Test
    void theOperatorOnlyDetailIsWrittenOnlyWhenAnEventHasOne() throws Exception {
        AuditEvent event = AuditEvent.builder().type(AuditEventType.DENIED).action("READ: /ws/out")
                .detail("resolves to '/srv/outside'").build();

        JsonNode node = JSON.readTree(JsonLinesAuditSink.toJsonLine(event));

        assertThat(node.get("detail").asText()).isEqualTo("resolves to '/srv/outside'");
        assertThat(JSON.readTree(JsonLinesAuditSink.toJsonLine(event("/ws/a"))).has("detail")).isFalse();
    }

    @Test
    void absentValuesAreNull() throws Exception {
        byte[] line = JsonLinesAuditSink.toJsonLine(AuditEvent.builder().type(AuditEventType.ALLOWED).build());

        JsonNode node = JSON.readTree(line);
        assertThat(node.get("context_name").isNull()).isTrue();
        assertThat(node.get("reason").isNull()).isTrue();
        assertThat(node.get("permissions").isEmpty()).isTrue();
    }

    @Test
    void hostileTextStaysOnOneAsciiLine() throws Exception {
        String subject = "/ws/a\nforged {\"type\":\"ALLOWED\"}\r\u2028\u202e\u001b[2J\u00e9";
        byte[] line = JsonLinesAuditSink.toJsonLine(event(subject));

        String text = new String(line, StandardCharsets.US_ASCII);
        assertThat(text.indexOf('\n')).isEqualTo(text.length() - 1);
        assertThat(text.chars().limit(text.length() - 1)).allMatch(c -> c >= 0x20 && c < 0x7f);
        assertThat(JSON.readTree(text).get("subject").asText()).isEqualTo(subject);
    }

    @Test
    void eventsAreAppendedToAnExistingFile() throws Exception {
        Path file = Files.writeString(dir.resolve("audit.jsonl"), "{\"earlier\":true}\n");

        try (JsonLinesAuditSink sink = JsonLinesAuditSink.open(file)) {
            sink.write(event("/ws/a"));
        }
        try (JsonLinesAuditSink sink = JsonLinesAuditSink.open(file)) {
            sink.write(event("/ws/b"));
        }

        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("{\"earlier\":true}");
        assertThat(JSON.readTree(lines.get(2)).get("subject").asText()).isEqualTo("/ws/b");
    }

    @Test
    void aNewFileIsReadableByItsOwnerOnly() throws Exception {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path file = dir.resolve("audit.jsonl");

        JsonLinesAuditSink.open(file).close();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void eightThreadsWritingTwoHundredEventsEachGiveSixteenHundredIntactLines() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        try (JsonLinesAuditSink sink = JsonLinesAuditSink.open(file)) {
            writeConcurrently(List.of(sink), 8, 200);
        }

        assertIntactLines(file, 8, 200);
    }

    @Test
    void twoSinksOnOneFileNeverInterleave() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        Path link = Files.createSymbolicLink(dir.resolve("link.jsonl"), file.getFileName());
        try (JsonLinesAuditSink first = JsonLinesAuditSink.open(file);
             JsonLinesAuditSink second = JsonLinesAuditSink.open(link)) {
            assertThat(second.file()).isEqualTo(first.file());
            writeConcurrently(List.of(first, second), 8, 200);
        }

        assertIntactLines(file, 8, 200);
    }

    @Test
    void anInterruptedWriterStillWritesAndDoesNotBreakTheSink() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        try (JsonLinesAuditSink sink = JsonLinesAuditSink.open(file)) {
            Thread.currentThread().interrupt();
            try {
                sink.write(event("/ws/while-interrupted"));
            } finally {
                assertThat(Thread.interrupted()).isTrue();
            }
            sink.write(event("/ws/after"));
        }

        assertThat(Files.readAllLines(file)).hasSize(2);
    }

    @Test
    void aRegularFileIsKnownByItsOwnIdentityNotByItsPath() throws Exception {
        Path audit = Files.writeString(dir.resolve("audit.jsonl"), "");
        Path other = Files.writeString(dir.resolve("other.jsonl"), "");
        Object before = JsonLinesAuditSink.regularFileKey(audit);
        Object otherKey = JsonLinesAuditSink.regularFileKey(other);

        Files.move(other, audit, StandardCopyOption.REPLACE_EXISTING);

        assertThat(before).isNotNull().isNotEqualTo(otherKey);
        assertThat(JsonLinesAuditSink.regularFileKey(audit)).isEqualTo(otherKey).isNotEqualTo(before);
    }

    @Test
    void aClosedSinkRefusesToWrite() throws Exception {
        JsonLinesAuditSink sink = JsonLinesAuditSink.open(dir.resolve("audit.jsonl"));
        sink.close();
        sink.close();

        assertThatThrownBy(() -> sink.write(event("/ws/a")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageEndingWith("audit.jsonl' is closed");
    }

    @Test
    @Timeout(30)
    void aFifoADirectoryOrADeviceIsRefusedBeforeItIsOpened() throws Exception {
        Path fifo = Fifos.mkfifo(dir.resolve("audit.jsonl"));
        Path linkToFifo = Files.createSymbolicLink(dir.resolve("link.jsonl"), fifo);
        Path linkToDevice = Files.createSymbolicLink(dir.resolve("zero.jsonl"), Path.of("/dev/null"));
        Path directory = Files.createDirectory(dir.resolve("dir.jsonl"));

        for (Path refused : List.of(fifo, linkToFifo, linkToDevice, directory)) {
            assertThatThrownBy(() -> JsonLinesAuditSink.open(refused)).as(refused.toString())
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("not a regular file");
        }
    }

    @Test
    void aLinkToARegularFileStillWorks() throws Exception {
        Path real = Files.createFile(dir.resolve("real.jsonl"));
        Path link = Files.createSymbolicLink(dir.resolve("link.jsonl"), real);

        try (JsonLinesAuditSink sink = JsonLinesAuditSink.open(link)) {
            sink.write(AuditEvent.builder().type(AuditEventType.ALLOWED).build());
            assertThat(sink.file()).isEqualTo(real.toRealPath());
        }
        assertThat(Files.readAllLines(real)).hasSize(1);
    }

    @Test
    void aMissingDirectoryFailsToOpen() {
        assertThatThrownBy(() -> JsonLinesAuditSink.open(dir.resolve("missing/audit.jsonl")))
                .isInstanceOf(java.io.IOException.class);
    }

    @Test
    void throughAnAuditLogEveryEventReachesTheFile() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        try (JsonLinesAuditSink sink = JsonLinesAuditSink.open(file)) {
            AuditLog log = AuditLog.builder().sink(sink).build();
            log.record(event("/ws/a"));
            log.record(AuditEvent.builder().type(AuditEventType.ALLOWED).action("READ: /ws/b").build());
        }

        assertThat(Files.readAllLines(file)).extracting(line -> JSON.readTree(line).get("type").asText())
                .containsExactly("DENIED", "ALLOWED");
    }

    private static void writeConcurrently(List<JsonLinesAuditSink> sinks, int threads, int eventsPerThread)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                JsonLinesAuditSink sink = sinks.get(t % sinks.size());
                int thread = t;
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < eventsPerThread; i++) {
                        // long subjects make a torn or interleaved write visible
                        sink.write(event("/ws/t" + thread + "/e" + i + "/" + "x".repeat(500)));
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void assertIntactLines(Path file, int threads, int eventsPerThread) throws Exception {
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(threads * eventsPerThread);
        Set<String> subjects = new HashSet<>();
        for (String line : lines) {
            JsonNode node = JSON.readTree(line);
            assertThat(node.isObject()).isTrue();
            Iterator<String> keys = node.fieldNames();
            assertThat(keys.next()).isEqualTo("timestamp");
            subjects.add(node.get("subject").asText());
        }
        assertThat(subjects).hasSize(threads * eventsPerThread);
    }
}
