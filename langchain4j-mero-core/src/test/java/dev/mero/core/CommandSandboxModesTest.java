package dev.mero.core;

import dev.mero.core.policy.SecurityPolicy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import dev.mero.core.command.CommandResult;
import dev.mero.core.command.CommandSandbox;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/**
 * The sandbox's modes: required by default (refused, with what to install, where {@code bwrap} is missing or
 * cannot create its namespaces; nothing runs), an explicit opt-out that warns once per context, and the same
 * settings read from a policy file and inherited by a narrowed child.
 */
class CommandSandboxModesTest {

    @TempDir
    Path tmp;

    private Path ws;

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectories(tmp.toRealPath().resolve("ws"));
    }

    private SecurityContext.Builder context() {
        return SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.EXECUTE))
                .allowCommand("touch")
                .allowCommand("pwd");
    }

    @Test
    void the_sandbox_is_required_by_default() {
        SecurityContext context = context().build();

        assertThat(context.commandSandbox()).isEqualTo(CommandSandbox.required());
        assertThat(context.commandSandbox().enabled()).isTrue();
        assertThat(context.commandSandbox().network()).isFalse();
        assertThat(context.commandSandbox().bubblewrap()).isEqualTo(Path.of("/usr/bin/bwrap"));
        assertThat(context.runCommand("pwd", "/ws").stdout()).isEqualTo("/ws\n");
    }

    @Test
    void a_missing_bwrap_refuses_every_command_saying_so_without_operator_advice_and_runs_nothing() {
        Path missing = tmp.resolve("no-such-dir/bwrap");
        SecurityContext context = context()
                .commandSandbox(CommandSandbox.builder().bubblewrap(missing).build())
                .build();

        assertThatThrownBy(() -> context.runCommand("touch made.txt", "/ws"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageStartingWith("Command 'touch made.txt' was not run")
                .hasMessageContaining("bubblewrap ('bwrap') is not installed")
                .hasMessageContaining("use the file tools instead")
                // how to install or opt out is for the operator (log, audit detail), not for the model
                .hasMessageNotContaining("apt-get")
                .hasMessageNotContaining("commands.sandbox.enabled")
                .hasMessageNotContaining("CommandSandbox.disabled()")
                .hasMessageNotContaining(tmp.toString());
        assertThat(ws.resolve("made.txt")).doesNotExist();
    }

    @Test
    void a_command_that_cannot_run_is_denied_before_approval_is_asked_and_audited_as_denied() {
        List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<dev.mero.core.audit.AuditEvent> audited = new java.util.concurrent.CopyOnWriteArrayList<>();
        SecurityContext context = context()
                .commandSandbox(CommandSandbox.builder().bubblewrap(tmp.resolve("missing/bwrap")).build())
                .requireApproval(Permission.EXECUTE)
                .approval(request -> {
                    asked.add(request.toString());
                    return dev.mero.core.approval.ApprovalDecision.APPROVED;
                })
                .auditLog(dev.mero.core.audit.AuditLog.builder().sink(audited::add).build())
                .build();

        assertThatThrownBy(() -> context.guardCommand("touch made.txt", "/ws"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("not installed");

        assertThat(asked).isEmpty();
        assertThat(audited).extracting(dev.mero.core.audit.AuditEvent::type)
                .containsExactly(dev.mero.core.audit.AuditEventType.DENIED);
        // the model is told that commands cannot run; the operator's audit log names the missing executable
        assertThat(audited.get(0).reason()).hasValueSatisfying(reason -> assertThat(reason)
                .doesNotContain(tmp.toString()));
        assertThat(audited.get(0).detail()).hasValueSatisfying(detail -> assertThat(detail)
                .contains(tmp.resolve("missing/bwrap").toString())
                .contains("Install the Debian package 'bubblewrap'")
                .contains("CommandSandbox.disabled()"));
        assertThat(context.commandSandbox().available()).isFalse();
        assertThat(CommandSandbox.disabled().available()).isTrue();
        assertThat(CommandSandbox.required().available()).isTrue();
    }

    @Test
    void the_probe_runs_once_per_bwrap_executable() throws IOException {
        Path count = tmp.resolve("count");
        Path broken = Files.writeString(tmp.resolve("counting-bwrap"),
                "#!/bin/sh\necho probe >> " + count + "\nexit 1\n");
        Files.setPosixFilePermissions(broken, PosixFilePermissions.fromString("rwx------"));
        SecurityContext context = context().commandSandbox(CommandSandbox.builder().bubblewrap(broken).build())
                .build();

        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> context.runCommand("pwd", "/ws")).isInstanceOf(CommandDeniedException.class);
        }

        assertThat(Files.readAllLines(count)).containsExactly("probe");
    }

    @Test
    void a_bwrap_that_cannot_create_its_namespaces_refuses_the_same_way() throws IOException {
        Path broken = Files.writeString(tmp.resolve("bwrap"),
                "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n");
        Files.setPosixFilePermissions(broken, PosixFilePermissions.fromString("rwx------"));
        SecurityContext context = context()
                .commandSandbox(CommandSandbox.builder().bubblewrap(broken).build())
                .build();

        assertThatThrownBy(() -> context.runCommand("touch made.txt", "/ws"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("was not run")
                .hasMessageContaining("is installed but cannot create its namespaces")
                .hasMessageNotContaining("install the")
                .hasMessageNotContaining("apt-get")
                .hasMessageNotContaining("CommandSandbox.disabled()")
                .hasMessageNotContaining(tmp.toString());
        assertThat(ws.resolve("made.txt")).doesNotExist();
    }

    @Test
    void an_installed_bwrap_whose_namespaces_fail_is_not_called_missing_in_the_operator_advice() throws IOException {
        Path broken = Files.writeString(tmp.resolve("no-userns-bwrap"),
                "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n");
        Files.setPosixFilePermissions(broken, PosixFilePermissions.fromString("rwx------"));
        List<dev.mero.core.audit.AuditEvent> audited = new java.util.concurrent.CopyOnWriteArrayList<>();
        SecurityContext context = context()
                .commandSandbox(CommandSandbox.builder().bubblewrap(broken).build())
                .auditLog(dev.mero.core.audit.AuditLog.builder().sink(audited::add).build())
                .build();

        assertThatThrownBy(() -> context.guardCommand("pwd", "/ws")).isInstanceOf(CommandDeniedException.class);

        assertThat(audited.get(0).detail()).hasValueSatisfying(detail -> assertThat(detail)
                .contains("setting up uid map: Permission denied")
                .contains("user namespaces")
                .contains("commands.sandbox.enabled: false")
                .doesNotContain("Install the Debian package")
                .doesNotContain("apt-get"));
    }

    @Test
    void run_command_is_offered_only_where_the_sandbox_can_run() {
        SecurityContext broken = context()
                .commandSandbox(CommandSandbox.builder().bubblewrap(tmp.resolve("absent/bwrap")).build())
                .build();
        SecurityContext working = context().build();
        SecurityContext optedOut = context().commandSandbox(CommandSandbox.disabled()).build();

        assertThat(toolNames(broken)).doesNotContain("run_command").contains("read_file", "list_roots");
        assertThat(toolNames(working)).contains("run_command");
        assertThat(toolNames(optedOut)).contains("run_command");
        // called anyway, it is refused with the short text for the model
        assertThatThrownBy(() -> dev.mero.core.ops.MeroOperations.forContext(broken)
                .call("run_command", "{\"command\": \"pwd\", \"working_directory\": \"/ws\"}"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("is not installed")
                .hasMessageNotContaining("apt-get");
    }

    private static List<String> toolNames(SecurityContext context) {
        return dev.mero.core.ops.MeroOperations.forContext(context).availableTools().stream()
                .map(dev.mero.core.catalogue.ToolDescriptor::name).toList();
    }

    @Test
    void the_opt_out_runs_commands_as_plain_processes_and_warns_once_per_context() {
        Logger warnings = mock(Logger.class);
        SecurityContext context = context().allowCommand("env").commandSandbox(CommandSandbox.disabled())
                .warnings(warnings).build();

        CommandResult first = context.runCommand("pwd", "/ws");
        context.runCommand("touch made.txt", "/ws");
        String environment = context.runCommand("env", "/ws").stdout();

        // no sandbox: a plain process the runner tags, in the host directory, which the model sees by its mount
        assertThat(first.stdout()).isEqualTo("/ws\n");
        assertThat(environment).contains("MERO_RUN_ID=");
        assertThat(ws.resolve("made.txt")).exists();
        assertThat(context().allowCommand("env").build().runCommand("env", "/ws").stdout())
                .doesNotContain("MERO_RUN_ID=").contains("HOME=/tmp");
        verify(warnings, times(1)).warn(org.mockito.ArgumentMatchers.contains("WITHOUT the bubblewrap sandbox"),
                eq("'worker_1'"));
    }

    @Test
    void a_context_with_the_sandbox_does_not_warn() {
        Logger warnings = mock(Logger.class);

        context().warnings(warnings).build();

        verify(warnings, never()).warn(anyString(), eq("'worker_1'"));
    }

    @Test
    void a_narrowed_child_keeps_the_parents_sandbox_settings() {
        CommandSandbox networked = CommandSandbox.builder().network(true).build();
        SecurityContext parent = context().commandSandbox(networked).build();
        SecurityContext optedOut = context().commandSandbox(CommandSandbox.disabled()).warnings(mock(Logger.class))
                .build();

        assertThat(parent.narrow("child").build().commandSandbox()).isEqualTo(networked);
        assertThat(optedOut.narrow("child").build().commandSandbox()).isEqualTo(CommandSandbox.disabled());
    }

    @Test
    void the_policy_file_sets_the_sandbox_strictly() throws IOException {
        Path fake = tmp.resolve("bin/bwrap");
        String paths = "paths:\n  - {path: ws, slug: ws, allow: [READ, EXECUTE]}\n";
        Path optOut = write("opt-out.yaml", paths + "commands:\n  sandbox: {enabled: false}\n");
        Path custom = write("custom.yaml", paths + "commands:\n  sandbox:\n    network: true\n"
                + "    bubblewrap: bin/bwrap\n");

        assertThat(SecurityPolicy.load(optOut).commandSandbox()).isEqualTo(CommandSandbox.disabled());
        assertThat(SecurityPolicy.load(custom).commandSandbox())
                .isEqualTo(CommandSandbox.builder().network(true).bubblewrap(fake).build());
        for (String broken : List.of("commands:\n  sandbox: {enabled: no-thanks}\n",
                "commands:\n  sandbox: {network: 1}\n",
                "commands:\n  sandbox: {enable: false}\n",
                "commands:\n  sandbox: false\n",
                "commands:\n  sandbox: {bubblewrap: 7}\n")) {
            Path file = write("broken.yaml", paths + broken);
            assertThatThrownBy(() -> SecurityPolicy.load(file))
                    .isInstanceOf(InvalidPolicyException.class)
                    .hasMessageContaining("commands.sandbox");
        }
    }

    @Test
    void a_working_directory_the_sandbox_does_not_show_is_refused_before_anything_runs() {
        SecurityContext context = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", Permission.EXECUTE))
                .allowCommand("pwd")
                .build();

        assertThatThrownBy(() -> context.runCommand("pwd", "/ws"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageStartingWith("Command 'pwd' cannot run in '/ws'")
                .hasMessageContaining("grants READ");
    }

    @Test
    void the_bubblewrap_path_must_be_absolute() {
        assertThatThrownBy(() -> CommandSandbox.builder().bubblewrap(Path.of("bwrap")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'bwrap' must be an absolute path");
    }

    private Path write(String name, String text) throws IOException {
        return Files.writeString(tmp.resolve(name), text);
    }
}
