package dev.mero.core.policy;

import dev.mero.core.ApprovalDeniedException;
import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidPolicyException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.PermissionDeniedException;
import dev.mero.core.ScopeDeniedException;
import dev.mero.core.SecurityContext;
import dev.mero.core.guard.Operation;

import static dev.mero.core.Permission.DELETE;
import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.approval.ApprovalDecision;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SecurityPolicyTest {

    @TempDir
    Path tmp;

    Path dir;

    @BeforeEach
    void setUp() throws IOException {
        dir = tmp.toRealPath();
        Files.createDirectories(dir.resolve("workspace"));
        Files.createDirectories(dir.resolve("docs"));
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    @Test
    void theShippedExamplePolicyLoads() throws IOException {
        Path file = dir.resolve("mero-policy.yaml");
        try (InputStream in = SecurityPolicyTest.class.getResourceAsStream("/dev/mero/core/example-policy.yaml")) {
            Files.copy(in, file);
        }

        SecurityContext context = SecurityPolicy.load(file);

        assertThat(context.name()).isEqualTo("worker_1");
        assertThat(context.permissions()).containsExactly(READ, WRITE, EXECUTE);
        assertThat(context.paths()).extracting(PathEntry::slug).containsExactly("ws", "docs");
        PathEntry ws = context.paths().get(0);
        assertThat(ws.realPath()).isEqualTo(dir.resolve("workspace"));
        assertThat(ws.allowed()).containsExactly(READ, WRITE, EXECUTE);
        assertThat(ws.denied()).containsExactly(DELETE);
        assertThat(context.paths().get(1).approvalRequired()).containsExactly(WRITE);
        assertThat(context.approvalRequired()).containsExactly(WRITE);
        assertThat(context.approval()).hasValueSatisfying(backend ->
                assertThat(decide(backend)).isEqualTo(ApprovalDecision.DENIED));
        assertThat(context.commandSandbox()).isEqualTo(dev.mero.core.command.CommandSandbox.required());
        assertThat(context.scopes().isRestricted()).isTrue();
        assertThat(context.rateLimiter()).hasValueSatisfying(l -> assertThat(l.limit().permits()).isEqualTo(120));
        assertThat(context.retryBudget()).isPresent();
        assertThat(context.auditLog().sinkCount()).isEqualTo(1);

        // the policy is in force: a write needs approval, which the 'deny' backend refuses
        assertThat(context.guard(Operation.FILE_READ, "/ws").virtualPath()).isEqualTo("/ws");
        assertThatThrownBy(() -> context.guard(Operation.FILE_WRITE, "notes.txt"))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: /ws/notes.txt' was not approved for context 'worker_1'.");
        assertThatThrownBy(() -> context.guard(Operation.FILE_DELETE, "notes.txt"))
                .isInstanceOf(ScopeDeniedException.class);
        assertThat(dir.resolve("mero-audit.jsonl")).isNotEmptyFile();
        assertThat(context.checkCommand("git status --short").argv()).containsExactly("git", "status", "--short");
        assertThatThrownBy(() -> context.checkCommand("git push"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'git push' is blocked by denied-command rule 'git push' in context 'worker_1'.");
    }

    private static ApprovalDecision decide(dev.mero.core.approval.ApprovalBackend backend) {
        try {
            return backend.decide(dev.mero.core.approval.ApprovalRequest.builder().contextName("c")
                    .permissions(WRITE).action("WRITE: /ws/x").build());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void jsonPoliciesReadTheSameWay() throws IOException {
        Path file = write("policy.json", """
                {"name": "json", "permissions": ["READ"],
                 "paths": [{"path": "workspace", "slug": "ws", "allow": ["READ", "WRITE"]}]}
                """);

        SecurityContext context = SecurityPolicy.load(file);

        assertThat(context.name()).isEqualTo("json");
        assertThatThrownBy(() -> context.checkPathAccess("x", WRITE))
                .isInstanceOf(PermissionDeniedException.class)
                .hasMessage("Context 'json' lacks permission(s) ['WRITE'] (has: ['READ']).");
    }

    @Test
    void aMinimalPolicyIsDenyByDefault() throws IOException {
        SecurityContext context = SecurityPolicy.load(write("p.yaml", "name: bare\n"));

        assertThat(context.paths()).isEmpty();
        assertThatThrownBy(() -> context.checkPath("x")).isInstanceOf(PathAccessDeniedException.class);
        assertThat(context.scopes().isRestricted()).isFalse();
    }

    @Test
    void readReturnsABuilderTheApplicationCanExtend() throws IOException {
        Path file = write("p.yaml", """
                paths: [{path: workspace, slug: ws, allow: [READ, WRITE]}]
                approval: {require: [WRITE]}
                """);

        SecurityContext context = SecurityPolicy.read(file).approval(request -> ApprovalDecision.APPROVED).build();

        assertThat(context.guard(Operation.FILE_WRITE, "a.txt").virtualPath()).isEqualTo("/ws/a.txt");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "unknown top-level key   | colour: red                                      | colour | unknown key 'colour'",
        "bad permission          | 'paths: [{path: workspace, slug: ws, allow: [READ, RAED]}]' | paths[0].allow[1] | 'RAED' is not a permission",
        "permissions not a list  | 'permissions: READ'                               | permissions | expected a list, got 'READ'",
        "missing directory       | 'paths: [{path: nowhere, slug: ws}]'              | paths[0] | does not exist or is not a directory",
        "bad slug                | 'paths: [{path: workspace, slug: WS}]'            | paths[0] | Invalid slug 'WS'",
        "missing slug            | 'paths: [{path: workspace}]'                      | paths[0].slug | needs a 'slug'",
        "unknown entry key       | 'paths: [{path: workspace, slug: ws, alow: [READ]}]' | paths[0].alow | unknown key 'alow'",
        "malformed scope         | 'scopes: [\"files:fi*:read\"]'                    | scopes | files:fi*:read",
        "unknown backend         | 'approval: {backend: yes-please}'                 | approval.backend | 'yes-please' is not an approval backend",
        "bad duration            | 'limits: {retry_budget: {window: 10 minutes}}'    | limits.retry_budget.window | ISO-8601 duration",
        "rate without period     | 'limits: {rate: {permits: 5}}'                    | limits.rate | needs 'permits' and 'per'",
        "negative permits        | 'limits: {rate: {permits: -5, per: PT1M}}'        | limits.rate.permits | whole number from 1",
        "wrong name type         | 'name: [a, b]'                                    | name | expected a string, got a list",
        "shell in a command rule | 'commands: {allow: [\"ls; rm -rf /\"]}'         | commands.allow[0] | ls; rm -rf /",
        "relative search path    | 'commands: {search_path: bin}'                   | commands.search_path | bin",
        "timeout without console | 'approval: {backend: deny, timeout: PT1M}'       | approval.timeout | console or store only",
    })
    void aBrokenPolicyFailsNamingFileFieldAndValue(String why, String yaml, String field, String problem)
            throws IOException {
        Path file = write("broken.yaml", yaml + "\n");

        assertThatThrownBy(() -> SecurityPolicy.load(file))
                .as(why)
                .isInstanceOfSatisfying(InvalidPolicyException.class, e -> {
                    assertThat(e.file()).isEqualTo(file);
                    assertThat(e.field()).isEqualTo(field);
                })
                .hasMessageStartingWith("Policy file '" + file + "', field '" + field + "': ")
                .hasMessageContaining(problem);
    }

    @Test
    void theSeedsSpellingsAndLowerCasePermissionsAreAccepted() throws IOException {
        Path file = write("seed.yaml", """
                name: seed
                paths:
                  - {path: workspace, slug: ws, allowed_permissions: [read, write], denied_permissions: [write]}
                allowed_commands: ["ls"]
                denied_commands: ["ls -R"]
                require_approval: [EXECUTE]
                """);

        SecurityContext context = SecurityPolicy.load(file);

        assertThat(context.paths().get(0).allowed()).containsExactly(READ, WRITE);
        assertThat(context.paths().get(0).denied()).containsExactly(WRITE);
        assertThat(context.commandPolicy().allowRules()).extracting(r -> r.text()).containsExactly("ls");
        assertThat(context.commandPolicy().denyRules()).extracting(r -> r.text()).containsExactly("ls -R");
        assertThat(context.approvalRequired()).containsExactly(EXECUTE);
    }

    @Test
    void twoSpellingsOfOneSettingAreRefused() throws IOException {
        Path file = write("p.yaml", "paths: [{path: workspace, slug: ws, allow: [READ], allowed: [WRITE]}]\n");

        assertThatThrownBy(() -> SecurityPolicy.load(file))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("Policy file '" + file + "', field 'paths[0].allowed': sets the same thing as 'allow'; "
                        + "keep one of them");
    }

    @Test
    void duplicateKeysAreRefusedRatherThanSilentlyOverridden() throws IOException {
        Path file = write("dup.yaml", "permissions: [READ]\npermissions: [READ, WRITE, EXECUTE, DELETE]\n");

        assertThatThrownBy(() -> SecurityPolicy.load(file))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("is not valid YAML")
                .hasMessageContaining("Duplicate field 'permissions'");
    }

    @Test
    void duplicateSlugsAreRefused() throws IOException {
        Path file = write("p.yaml", "paths: [{path: workspace, slug: ws}, {path: docs, slug: ws}]\n");

        assertThatThrownBy(() -> SecurityPolicy.load(file))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("Policy file '" + file + "': Duplicate slug 'ws' in context 'default': every PathEntry "
                        + "needs its own slug");
    }

    @Test
    void unreadableEmptyOrMisnamedFilesAreRefused() throws IOException {
        assertThatThrownBy(() -> SecurityPolicy.load(dir.resolve("missing.yaml")))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("cannot be read");
        assertThatThrownBy(() -> SecurityPolicy.load(write("empty.yaml", "")))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("the file is empty");
        assertThatThrownBy(() -> SecurityPolicy.load(write("p.txt", "name: x")))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("unknown format");
        assertThatThrownBy(() -> SecurityPolicy.load(write("bad.yaml", "paths: [unclosed")))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("is not valid YAML");
        assertThatThrownBy(() -> SecurityPolicy.load(write("bad.json", "{\"name\": ")))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("is not valid JSON");
        assertThatThrownBy(() -> SecurityPolicy.load(write("list.yaml", "- a\n- b\n")))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("expected a mapping");
    }
}
