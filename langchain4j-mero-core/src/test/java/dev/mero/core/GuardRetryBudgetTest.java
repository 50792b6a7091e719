package dev.mero.core;

import dev.mero.core.guard.Operation;
import dev.mero.core.path.ResolvedPath;

import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.limit.RetryBudget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The core's guards apply the retry budget, keyed by the canonical target, and audit its refusals. */
class GuardRetryBudgetTest {

    @TempDir
    Path tmp;

    Path ws;
    List<AuditEvent> events;
    SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectories(tmp.toRealPath().resolve("ws"));
        Files.writeString(ws.resolve("x"), "x");
        events = new CopyOnWriteArrayList<>();
        context = SecurityContext.builder().name("w")
                .path(PathEntry.of(ws.toString(), "ws", READ, EXECUTE))
                .allowCommand("ls")
                .retryBudget(RetryBudget.builder().maxFailures(3).build())
                .auditLog(AuditLog.builder().sink(events::add).build())
                .build();
    }

    private String failing(AtomicInteger runs) {
        runs.incrementAndGet();
        throw new OperationFailedException("failed.");
    }

    /** Runs a read of {@code path} that fails, and checks that it ran and failed. */
    private void failedRead(String path, AtomicInteger runs) {
        assertThatThrownBy(() -> context.run(Operation.FILE_READ, path, null, null, t -> failing(runs))).as(path)
                .isInstanceOf(OperationFailedException.class);
    }

    @Test
    void respellingsOfOnePathShareOneBudget() {
        AtomicInteger runs = new AtomicInteger();
        List<String> spellings = List.of("/ws/x", "/ws//x", "x", "./x", ws.resolve("x").toString(), "/ws/./x");
        int refused = 0;
        for (String spelling : spellings) {
            try {
                context.run(Operation.FILE_READ, spelling, null, null, target -> failing(runs));
            } catch (RetryBudgetExceededException e) {
                refused++;
            } catch (OperationFailedException expected) {
                // counted
            }
        }

        assertThat(runs).hasValue(3);
        assertThat(refused).isEqualTo(spellings.size() - 3);
    }

    @Test
    void aGuardWithoutAnOutcomeNeitherHoldsNorResetsTheCallsFailures() {
        AtomicInteger runs = new AtomicInteger();
        for (int i = 0; i < 2; i++) {
            failedRead("/ws/x", runs);
        }
        for (int i = 0; i < 5; i++) {
            assertThat(context.guard(Operation.FILE_READ, "/ws/x").realPath()).isEqualTo(ws.resolve("x"));
        }
        failedRead("/ws/x", runs);
        assertThatThrownBy(() -> context.run(Operation.FILE_READ, "/ws/x", null, null, t -> failing(runs)))
                .isInstanceOf(RetryBudgetExceededException.class);
        assertThat(runs).hasValue(3);
    }

    @Test
    void budgetRefusalsAreAuditedAsDenials() {
        AtomicInteger runs = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            failedRead("/ws/x", runs);
        }
        events.clear();

        assertThatThrownBy(() -> context.run(Operation.FILE_READ, "x", null, null, t -> failing(runs)))
                .isInstanceOf(RetryBudgetExceededException.class)
                .hasMessageContaining("'read_file'");
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AuditEventType.DENIED);
            assertThat(e.errorCode()).contains("retry_exhausted");
            assertThat(e.subject()).contains("x");
        });
    }

    @Test
    void aSuccessResetsTheCanonicalCall() {
        AtomicInteger runs = new AtomicInteger();
        for (int i = 0; i < 2; i++) {
            failedRead("/ws/x", runs);
        }
        assertThat(context.run(Operation.FILE_READ, "x", null, null, ResolvedPath::virtualPath)).isEqualTo("/ws/x");
        for (int i = 0; i < 3; i++) {
            failedRead("/ws/x", runs);
        }
        assertThat(runs).hasValue(5);
    }

    /**
     * Guards {@code /ws/x} three times, each refused with {@code refusal}, then {@code ./x}: refused because the
     * three refusals exhausted the call's budget, not because calls that never ended hold it.
     */
    private static void assertExhaustedAfterThreeRefusals(SecurityContext context, Operation operation,
                                                          Class<? extends MeroToolsException> refusal) {
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> context.guard(operation, "/ws/x")).isInstanceOf(refusal);
        }
        assertThatThrownBy(() -> context.guard(operation, "./x"))
                .isInstanceOf(RetryBudgetExceededException.class)
                .hasMessageContaining("already failed 3 time(s) in a row and was not run again");
    }

    @Test
    void repeatedDenialsOfAGuardAreCountedToo() {
        assertExhaustedAfterThreeRefusals(context, Operation.FILE_WRITE, PermissionDeniedException.class);
        assertThatThrownBy(() -> context.guard(Operation.FILE_READ, "/etc/passwd"))
                .isInstanceOf(PathAccessDeniedException.class);
    }

    @Test
    void refusalsByTheHumanAreCountedAndTheFourthCallIsNotAskedAgain() {
        AtomicInteger asked = new AtomicInteger();
        SecurityContext approving = SecurityContext.builder().name("w")
                .path(PathEntry.of(ws.toString(), "ws", READ))
                .requireApproval(READ)
                .approval(request -> {
                    asked.incrementAndGet();
                    return ApprovalDecision.DENIED;
                })
                .retryBudget(RetryBudget.builder().maxFailures(3).build())
                .build();

        assertExhaustedAfterThreeRefusals(approving, Operation.FILE_READ, ApprovalDeniedException.class);
        assertThat(asked).hasValue(3);
    }

    @Test
    void failuresOfDifferentPathsAreCountedApart() {
        AtomicInteger runs = new AtomicInteger();
        for (String path : List.of("/ws/x", "/ws/x", "/ws/x", "/ws/y")) {
            failedRead(path, runs);
        }
        assertThat(runs).hasValue(4);
    }

    @Test
    void refusalsOfDifferentPathsAreCountedApart() {
        for (String path : List.of("/ws/a", "/ws/b", "/ws/c", "/ws/d", "/etc/a", "/etc/b", "/etc/c", "/etc/d")) {
            assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, path)).as(path)
                    .isNotInstanceOf(RetryBudgetExceededException.class)
                    .isInstanceOf(MeroToolsException.class);
        }
    }

    @Test
    void commandsAreKeyedByTheirCheckedArgvAndCountNonZeroExits() {
        int refused = 0;
        for (String workingDirectory : List.of("/ws", "/ws//", "/ws/", ws.toString(), "/ws")) {
            try {
                assertThat(context.runCommand("ls missing-file", workingDirectory).succeeded()).isFalse();
            } catch (RetryBudgetExceededException e) {
                refused++;
            }
        }
        assertThat(refused).isEqualTo(2);
        assertThat(context.runCommand("ls x", "/ws").succeeded()).isTrue();
    }

    @Test
    void concurrentFailingCallsUnderEverySpellingRunExactlyTheBudget() throws Exception {
        List<String> spellings = List.of("/ws/x", "/ws//x", "x", "./x", ws.resolve("x").toString());
        int callers = 32;
        CountDownLatch decided = new CountDownLatch(callers);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                String spelling = spellings.get(i % spellings.size());
                calls.add(pool.submit(() -> {
                    try {
                        context.run(Operation.FILE_READ, spelling, null, null, target -> {
                            ran.incrementAndGet();
                            decided.countDown();
                            awaitQuietly(release);
                            throw new OperationFailedException("failed.");
                        });
                    } catch (RetryBudgetExceededException e) {
                        refused.incrementAndGet();
                        decided.countDown();
                    } catch (OperationFailedException expected) {
                        // one of the runs the budget allowed
                    }
                }));
            }
            assertThat(decided.await(60, TimeUnit.SECONDS)).isTrue();
            release.countDown();
            for (Future<?> call : calls) {
                call.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(ran).hasValue(3);
        assertThat(refused).hasValue(callers - 3);
        assertThat(events).filteredOn(e -> e.type() == AuditEventType.ALLOWED).hasSize(3);
        assertThat(events).filteredOn(e -> e.errorCode().filter("retry_exhausted"::equals).isPresent())
                .hasSize(callers - 3);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
