package dev.mero.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.service.tool.ToolProvider;
import dev.mero.core.InvalidPolicyException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.approval.PendingApprovals;
import dev.mero.core.command.CommandSandbox;
import dev.mero.core.metrics.MeroMetrics;
import dev.mero.core.ops.MeroOperations;
import dev.mero.springai.MeroToolCallbacks;
import dev.mero.tools.MeroToolArgumentsErrorHandler;
import dev.mero.tools.MeroToolExecutionErrorHandler;
import dev.mero.tools.MeroToolProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClientCustomizer;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * The starter's conditions, one application context each (no server, no Spring Boot test context): nothing
 * without {@code mero.policy} and one INFO line, a broken policy stops the start with the loader's message, each
 * side only where its library is, metrics, health and the endpoint with real files and a real waiting approval.
 */
@ExtendWith(OutputCaptureExtension.class)
class StarterConditionsTest {

    private static final AutoConfigurations STARTER = AutoConfigurations.of(MeroAutoConfiguration.class,
            MeroMetricsAutoConfiguration.class, MeroSpringAiAutoConfiguration.class,
            MeroLangChain4jAutoConfiguration.class, MeroActuatorAutoConfiguration.class);

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(STARTER)
            .withPropertyValues("management.endpoints.web.exposure.include=mero");

    @TempDir
    Path dir;

    private Path policy(String yaml) throws IOException {
        Files.createDirectories(dir.resolve("workspace"));
        Files.writeString(dir.resolve("workspace/notes.md"), "Ship on Friday.\n");
        return Files.writeString(dir.resolve("policy.yaml"), yaml);
    }

    private Path readWritePolicy() throws IOException {
        return policy("""
                name: conditions
                paths:
                  - path: workspace
                    slug: ws
                    allow: [READ, WRITE]
                """);
    }

    @Test
    void withoutThePropertyNothingIsConfiguredAndOneInfoLineSaysSo(CapturedOutput output) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(SecurityContext.class).doesNotHaveBean(MeroOperations.class)
                    .doesNotHaveBean(ToolCallbackProvider.class).doesNotHaveBean(ToolProvider.class)
                    .doesNotHaveBean(MeroMetrics.class).doesNotHaveBean(MeroEndpoint.class)
                    .doesNotHaveBean(MeroHealthIndicator.class).doesNotHaveBean(ChatClientCustomizer.class);
        });
        String message = MeroAutoConfiguration.NoPolicyConfiguration.MESSAGE;
        String all = output.getAll();
        assertThat(all.indexOf(message)).as("logged").isNotNegative();
        assertThat(all.indexOf(message, all.indexOf(message) + 1)).as("logged once").isNegative();
        assertThat(all.lines().filter(line -> line.contains(message))).singleElement().asString().contains("INFO");
    }

    @Test
    void aBlankPropertyCountsAsUnset() {
        runner.withPropertyValues("mero.policy=  ").run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(SecurityContext.class));
    }

    @Test
    void aBrokenPolicyStopsTheStartWithTheLoadersMessage() throws IOException {
        Path file = policy("""
                paths:
                  - path: workspace
                    slug: ws
                    allow: [READ, FLY]
                """);
        runner.withPropertyValues("mero.policy=" + file).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            InvalidPolicyException cause = rootCause(failure, InvalidPolicyException.class);
            assertThat(cause.getMessage()).contains(file.toString()).contains("paths[0].allow[1]").contains("FLY");
            FailureAnalysis analysis = new MeroPolicyFailureAnalyzer().analyze(failure);
            assertThat(analysis.getDescription()).isEqualTo(cause.getMessage());
            assertThat(analysis.getAction()).contains("mero.policy");
        });
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation().load(FailureAnalyzer.class,
                null, (type, name, failure) -> { })) // others need the context's arguments: skipped
                .as("registered, so Spring Boot's start-up report shows the loader's message")
                .hasAtLeastOneElementOfType(MeroPolicyFailureAnalyzer.class);
    }

    @Test
    void aMissingFileOrClassPathResourceStopsTheStart() {
        runner.withPropertyValues("mero.policy=" + dir.resolve("nope.yaml")).run(context ->
                assertThat(rootCause(context.getStartupFailure(), InvalidPolicyException.class).getMessage())
                        .contains("nope.yaml"));
        runner.withPropertyValues("mero.policy=classpath:nope/policy.yaml").run(context ->
                assertThat(rootCause(context.getStartupFailure(), InvalidPolicyException.class).getMessage())
                        .contains("classpath:nope/policy.yaml").contains("no such resource"));
    }

    @Test
    void aClassPathPolicyResolvesItsRelativePathsNextToItself() {
        runner.withPropertyValues("mero.policy=classpath:starter-policy/policy.yaml").run(context -> {
            MeroOperations operations = context.getBean(MeroOperations.class);
            assertThat(operations.context().name()).isEqualTo("classpath_policy");
            assertThat(operations.call("read_file", "{\"path\":\"/ws/notes.md\"}")).contains("Ship on Friday.");
        });
    }

    @Test
    void eachSideIsConfiguredOnlyWhereItsLibraryIs() throws IOException {
        Path file = readWritePolicy();
        ApplicationContextRunner withPolicy = runner.withPropertyValues("mero.policy=" + file);
        withPolicy.run(context -> assertThat(context).hasSingleBean(MeroToolCallbacks.class)
                .hasSingleBean(ChatClientCustomizer.class).hasSingleBean(MeroToolProvider.class)
                .hasSingleBean(MeroToolExecutionErrorHandler.class).hasSingleBean(MeroToolArgumentsErrorHandler.class)
                .doesNotHaveBean(MeroMetrics.class));
        withPolicy.withClassLoader(new FilteredClassLoader(ToolCallbackProvider.class)).run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(MeroToolCallbacks.class)
                        .doesNotHaveBean(ChatClientCustomizer.class).hasSingleBean(MeroToolProvider.class));
        withPolicy.withClassLoader(new FilteredClassLoader(ToolProvider.class)).run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(MeroToolProvider.class)
                        .doesNotHaveBean(MeroToolExecutionErrorHandler.class).hasSingleBean(MeroToolCallbacks.class));
        withPolicy.withPropertyValues("mero.spring-ai.default-tools=false").run(context ->
                assertThat(context).hasSingleBean(MeroToolCallbacks.class).doesNotHaveBean(ChatClientCustomizer.class));
        withPolicy.withPropertyValues("mero.wrap-untrusted=false").run(context ->
                assertThat(context.getBean(MeroToolCallbacks.class).find("read_file").orElseThrow()
                        .call("{\"path\":\"/ws/notes.md\"}")).isEqualTo("Ship on Friday.\n"));
    }

    @Test
    void metricsCountDecisionsToolCallsApprovalsAndCommandRunsWithBoundedTags() throws IOException {
        Path file = policy("""
                name: metered
                paths:
                  - path: workspace
                    slug: ws
                    allow: [READ, WRITE, EXECUTE]
                    require_approval: [WRITE]
                commands:
                  allow: ["echo"]
                approval:
                  backend: deny
                """);
        runner.withPropertyValues("mero.policy=" + file).withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> {
                    MeroOperations operations = context.getBean(MeroOperations.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(operations.metrics()).isSameAs(context.getBean(MeroMetrics.class));
                    operations.respond("read_file", "{\"path\":\"/ws/notes.md\"}");
                    operations.respond("read_file", "{\"path\":\"/ws/../../etc/passwd\"}");
                    operations.respond("write_file", "{\"path\":\"/ws/new.txt\",\"content\":\"x\"}");
                    operations.respond("no_such_tool", "{}");
                    operations.respond("run_command", "{\"command\":\"echo hi\"}");

                    assertThat(calls(registry, "read_file", "success")).isEqualTo(1);
                    assertThat(calls(registry, "read_file", "denied")).isEqualTo(1);
                    assertThat(calls(registry, "write_file", "denied")).isEqualTo(1);
                    assertThat(calls(registry, "unknown", "failed")).isEqualTo(1);
                    assertThat(registry.find("mero.tool.calls").tag("tool", "no_such_tool").meters()).isEmpty();
                    assertThat(count(registry, "mero.decisions", "permission", "read", "outcome", "allowed"))
                            .isEqualTo(1);
                    assertThat(count(registry, "mero.decisions", "permission", "read", "outcome", "denied"))
                            .isEqualTo(1);
                    assertThat(count(registry, "mero.decisions", "permission", "write", "outcome", "denied"))
                            .isEqualTo(1);
                    assertThat(count(registry, "mero.approvals", "outcome", "requested")).isEqualTo(1);
                    assertThat(count(registry, "mero.approvals", "outcome", "refused")).isEqualTo(1);
                    assertThat(dir.resolve("workspace/new.txt")).doesNotExist();
                    assertThat(count(registry, "mero.sandbox.runs", "exit", "0")).isEqualTo(1);
                    assertThat(calls(registry, "run_command", "success")).isEqualTo(1);
                });
        runner.withPropertyValues("mero.policy=" + file, "mero.metrics.enabled=false")
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(MeroMetrics.class);
                    context.getBean(MeroOperations.class).respond("read_file", "{\"path\":\"/ws/notes.md\"}");
                    assertThat(context.getBean(MeterRegistry.class).find("mero.tool.calls").meters()).isEmpty();
                });
    }

    @Test
    void theEndpointListsAWaitingApprovalWithoutItsContent() throws Exception {
        Path workspace = Files.createDirectories(dir.resolve("ws"));
        CountDownLatch asked = new CountDownLatch(1);
        PendingApprovals approvals = PendingApprovals.builder().listener(request -> asked.countDown()).build();
        SecurityContext securityContext = SecurityContext.builder().name("inbox")
                .path(PathEntry.builder().path(workspace).slug("ws").allow(Permission.READ, Permission.WRITE)
                        .requireApproval(Permission.WRITE).build())
                .approval(approvals).build();
        runner.withPropertyValues("mero.policy=unused-a-bean-is-given.yaml")
                .withBean(SecurityContext.class, () -> securityContext).run(context -> {
                    MeroOperations operations = context.getBean(MeroOperations.class);
                    CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> operations.respond(
                            "write_file", "{\"path\":\"/ws/plan.txt\",\"content\":\"launch codes 1234\"}").text());
                    assertThat(asked.await(30, TimeUnit.SECONDS)).isTrue();

                    Map<String, Object> report = context.getBean(MeroEndpoint.class).report();
                    @SuppressWarnings("unchecked")
                    Map<String, Object> listed = (Map<String, Object>) report.get("approvals");
                    assertThat(listed).containsEntry("count", 1);
                    ApprovalRequest waiting = approvals.pending().get(0);
                    assertThat(listed.get("pending")).asList().singleElement().satisfies(item -> {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> entry = (Map<String, Object>) item;
                        assertThat(entry).containsEntry("id", waiting.id()).containsEntry("context", "inbox")
                                .containsEntry("path", "/ws/plan.txt").containsKey("ageSeconds")
                                .containsEntry("permissions", Set.of("WRITE"));
                    });
                    assertThat(report.toString()).doesNotContain("launch codes").doesNotContain(workspace.toString());
                    Health health = context.getBean(MeroHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("approvalStore", "reachable")
                            .containsEntry("pendingApprovals", 1);

                    assertThat(approvals.complete(waiting.id(), ApprovalDecision.DENIED)).isTrue();
                    assertThat(call.get(30, TimeUnit.SECONDS)).startsWith("Denied:");
                    assertThat(workspace.resolve("plan.txt")).doesNotExist();
                });
    }

    @Test
    void healthIsDownWhenTheSandboxCannotRunOrTheStoreCannotBeReached() throws IOException {
        Path file = policy("""
                name: no_sandbox
                paths:
                  - path: workspace
                    slug: ws
                    allow: [READ, EXECUTE]
                commands:
                  allow: ["echo"]
                  sandbox:
                    bubblewrap: /nonexistent/bwrap
                """);
        runner.withPropertyValues("mero.policy=" + file).run(context -> {
            Health health = context.getBean(MeroHealthIndicator.class).health(true);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("sandbox", "unavailable");
            assertThat(context.getBean(MeroEndpoint.class).report()).containsEntry("sandbox", "unavailable");
        });

        Path workspace = Files.createDirectories(dir.resolve("other"));
        SecurityContext unreachable = SecurityContext.builder().name("down")
                .path(PathEntry.of(workspace, "ws", Permission.READ)).allowCommand("echo")
                .commandSandbox(CommandSandbox.builder().enabled(false).build())
                .approval(new UnreachableStore()).build();
        runner.withPropertyValues("mero.policy=unused.yaml").withBean(SecurityContext.class, () -> unreachable)
                .run(context -> {
                    Health health = context.getBean(MeroHealthIndicator.class).health(true);
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.getDetails()).containsEntry("sandbox", "disabled")
                            .containsEntry("approvalStore", "unreachable: IllegalStateException");
                    assertThat(context.getBean(MeroEndpoint.class).report().get("approvals").toString())
                            .contains("cannot be read").doesNotContain("db.internal");
                });
    }

    @Test
    void theHealthIndicatorFollowsSpringBootsSwitch() throws IOException {
        Path file = readWritePolicy();
        runner.withPropertyValues("mero.policy=" + file, "management.health.mero.enabled=false").run(context ->
                assertThat(context).doesNotHaveBean(MeroHealthIndicator.class).hasSingleBean(MeroEndpoint.class));
    }

    private static long calls(MeterRegistry registry, String tool, String outcome) {
        return registry.get("mero.tool.calls").tags("tool", tool, "outcome", outcome).timer().count();
    }

    private static double count(MeterRegistry registry, String name, String... tags) {
        return registry.get(name).tags(tags).counter().count();
    }

    /** A store whose storage is down: every read fails, as a database store's does. */
    private static final class UnreachableStore implements ApprovalStore {
        @Override
        public ApprovalDecision decide(ApprovalRequest request) {
            throw new IllegalStateException("connection refused: db.internal:5432");
        }

        @Override
        public List<ApprovalRequest> pending() {
            throw new IllegalStateException("connection refused: db.internal:5432");
        }

        @Override
        public Optional<ApprovalRequest> pending(String id) {
            throw new IllegalStateException("connection refused: db.internal:5432");
        }

        @Override
        public boolean complete(String id, ApprovalDecision decision) {
            throw new IllegalStateException("connection refused: db.internal:5432");
        }
    }

    private static <T extends Throwable> T rootCause(Throwable failure, Class<T> type) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return type.cast(cause);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + failure);
    }
}
