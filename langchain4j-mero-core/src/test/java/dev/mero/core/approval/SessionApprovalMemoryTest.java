package dev.mero.core.approval;

import dev.mero.core.PathEntry;
import dev.mero.core.path.ContentDigest;
import dev.mero.core.Permission;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.SecurityContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SessionApprovalMemoryTest {

    @TempDir
    Path dir;

    private SecurityContext context;
    private final AtomicInteger asked = new AtomicInteger();
    private final ApprovalBackend human = r -> {
        asked.incrementAndGet();
        return ApprovalDecision.APPROVED;
    };

    @BeforeEach
    void workspace() throws Exception {
        Path ws = Files.createDirectories(dir.resolve("ws/sub"));
        context = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(ws.getParent().toString(), "ws", Permission.values())).build();
    }

    private ApprovalRequest write(String path, Permission... permissions) {
        ResolvedPath target = context.checkPathAccess(path, permissions);
        return ApprovalRequest.builder().contextName(context.name()).permissions(permissions).target(target).build();
    }

    private ApprovalRequest command(String contextName, String... argv) {
        return ApprovalRequest.builder().contextName(contextName).permissions(Permission.EXECUTE)
                .argv(List.of(argv)).build();
    }

    @Test
    void anIdenticalRequestIsApprovedWithoutAsking() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(human);

        assertThat(memory.decide(write("/ws/a.txt", Permission.WRITE))).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(memory.decide(write("/ws/a.txt", Permission.WRITE))).isEqualTo(ApprovalDecision.APPROVED);
        // The same file named relative to the default mount resolves to the same virtual and real path.
        assertThat(memory.decide(write("a.txt", Permission.WRITE))).isEqualTo(ApprovalDecision.APPROVED);

        assertThat(asked).hasValue(1);
        assertThat(memory.size()).isEqualTo(1);
    }

    @Test
    void anApprovalNeverWidensToAnotherPathOrPermission() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(human);
        memory.decide(write("/ws/sub/a.txt", Permission.WRITE));

        memory.decide(write("/ws/sub/b.txt", Permission.WRITE));                     // sibling
        memory.decide(write("/ws/sub", Permission.WRITE));                           // parent directory
        memory.decide(write("/ws/sub/a.txt/x", Permission.WRITE));                   // below it
        memory.decide(write("/ws/sub/a.txt", Permission.DELETE));                    // other permission
        memory.decide(write("/ws/sub/a.txt", Permission.WRITE, Permission.DELETE));  // more permissions

        assertThat(asked).hasValue(6);
    }

    @Test
    void anApprovalNeverWidensToAnotherCommandOrContext() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(human);
        memory.decide(command("worker_1", "git", "status"));

        memory.decide(command("worker_1", "git", "status", "--porcelain")); // one more argument
        memory.decide(command("worker_1", "git"));                          // a prefix
        memory.decide(command("worker_1", "git", "push"));                  // another argument
        memory.decide(command("worker_2", "git", "status"));                // another context
        memory.decide(ApprovalRequest.builder().contextName("worker_1").permissions(Permission.EXECUTE)
                .subject("git status").argv(List.of("git", "status;", "rm", "-rf", "/")).build()); // same text

        assertThat(asked).hasValue(6);
        memory.decide(command("worker_1", "git", "status"));
        assertThat(asked).hasValue(6);
    }

    @Test
    void onlyApprovalsAreRemembered() throws Exception {
        List<ApprovalDecision> answers = new ArrayList<>(List.of(ApprovalDecision.DENIED, ApprovalDecision.ABSTAIN,
                ApprovalDecision.APPROVED));
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(r -> {
            asked.incrementAndGet();
            return answers.remove(0);
        });
        ApprovalRequest request = command("worker_1", "make");

        assertThat(memory.decide(request)).isEqualTo(ApprovalDecision.DENIED);
        assertThat(memory.decide(request)).isEqualTo(ApprovalDecision.ABSTAIN);
        assertThat(memory.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(memory.decide(request)).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked).hasValue(3);
    }

    @Test
    void aFailingBackendIsNotRemembered() {
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(r -> {
            throw new IllegalStateException("down");
        });

        assertThatThrownBy(() -> memory.decide(command("worker_1", "make"))).hasMessage("down");
        assertThat(memory.size()).isZero();
    }

    @Test
    void forgetEndsTheSession() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(human);
        memory.decide(command("worker_1", "make"));

        memory.forget();
        memory.decide(command("worker_1", "make"));

        assertThat(asked).hasValue(2);
    }

    @Test
    void contentIsComparedByDigestNeverByDetailsUnlessSwitchedOff() throws Exception {
        SessionApprovalMemory byAction = SessionApprovalMemory.builder().delegate(human).matchDetails(false).build();
        byAction.decide(write("preview", "one"));
        byAction.decide(write("other preview", "two"));
        assertThat(asked).hasValue(1);

        SessionApprovalMemory byContent = SessionApprovalMemory.wrap(human);
        byContent.decide(write("preview", "one"));
        byContent.decide(write("another preview", "one")); // same content: remembered
        byContent.decide(write("preview", "two"));         // same preview, other content: asked
        assertThat(asked).hasValue(1 + 2);
    }

    @Test
    void aRequestWithDetailsButNoDigestIsNeverRemembered() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(human);
        for (int i = 0; i < 3; i++) {
            assertThat(memory.decide(ApprovalRequest.builder().contextName("worker_1").permissions(Permission.WRITE)
                    .subject("/ws/a.txt").details("+one").build())).isEqualTo(ApprovalDecision.APPROVED);
        }

        assertThat(asked).hasValue(3);
        assertThat(memory.size()).isZero();
    }

    private ApprovalRequest write(String preview, String content) {
        return ApprovalRequest.builder().contextName("worker_1").permissions(Permission.WRITE)
                .subject("/ws/a.txt").details(preview).contentDigest(ContentDigest.of(content)).build();
    }

    @Test
    void theMemoryIsBounded() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.builder().delegate(human).maxEntries(2).build();
        for (String program : List.of("a", "b", "c", "c")) {
            memory.decide(command("worker_1", program));
        }

        assertThat(memory.size()).isEqualTo(2);
        assertThat(asked).hasValue(4); // "c" was approved but not remembered
    }

    @Test
    void aMemoryOfOneRemembersTheFirstApprovalOnly() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.builder().delegate(human).maxEntries(1).build();
        for (String program : List.of("a", "a", "b", "b", "a")) {
            memory.decide(command("worker_1", program));
        }

        assertThat(memory.size()).isEqualTo(1);
        assertThat(asked).hasValue(3); // "a" once, "b" twice
    }

    @Test
    void concurrentSessionsShareOneMemorySafely() throws Exception {
        SessionApprovalMemory memory = SessionApprovalMemory.wrap(human);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<ApprovalDecision>> decisions = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                String program = "p" + (i % 10);
                decisions.add(threads.submit(() -> {
                    start.await();
                    return memory.decide(command("worker_1", program));
                }));
            }
            start.countDown();
            for (Future<ApprovalDecision> decision : decisions) {
                assertThat(decision.get()).isEqualTo(ApprovalDecision.APPROVED);
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(memory.size()).isEqualTo(10);
        assertThat(asked.get()).isBetween(10, 200);
    }

    @Test
    void configurationIsValidated() {
        assertThatThrownBy(() -> SessionApprovalMemory.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SessionApprovalMemory needs a backend to ask; call delegate(...) on the builder");
        assertThatThrownBy(() -> SessionApprovalMemory.builder().maxEntries(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("SessionApprovalMemory maxEntries must be at least 1, got 0");
    }
}
