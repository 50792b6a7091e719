package dev.mero.core.reliability;

import static dev.mero.core.Permission.DELETE;
import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.MeroToolsException;
import dev.mero.core.guard.Operation;
import dev.mero.core.PathEntry;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 32 threads take a mixed stream of allowed and denied decisions (guarded reads and writes, path checks,
 * command checks and guarded commands) on one context and on contexts narrowed from it, all at once: every
 * decision equals the one taken alone, and the shared audit log holds exactly one outcome event per guarded
 * decision, the same events a single thread produces.
 */
class ConcurrentDecisionsTest {

    private static final int THREADS = 32;
    private static final int ROUNDS = 3;

    @TempDir
    Path tmp;

    @Test
    void everyConcurrentDecisionEqualsTheSingleThreadedOneWithOneAuditEventEach() throws Exception {
        Path root = tmp.toRealPath();
        Path ws = Files.createDirectories(root.resolve("ws"));
        Path docs = Files.createDirectories(root.resolve("docs"));
        Path outside = Files.createDirectories(root.resolve("outside"));
        Files.createDirectories(ws.resolve("src"));
        Files.writeString(ws.resolve("a.txt"), "a");
        Files.writeString(docs.resolve("guide.md"), "g");
        Files.writeString(outside.resolve("secret.txt"), "s");
        Files.createSymbolicLink(ws.resolve("escape"), outside);
        Files.createSymbolicLink(ws.resolve("inner"), ws.resolve("src"));

        ConcurrentLinkedQueue<AuditEvent> events = new ConcurrentLinkedQueue<>();
        SecurityContext parent = SecurityContext.builder().name("parent")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE, DELETE, EXECUTE))
                .path(PathEntry.of(docs.toString(), "docs", READ))
                .allowCommand("ls").allowCommand("cat").allowCommand("git status").denyCommand("ls -R")
                .auditLog(AuditLog.builder().sink(events::add).build())
                .build();
        SecurityContext readOnlyChild = parent.narrow("reader").permissions(READ, EXECUTE).build();
        SecurityContext docsChild = parent.narrow("docs-only").paths("docs").build();
        List<SecurityContext> contexts = List.of(parent, readOnlyChild, docsChild);

        List<Function<SecurityContext, String>> decisions = new ArrayList<>();
        List<String> paths = List.of("/ws/a.txt", "a.txt", "/ws/src/new.txt", "/ws/inner/x", "/ws/escape/secret.txt",
                "/ws/../outside/secret.txt", ws.resolve("a.txt").toString(), outside.resolve("secret.txt").toString(),
                "/docs/guide.md", "/docs/new.md", "/nope/x", "", "/ws/a\u0000b", "~/x", "/ws/$HOME");
        for (String path : paths) {
            decisions.add(context -> context.guard(Operation.FILE_READ, path).virtualPath());
            decisions.add(context -> context.guard(Operation.FILE_WRITE, path).virtualPath());
            decisions.add(context -> context.guard(Operation.FILE_DELETE, path).virtualPath());
            decisions.add(context -> context.checkPathAccess(path, READ, WRITE).realPath().toString());
            decisions.add(context -> context.checkPath(path).virtualPath());
        }
        List<String> commands = List.of("ls -la", "ls -R /ws", "cat /ws/a.txt", "cat /ws/escape/secret.txt",
                "cat " + outside.resolve("secret.txt"), "rm -rf /ws", "ls; cat /etc/passwd", "git status",
                "git -C /outside status", "cat $HOME/x", "");
        for (String command : commands) {
            decisions.add(context -> String.join(" ", context.checkCommand(command).argv()));
            decisions.add(context -> String.join(" ", context.guardCommand(command, "/ws").argv()));
            decisions.add(context -> String.join(" ", context.guardCommand(command, "/docs").argv()));
        }

        // alone: the expected answer of every (context, decision) pair, and the events one pass records
        Map<Integer, String> expected = new HashMap<>();
        int tasks = contexts.size() * decisions.size();
        for (int task = 0; task < tasks; task++) {
            expected.put(task, decide(contexts, decisions, task));
        }
        List<String> eventsAlone = describe(events);
        events.clear();
        assertThat(expected.values()).anyMatch(answer -> answer.startsWith("ok "));
        assertThat(expected.values()).anyMatch(answer -> answer.startsWith("Denied: "));
        assertThat(expected.values()).anyMatch(answer -> answer.startsWith("Error: "));

        // together: every thread takes every decision ROUNDS times, in its own order, all released at once
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        CountDownLatch ready = new CountDownLatch(THREADS);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                long seed = 1000L + t;
                results.add(pool.submit(() -> {
                    List<Integer> order = new ArrayList<>();
                    for (int round = 0; round < ROUNDS; round++) {
                        for (int task = 0; task < tasks; task++) {
                            order.add(task);
                        }
                    }
                    Collections.shuffle(order, new Random(seed));
                    List<String> mismatches = new ArrayList<>();
                    ready.countDown();
                    go.await();
                    for (int task : order) {
                        String answer = decide(contexts, decisions, task);
                        if (!answer.equals(expected.get(task))) {
                            mismatches.add(task + ": expected " + expected.get(task) + " but got " + answer);
                        }
                    }
                    return mismatches;
                }));
            }
            assertThat(ready.await(60, TimeUnit.SECONDS)).isTrue();
            go.countDown();
            for (Future<List<String>> result : results) {
                assertThat(result.get(120, TimeUnit.SECONDS)).isEmpty();
            }
        } finally {
            pool.shutdownNow();
        }

        // the audit log: exactly the events of THREADS * ROUNDS single passes, one outcome per guarded decision
        List<String> expectedEvents = new ArrayList<>();
        for (int copy = 0; copy < THREADS * ROUNDS; copy++) {
            expectedEvents.addAll(eventsAlone);
        }
        Collections.sort(expectedEvents);
        assertThat(describe(events)).isEqualTo(expectedEvents);
        long guarded = (long) contexts.size() * (paths.size() * 3 + commands.size() * 2);
        assertThat(eventsAlone).hasSize((int) guarded);
    }

    private static String decide(List<SecurityContext> contexts, List<Function<SecurityContext, String>> decisions,
                                 int task) {
        SecurityContext context = contexts.get(task % contexts.size());
        Function<SecurityContext, String> decision = decisions.get(task / contexts.size());
        try {
            return "ok " + decision.apply(context);
        } catch (MeroToolsException e) {
            return e.toModelText();
        }
    }

    /** Each event as context, type, subject and reason, sorted: the multiset of outcomes. */
    private static List<String> describe(Iterable<AuditEvent> events) {
        List<String> described = new ArrayList<>();
        for (AuditEvent event : events) {
            described.add(event.contextName().orElse("") + " | " + event.type() + " | " + event.subject().orElse("")
                    + " | " + event.reason().orElse(""));
        }
        Collections.sort(described);
        return described;
    }
}
