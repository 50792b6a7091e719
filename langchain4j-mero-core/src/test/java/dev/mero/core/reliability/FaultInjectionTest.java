package dev.mero.core.reliability;

import static dev.mero.core.Permission.DELETE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mero.core.MeroToolsException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalBackend;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ChainedApproval;
import dev.mero.core.ops.MeroOperations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults around a guarded write or read, through the real operations and {@link SecurityContext}'s guard:
 * approval backends that hang, throw exceptions or errors, or are interrupted, and a file that disappears or
 * changes between the check and its use. Nothing runs that was not approved, and every failure is a clean
 * {@code Denied: ...} or {@code Error: ...} that names no host path.
 */
class FaultInjectionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SHORT = Duration.ofMillis(200);

    @TempDir
    Path tmp;

    private Path root;
    private Path ws;
    private Path outside;
    private Path file;

    @BeforeEach
    void workspace() throws Exception {
        root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        outside = Files.createDirectories(root.resolve("outside"));
        file = ws.resolve("f.txt");
        Files.writeString(file, "old\n");
        Files.writeString(outside.resolve("secret.txt"), "secret\n");
    }

    private MeroOperations operations(ApprovalBackend backend, Permission... approve) {
        return MeroOperations.forContext(SecurityContext.builder().name("faults")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE, DELETE))
                .requireApproval(approve).approval(backend).build());
    }

    private static String write(MeroOperations ops, String path, String content) throws Exception {
        return call(ops, "write_file", Map.of("path", path, "content", content));
    }

    private static String call(MeroOperations ops, String tool, Map<String, String> arguments) throws Exception {
        try {
            return ops.call(tool, JSON.writeValueAsString(arguments));
        } catch (MeroToolsException e) {
            return e.toModelText();
        }
    }

    private void assertNothingWritten(String answer, String prefix) throws Exception {
        assertThat(answer).startsWith(prefix).doesNotContain(root.toString()).doesNotContain("Exception");
        assertThat(Files.readString(file)).isEqualTo("old\n");
        try (Stream<Path> entries = Files.list(ws)) {
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactly("f.txt");
        }
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("secret\n");
    }

    @Test
    void aHangingBackendTimesOutAndItsLateApprovalRunsNothing() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch returned = new CountDownLatch(1);
        ApprovalBackend hangs = request -> {
            try {
                while (true) {
                    try {
                        release.await(); // ignores interrupts: only the test lets it go
                        return ApprovalDecision.APPROVED;
                    } catch (InterruptedException ignored) {
                        // keep hanging
                    }
                }
            } finally {
                returned.countDown();
            }
        };
        MeroOperations ops = operations(ChainedApproval.of(SHORT, hangs), WRITE);

        assertNothingWritten(write(ops, "/ws/f.txt", "new\n"), "Denied: No backend in chain could resolve approval");

        release.countDown();
        assertThat(returned.await(60, TimeUnit.SECONDS)).isTrue();
        assertNothingWritten("Denied: (late approval discarded)", "Denied: ");
    }

    @Test
    void backendsThatThrowExceptionsOrErrorsApproveNothing() throws Exception {
        List<ApprovalBackend> broken = List.of(
                request -> {
                    throw new IllegalStateException("backend down at " + root);
                },
                request -> {
                    throw new AssertionError("backend bug");
                },
                request -> {
                    throw new InterruptedException("backend interrupted itself");
                },
                request -> null);
        for (ApprovalBackend backend : broken) {
            assertNothingWritten(write(operations(backend, WRITE), "/ws/f.txt", "new\n"),
                    "Denied: Action 'WRITE: /ws/f.txt' was not approved for context 'faults'.");
            // the gate passes an interrupt on, also one a backend raised itself; only that backend raises one
            assertThat(Thread.interrupted()).isEqualTo(backend == broken.get(2));
            assertNothingWritten(write(operations(ChainedApproval.of(SHORT, backend), WRITE), "/ws/f.txt", "new\n"),
                    "Denied: No backend in chain could resolve approval for 'WRITE: /ws/f.txt'.");
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }

    @Test
    void aCallerInterruptedWhileWaitingIsDeniedAndKeepsItsInterrupt() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ApprovalBackend waits = request -> {
            asked.countDown();
            release.await();
            return ApprovalDecision.APPROVED;
        };
        MeroOperations ops = operations(ChainedApproval.of(Duration.ofMinutes(5), waits), WRITE);
        CompletableFuture<String> answer = new CompletableFuture<>();
        CompletableFuture<Boolean> interruptKept = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                answer.complete(write(ops, "/ws/f.txt", "new\n"));
                interruptKept.complete(Thread.currentThread().isInterrupted());
            } catch (Throwable t) {
                answer.completeExceptionally(t);
            }
        });
        caller.start();
        try {
            assertThat(asked.await(60, TimeUnit.SECONDS)).isTrue();
            caller.interrupt();
            assertNothingWritten(answer.get(60, TimeUnit.SECONDS),
                    "Denied: Action 'WRITE: /ws/f.txt' was not approved for context 'faults'.");
            assertThat(interruptKept.get(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            release.countDown();
            caller.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertNothingWritten("Denied: (after release)", "Denied: ");
    }

    @Test
    void aFileDeletedBetweenCheckAndUseIsACleanError() throws Exception {
        ApprovalBackend deletesThenApproves = request -> {
            Files.delete(file);
            return ApprovalDecision.APPROVED;
        };
        String answer = call(operations(deletesThenApproves, READ), "read_file", Map.of("path", "/ws/f.txt"));

        assertThat(answer).startsWith("Error: ").contains("/ws/f.txt").doesNotContain(root.toString());
        assertThat(Files.exists(file)).isFalse();
    }

    @Test
    void aFileSwappedForALinkOutsideBetweenCheckAndUseIsRefusedAndOutsideIsUntouched() throws Exception {
        ApprovalBackend swapsThenApproves = request -> {
            Files.delete(file);
            Files.createSymbolicLink(file, outside.resolve("secret.txt"));
            return ApprovalDecision.APPROVED;
        };
        String answer = write(operations(swapsThenApproves, WRITE), "/ws/f.txt", "new\n");

        // the refusal names the link's host target today; keeping host paths out of denials is issue 7's part
        assertThat(answer).matches("(?s)(Denied|Error): .*").doesNotContain("secret\n");
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("secret\n");
        try (Stream<Path> entries = Files.list(outside)) {
            assertThat(entries.map(p -> p.getFileName().toString())).containsExactly("secret.txt");
        }
    }

    @Test
    void aFileTurnedIntoADirectoryBetweenCheckAndUseIsACleanError() throws Exception {
        ApprovalBackend swapsThenApproves = request -> {
            Files.delete(file);
            Files.createDirectory(file);
            return ApprovalDecision.APPROVED;
        };
        String answer = write(operations(swapsThenApproves, WRITE), "/ws/f.txt", "new\n");

        assertThat(answer).matches("(?s)(Denied|Error): .*").doesNotContain(root.toString());
        assertThat(Files.isDirectory(file)).isTrue();
        try (Stream<Path> entries = Files.list(file)) {
            assertThat(entries).isEmpty();
        }
    }
}
