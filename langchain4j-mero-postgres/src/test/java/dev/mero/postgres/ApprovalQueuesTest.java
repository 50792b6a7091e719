package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.guard.Operation;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ApprovalStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One approval queue per tenant: the store of tenant A neither lists nor decides tenant B's request (diff
 * included), while B's own queue and the operators' store-wide view do; a narrowed child that keeps A's
 * backend asks in A's queue. The command line works within the policy's context unless the operator names
 * several policies.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class ApprovalQueuesTest {

    private static HikariDataSource pool;
    private static PostgresPolicyStore store;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() {
        pool = PostgresServer.pool(PostgresServer.shared().createDatabase(), 6);
        store = PostgresPolicyStore.builder().dataSource(pool).migrate(true).pollInterval(Duration.ofMillis(100))
                .build();
    }

    @AfterAll
    static void stop() {
        store.close();
        pool.close();
    }

    @Test
    void aTenantsQueueNeitherListsNorDecidesAnotherTenantsRequest() throws Exception {
        ApprovalStore tenantA = store.approvals(Duration.ofMinutes(1), "tenant_a");
        ApprovalStore tenantB = store.approvals(Duration.ofMinutes(1), "tenant_b");
        ApprovalRequest request = ApprovalRequest.builder().contextName("tenant_b").permissions(Permission.WRITE)
                .subject("/ws/secret.txt").details("--- diff of tenant b").build();
        ExecutorService waiter = Executors.newSingleThreadExecutor();
        try {
            Future<ApprovalDecision> decision = waiter.submit(() -> tenantB.decide(request));
            SharedStoresTest.awaitTrue(() -> tenantB.pending(request.id()).isPresent());

            assertThat(tenantA.pending()).isEmpty();
            assertThat(tenantA.pending(request.id())).isEmpty();
            assertThat(tenantA.complete(request.id(), ApprovalDecision.APPROVED)).as("A approving B's").isFalse();
            assertThat(store.approvals(Duration.ofMinutes(1), "tenant_b_child").pending()).isEmpty();
            assertThat(tenantB.pending()).extracting(ApprovalRequest::id).containsExactly(request.id());
            assertThat(store.approvals(Duration.ofMinutes(1)).pending()).as("the operators' view of every queue")
                    .extracting(ApprovalRequest::id).contains(request.id());

            assertThat(tenantB.complete(request.id(), ApprovalDecision.DENIED)).isTrue();
            assertThat(decision.get(30, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.DENIED);
        } finally {
            waiter.shutdownNow();
        }
    }

    @Test
    void aNarrowedChildAsksInItsParentsQueue() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "a");
        SecurityContext parent = SecurityContext.builder().name("parent_tenant")
                .path(PathEntry.builder().path(dir).slug("ws").allow(Permission.READ, Permission.WRITE)
                        .requireApproval(Permission.WRITE).build())
                .approval(store.approvals(Duration.ofMinutes(1), "parent_tenant"))
                .build();
        SecurityContext child = parent.narrow("child_task").build();
        ApprovalStore parentQueue = store.approvals(Duration.ofMinutes(1), "parent_tenant");
        ExecutorService waiter = Executors.newSingleThreadExecutor();
        try {
            Future<?> write = waiter.submit(() -> child.guard(Operation.FILE_WRITE, "/ws/a.txt", "diff"));
            ApprovalRequest seen = SharedStoresTest.awaitValue(() -> parentQueue.pending().stream().findFirst()
                    .orElse(null));
            assertThat(seen.contextName()).isEqualTo("child_task");
            assertThat(store.approvals(Duration.ofMinutes(1), "child_task").pending()).isEmpty();
            assertThat(parentQueue.complete(seen.id(), ApprovalDecision.APPROVED)).isTrue();
            write.get(30, TimeUnit.SECONDS);
        } finally {
            waiter.shutdownNow();
        }
    }

    @Test
    void theCommandLineListsOnlyThePolicysContextUnlessSeveralPoliciesAreNamed() throws Exception {
        String url = PostgresServer.shared().createDatabase();
        Path policyA = policy("cli_tenant_a", url);
        Path policyB = policy("cli_tenant_b", url);
        ExecutorService instance = Executors.newSingleThreadExecutor();
        try {
            Future<Integer> write = instance.submit(() -> PolicyStoreCli.run(
                    List.of("guard", policyB.toString(), "write", "/ws/a.txt"), quiet()));
            String line = SharedStoresTest.awaitValue(() -> cli("pending", policyB).stream().findFirst()
                    .orElse(null));
            String id = line.split("\t")[0];
            assertThat(line.split("\t")[1]).isEqualTo("cli_tenant_b");

            assertThat(cli("pending", policyA)).as("tenant A's operator").isEmpty();
            assertThat(PolicyStoreCli.run(List.of("approve", policyA.toString(), id), quiet())).isEqualTo(1);
            assertThat(cli("pending", policyA, policyB)).as("both, asked for explicitly").containsExactly(line);

            assertThat(PolicyStoreCli.run(List.of("deny", policyB.toString(), id), quiet())).isZero();
            assertThat(write.get(60, TimeUnit.SECONDS)).isZero();
        } finally {
            instance.shutdownNow();
        }
    }

    private Path policy(String name, String url) throws Exception {
        Files.createDirectories(dir.resolve("workspace"));
        Files.writeString(dir.resolve("workspace/a.txt"), "a");
        Path policy = dir.resolve(name + ".yaml");
        Files.writeString(policy, """
                name: %s
                paths: [{path: workspace, slug: ws, allow: [READ, WRITE], require_approval: [WRITE]}]
                approval: {backend: store, timeout: PT2M}
                store: {url: %s, user: mero, password_env: MERO_TEST_DB_PASSWORD, migrate: true}
                """.formatted(name, url));
        return policy;
    }

    private static List<String> cli(String command, Path... policies) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> args = new java.util.ArrayList<>(List.of(command));
        for (Path policy : policies) {
            args.add(policy.toString());
        }
        PolicyStoreCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static PrintStream quiet() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
