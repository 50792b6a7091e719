package dev.mero.core.store;

import dev.mero.core.InvalidPolicyException;
import dev.mero.core.guard.Operation;
import dev.mero.core.SecurityContext;
import dev.mero.core.policy.SecurityPolicy;
import dev.mero.core.approval.PendingApprovals;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.limit.CallKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A policy file's {@code store:} section: read strictly, password from the environment, wired everywhere. */
class PolicyStoreSectionTest {

    @TempDir
    Path dir;

    private Path policy(String yaml) throws Exception {
        Files.createDirectories(dir.resolve("ws"));
        Files.writeString(dir.resolve("ws/a.txt"), "a");
        Path file = dir.resolve("policy.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    @Test
    void aStoreSharesTheLimitsTheApprovalsTheReplaysAndTheAudit() throws Exception {
        Path file = policy("""
                name: worker_1
                paths: [{path: ws, slug: ws, allow: [READ, WRITE]}]
                approval: {require: [WRITE], backend: store, timeout: PT3M}
                limits:
                  rate: {permits: 60, per: PT1M}
                  retry_budget: {max_failures: 2}
                store:
                  url: jdbc:test:wired
                  user: mero
                  password_env: MERO_TEST_PASSWORD
                  migrate: true
                  timeout: PT2S
                """);
        SecurityContext context = SecurityPolicy.load(file, Map.of("MERO_TEST_PASSWORD", "s3cret")::get);
        TestPolicyStoreProvider.TestStore store = TestPolicyStoreProvider.OPENED.get("jdbc:test:wired");

        assertThat(store.settings.user()).contains("mero");
        assertThat(store.settings.password()).contains("s3cret");
        assertThat(store.settings.migrate()).isTrue();
        assertThat(store.settings.timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(store.settings.toString()).doesNotContain("s3cret");

        context.guard(Operation.FILE_READ, "/ws/a.txt");
        assertThat(store.buckets).containsExactly("worker_1");
        assertThat(store.events).extracting(event -> event.type()).containsExactly(AuditEventType.ALLOWED);

        context.retryBudget().orElseThrow().recordFailure(CallKey.of("read_file", "{}"));
        // the guard consults the shared budget itself (one look-up), and a failure is counted there too
        assertThat(store.budgetScopes).containsExactly("worker_1", "worker_1");
        assertThat(store.failures).containsValue(1);
        assertThat(context.replayStore()).containsSame(store.replays);
        assertThat(context.approval().orElseThrow()).isInstanceOf(PendingApprovals.class);
        assertThat(store.approvalTimeout).isEqualTo(Duration.ofMinutes(3));
        assertThat(store.approvalQueue).as("the context's own approval queue").isEqualTo("worker_1");
        // a narrowed child shares the store: its own limit is a bucket of its own, keyed by its lineage (so a child
        // of the same name under another parent has another bucket), and the parent's bucket still applies
        SecurityContext child = context.narrow("worker_1_child").rateLimit(
                dev.mero.core.limit.RateLimit.perMinute(10)).build();
        child.guard(Operation.FILE_READ, "/ws/a.txt");
        assertThat(store.buckets).containsExactly("worker_1", "worker_1/worker_1_child", "worker_1");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "'url: \"jdbc:test:x?password=hunter2\"'   | store.url          | must not carry a password",
            "'url: \"jdbc:test://mero:pw@db/agents\"'    | store.url          | must not carry a password",
            "'url: jdbc:test:x, password: hunter2'       | store.password     | unknown key",
            "'user: mero'                                | store.url          | needs a 'url'",
            "'url: jdbc:test:x, password_env: UNSET_VAR' | store.password_env | 'UNSET_VAR' is not set",
            "'url: jdbc:test:x, password_env: \"A-B\"'   | store.password_env | not an environment variable name",
            "'url: jdbc:test:x, migrate: \"yes\"'        | store.migrate      | expected true or false",
            "'url: jdbc:test:x, timeout: PT11M'          | store.timeout      | between 1 ms and 10 minutes",
            "'url: \"jdbc:mysql://db/agents\"'           | store.url          | no policy store provider",
            "'url: jdbc:test:refused'                    | store              | refuses the settings",
            "'url: jdbc:test:old-schema'                 | store              | needs version 1",
    })
    void aBrokenStoreSectionIsRefusedNamingTheField(String section, String field, String problem) throws Exception {
        Path file = policy("name: w\nstore: {" + section + "}\n");

        assertThatThrownBy(() -> SecurityPolicy.load(file, name -> null))
                .isInstanceOfSatisfying(InvalidPolicyException.class, e -> {
                    assertThat(e.field()).isEqualTo(field);
                    assertThat(e.getMessage()).contains(problem).doesNotContain("hunter2");
                });
    }

    @Test
    void theStoreApprovalBackendNeedsAStore() throws Exception {
        Path file = policy("name: w\napproval: {backend: store}\n");

        assertThatThrownBy(() -> SecurityPolicy.load(file))
                .isInstanceOfSatisfying(InvalidPolicyException.class,
                        e -> assertThat(e.field()).isEqualTo("approval.backend"));
    }
}
