package dev.mero.postgres;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line: a guarded action under the shared limit, and an approval listed and given by id. */
class PolicyStoreCliTest {

    @TempDir
    Path dir;

    private Path policy() throws Exception {
        Files.createDirectories(dir.resolve("workspace"));
        Files.writeString(dir.resolve("workspace/a.txt"), "a");
        Path policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                name: cli_agent
                paths: [{path: workspace, slug: ws, allow: [READ, WRITE], require_approval: [WRITE]}]
                approval: {backend: store, timeout: PT2M}
                limits: {rate: {permits: 3, per: PT1H}}
                store: {url: %s, user: mero, password_env: MERO_TEST_DB_PASSWORD, migrate: true}
                """.formatted(PostgresServer.shared().createDatabase()));
        return policy;
    }

    @Test
    void guardPrintsEachDecisionUnderTheSharedLimit() throws Exception {
        Path policy = policy();
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        int status = PolicyStoreCli.run(List.of("guard", policy.toString(), "read", "/ws/a.txt", "4"),
                new PrintStream(out, true, StandardCharsets.UTF_8));

        assertThat(status).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).lines().toList()).containsExactly("allowed", "allowed",
                "allowed", "Denied: Context 'cli_agent' exceeded its rate limit of 3 calls per hour. Wait 1200 "
                        + "second(s) before calling again; calls made sooner are refused the same way.",
                "allowed 3 of 4");
    }

    @Test
    void anOperatorListsAndApprovesAWaitingRequest() throws Exception {
        Path policy = policy();
        ExecutorService instance = Executors.newSingleThreadExecutor();
        try {
            ByteArrayOutputStream waiting = new ByteArrayOutputStream();
            Future<Integer> write = instance.submit(() -> PolicyStoreCli.run(
                    List.of("guard", policy.toString(), "write", "/ws/a.txt"),
                    new PrintStream(waiting, true, StandardCharsets.UTF_8)));
            String line = SharedStoresTest.awaitValue(() -> {
                ByteArrayOutputStream listed = new ByteArrayOutputStream();
                PolicyStoreCli.run(List.of("pending", policy.toString()), new PrintStream(listed, true,
                        StandardCharsets.UTF_8));
                return listed.toString(StandardCharsets.UTF_8).lines().findFirst().orElse(null);
            });
            String[] fields = line.split("\t");
            assertThat(fields[1]).isEqualTo("cli_agent");
            assertThat(fields[2]).isEqualTo("WRITE: /ws/a.txt");

            ByteArrayOutputStream approved = new ByteArrayOutputStream();
            assertThat(PolicyStoreCli.run(List.of("approve", policy.toString(), fields[0]),
                    new PrintStream(approved, true, StandardCharsets.UTF_8))).isZero();
            assertThat(write.get(60, TimeUnit.SECONDS)).isZero();
            assertThat(waiting.toString(StandardCharsets.UTF_8)).startsWith("allowed\n");

            ByteArrayOutputStream again = new ByteArrayOutputStream();
            assertThat(PolicyStoreCli.run(List.of("deny", policy.toString(), fields[0]),
                    new PrintStream(again, true, StandardCharsets.UTF_8))).isEqualTo(1);
            assertThat(again.toString(StandardCharsets.UTF_8)).startsWith("not pending");
        } finally {
            instance.shutdownNow();
        }
    }

    @Test
    void aWrongCommandPrintsTheUsage() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(PolicyStoreCli.run(List.of("guard"), new PrintStream(out, true, StandardCharsets.UTF_8)))
                .isEqualTo(2);
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("usage: guard <policy>");
    }
}
