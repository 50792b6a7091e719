package dev.mero.postgres;

import dev.mero.core.SecurityContext;
import dev.mero.core.policy.SecurityPolicy;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ApprovalStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two JVMs, each loading the same policy file whose {@code store:} section names one database (the
 * password from an environment variable): they share one rate limit exactly, and an approval requested in
 * one is given in the other.
 */
class CrossProcessTest {

    private final List<Process> children = new ArrayList<>();
    private final ExecutorService readers = Executors.newCachedThreadPool();

    @TempDir
    Path dir;

    private Path policy;

    @BeforeEach
    void policyFile() throws Exception {
        Path workspace = Files.createDirectories(dir.resolve("workspace"));
        Files.writeString(workspace.resolve("a.txt"), "a");
        Files.writeString(workspace.resolve("plan.md"), "plan");
        String url = PostgresServer.shared().createDatabase();
        policy = dir.resolve("policy.yaml");
        Files.writeString(policy, """
                name: cross_jvm
                paths:
                  - path: workspace
                    slug: ws
                    allow: [READ, WRITE]
                    require_approval: [WRITE]
                approval:
                  backend: store
                  timeout: PT2M
                limits:
                  rate: {permits: 30, per: PT1H}
                store:
                  url: %s
                  user: %s
                  password_env: MERO_DB_PASSWORD
                  migrate: true
                """.formatted(url, PostgresServer.USER));
    }

    @AfterEach
    void stopChildren() {
        children.forEach(Process::destroyForcibly);
        readers.shutdownNow();
    }

    @Test
    void twoJvmsShareOneRateLimitExactly() throws Exception {
        Process child = start("rate", "40");
        BufferedReader out = reader(child);
        assertThat(line(out)).isEqualTo("READY");
        SecurityContext here = load();

        try (Writer go = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8)) {
            go.write("GO\n");
        }
        int allowedHere = InstanceMain.race(here, 40);
        String there = line(out);

        assertThat(there).startsWith("allowed=");
        assertThat(allowedHere + Integer.parseInt(there.substring("allowed=".length()))).isEqualTo(30);
    }

    @Test
    void anApprovalRequestedInOneJvmIsGivenInTheOther() throws Exception {
        SecurityContext here = load();
        ApprovalStore approvals = (ApprovalStore) here.approval().orElseThrow();
        Process child = start("approve");
        BufferedReader out = reader(child);

        ApprovalRequest request = SharedStoresTest.awaitValue(() -> approvals.pending().stream()
                .filter(pending -> pending.contextName().equals("cross_jvm")).findFirst().orElse(null));
        assertThat(request.action()).isEqualTo("WRITE: /ws/plan.md");
        assertThat(approvals.complete(request.id(), ApprovalDecision.APPROVED)).isTrue();

        assertThat(line(out)).isEqualTo("APPROVED");
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(child.exitValue()).isZero();
    }

    private SecurityContext load() {
        return SecurityPolicy.load(policy, name -> name.equals("MERO_DB_PASSWORD") ? PostgresServer.PASSWORD : null);
    }

    private Process start(String... mode) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=error", InstanceMain.class.getName(), policy.toString()));
        command.addAll(List.of(mode));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(dir.resolve("child.err").toFile());
        builder.environment().put("MERO_DB_PASSWORD", PostgresServer.PASSWORD);
        Process child = builder.start();
        children.add(child);
        return child;
    }

    private static BufferedReader reader(Process child) {
        return new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
    }

    /** The child's next line, waiting at most two minutes (it starts a JVM and a pool). */
    private String line(BufferedReader out) throws Exception {
        Future<String> next = readers.submit(out::readLine);
        String line = next.get(120, TimeUnit.SECONDS);
        if (line == null) {
            throw new AssertionError("the child exited early: " + Files.readString(dir.resolve("child.err")));
        }
        return line;
    }
}
