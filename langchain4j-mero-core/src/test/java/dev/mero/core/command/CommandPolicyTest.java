package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidInputException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.PermissionDeniedException;
import dev.mero.core.SecurityContext;
import dev.mero.core.command.guard.ArgumentGuard;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CommandPolicyTest {

    @TempDir
    Path tmp;
    Workspace w;

    @BeforeEach
    void setUp() {
        w = new Workspace(tmp);
    }

    // --- allowlist and deny rules: the seed's messages ---

    @Test
    void without_allow_rules_every_command_is_denied_with_the_seed_message() {
        SecurityContext context = w.context().build();
        assertThatThrownBy(() -> context.checkCommand("ls"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'ls' does not match any allowed-command rule in context 'worker_1' "
                        + "(allowlist mode: default-deny).");
    }

    @Test
    void an_allow_rule_is_a_token_prefix() {
        SecurityContext context = w.context().allowCommand("git status").build();
        assertThat(context.checkCommand("git status").argv()).containsExactly("git", "status");
        assertThat(context.checkCommand("git status --short").argv()).containsExactly("git", "status", "--short");
        for (String line : new String[] {"git statusx", "git push", "git", "git --no-pager status"}) {
            assertThatThrownBy(() -> context.checkCommand(line))
                    .hasMessage("Command '" + line + "' does not match any allowed-command rule in context 'worker_1' "
                            + "(allowlist mode: default-deny).");
        }
    }

    @Test
    void a_deny_rule_wins_with_the_seed_message() {
        SecurityContext context = w.context(Permission.READ, Permission.WRITE, Permission.EXECUTE, Permission.DELETE)
                .allowCommand("rm").denyCommand("rm -rf").build();
        assertThatThrownBy(() -> context.checkCommand("rm -rf sub"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'rm -rf sub' is blocked by denied-command rule 'rm -rf' in context 'worker_1'.");
        assertThat(context.checkCommand("rm -r sub").allowRule().text()).isEqualTo("rm");
    }

    @ParameterizedTest
    @ValueSource(strings = {"rm -rf sub", "rm -fr sub", "rm -r -f sub", "rm -f -r sub", "rm sub -rf", "rm -Rf sub",
            "rm -vrf sub", "rm -r -v -f sub", "rm --recursive --force sub", "rm --rec --forc sub", "rm -r --force sub",
            "/bin/rm -rf sub", "/usr/bin/rm -fr sub", "rm -- -rf"})
    void a_deny_rule_matches_options_in_any_order_grouping_and_spelling(String line) {
        SecurityContext context = w.context().allowCommand("rm").allowCommand("/bin/rm").allowCommand("/usr/bin/rm")
                .denyCommand("rm -rf").build();
        assertThatThrownBy(() -> context.checkCommand(line))
                .hasMessage("Command '" + line + "' is blocked by denied-command rule 'rm -rf' in context 'worker_1'.");
    }

    @Test
    void a_deny_rule_with_operands_matches_them_in_order_around_options() {
        SecurityContext context = w.context().allowCommand("git").denyCommand("git push --force").build();
        for (String line : new String[] {"git push --force", "git push -f origin", "git -C sub push origin --force",
                                         "git push --force-with-lease", "git push --forc"}) {
            assertThatThrownBy(() -> context.checkCommand(line)).hasMessageContaining("is blocked by denied-command "
                    + "rule 'git push --force'");
        }
        assertThat(context.checkCommand("git push origin").argv()).containsExactly("git", "push", "origin");
    }

    @Test
    void a_deny_rule_on_a_symlink_target_blocks_the_link() {
        SecurityContext context = w.context().allowCommand("sh").denyCommand("dash").build();
        assertThatThrownBy(() -> context.checkCommand("sh -c true"))
                .hasMessage("Command 'sh -c true' is blocked by denied-command rule 'dash' in context 'worker_1'.");
    }

    // --- programs ---

    @ParameterizedTest
    @ValueSource(strings = {"./cat notes.txt", "sub/cat notes.txt", "../x", "bin/../cat", ".", "..", "'' x"})
    void relative_programs_are_refused_even_when_the_name_is_allowed(String line) {
        SecurityContext context = w.context().allowCommand("cat").allowCommand("x").build();
        assertThatThrownBy(() -> context.checkCommand(line))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("by a relative path. A program runs only by a bare name found on the command "
                        + "search path of context 'worker_1' ('/usr/local/bin:/usr/bin:/bin') or by an absolute path "
                        + "that an allowed-command rule names exactly");
    }

    @Test
    void relative_program_message_says_what_to_write_instead() {
        SecurityContext context = w.context().allowCommand("cat").build();
        assertThatThrownBy(() -> context.checkCommand("./cat notes.txt"))
                .hasMessage("Command './cat notes.txt' names its program './cat' by a relative path. A program runs "
                        + "only by a bare name found on the command search path of context 'worker_1' "
                        + "('/usr/local/bin:/usr/bin:/bin') or by an absolute path that an allowed-command rule names "
                        + "exactly: write 'cat' instead.");
    }

    @Test
    void an_absolute_program_runs_only_when_a_rule_names_that_path() {
        SecurityContext byName = w.context().allowCommand("cat").build();
        assertThatThrownBy(() -> byName.checkCommand("/usr/bin/cat notes.txt"))
                .hasMessageContaining("does not match any allowed-command rule");
        SecurityContext byPath = w.context().allowCommand("/usr/bin/cat").build();
        CheckedCommand command = byPath.checkCommand("/usr/bin/cat notes.txt");
        assertThat(command.executable()).isEqualTo(Path.of("/usr/bin/cat"));
        assertThatThrownBy(() -> byPath.checkCommand("cat notes.txt"))
                .hasMessageContaining("does not match any allowed-command rule");
    }

    @Test
    void a_bare_name_is_found_only_on_the_context_search_path() {
        w.stub("mytool");
        SecurityContext defaultPath = w.context().allowCommand("mytool").build();
        assertThatThrownBy(() -> defaultPath.checkCommand("mytool"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'mytool' names the program 'mytool', which is not an executable file on the "
                        + "command search path of context 'worker_1' ('/usr/local/bin:/usr/bin:/bin'). Use a program "
                        + "that is installed there.");
        SecurityContext withBin = w.context().allowCommand("mytool").commandSearchPath(w.searchPath()).build();
        assertThat(withBin.checkCommand("mytool").executable()).isEqualTo(w.bin.resolve("mytool"));
    }

    @Test
    void a_checked_command_carries_what_a_runner_needs() {
        SecurityContext context = w.context().allowCommand("git log").build();
        CheckedCommand command = context.checkCommand("git log --format='%H %s' -3");
        assertThat(command.commandLine()).isEqualTo("git log --format='%H %s' -3");
        assertThat(command.argv()).containsExactly("git", "log", "--format=%H %s", "-3");
        assertThat(command.arguments()).containsExactly("log", "--format=%H %s", "-3");
        assertThat(command.program()).isEqualTo("git");
        assertThat(command.programName()).isEqualTo("git");
        assertThat(command.executable()).isEqualTo(Path.of("/usr/local/bin/git").toFile().exists()
                ? Path.of("/usr/local/bin/git") : Path.of("/usr/bin/git"));
        assertThat(command.realExecutable()).isAbsolute();
        assertThat(command.allowRule().text()).isEqualTo("git log");
        assertThat(command.workingDirectory()).isEmpty();
        assertThat(command.processCommand()).containsExactly(command.executable().toString(), "log", "--format=%H %s",
                "-3");
    }

    @Test
    void the_most_specific_allow_rule_is_reported() {
        SecurityContext context = w.context().allowCommand("git").allowCommand("git log").build();
        assertThat(context.checkCommand("git log -1").allowRule().text()).isEqualTo("git log");
        assertThat(context.checkCommand("git status").allowRule().text()).isEqualTo("git");
    }

    // --- rules and search path are validated when the context is built ---

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "git status; rm -rf /", "ls | wc", "./tool", "bin/tool", "../tool", "FOO=1 ls",
            "echo $HOME", "cat 'unterminated"})
    void malformed_rules_are_refused_naming_the_rule(String rule) {
        assertThatThrownBy(() -> SecurityContext.builder().allowCommand(rule))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid command rule '" + rule.replace("'", "\\'") + "': ");
        assertThatThrownBy(() -> SecurityContext.builder().denyCommand(rule))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "bin", "/usr/bin::/bin", "/usr/bin:", ":/usr/bin", "/usr/../tmp", "./bin"})
    void a_search_path_needs_normalised_absolute_directories(String searchPath) {
        assertThatThrownBy(() -> SecurityContext.builder().commandSearchPath(searchPath))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid command search path ");
    }

    @Test
    void a_search_path_inside_a_writable_entry_is_refused() throws Exception {
        Path planted = Files.createDirectories(w.ws.resolve("bin"));
        assertThatThrownBy(() -> w.context().commandSearchPath(planted + ":/usr/bin").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Command search path directory '" + planted + "' lies inside PathEntry '/ws', which grants "
                        + "WRITE: the agent could place programs there; keep the search path outside writable entries");
        assertThat(SecurityContext.builder().path(PathEntry.of(w.ws.toString(), "ws", Permission.READ))
                .commandSearchPath(planted.toString()).build().commandPolicy().searchPath())
                .isEqualTo(planted.toString());
    }

    @Test
    void a_program_that_resolves_into_a_writable_entry_is_never_run() throws Exception {
        Path script = Files.writeString(w.ws.resolve("tool.sh"), "#!/bin/sh\n");
        script.toFile().setExecutable(true);
        w.link("tool", script);
        SecurityContext context = w.context().allowCommand("tool").commandSearchPath(w.searchPath()).build();
        assertThatThrownBy(() -> context.checkCommand("tool"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'tool' would run '/ws/tool.sh', which lies inside '/ws' where the agent may "
                        + "write; a program the agent can change is never run. Use a program installed on the command "
                        + "search path.");
    }

    // --- wrappers ---

    @ParameterizedTest
    @ValueSource(strings = {"env git status", "xargs git status", "timeout 5 git status", "nice git status",
            "nohup git status", "stdbuf -o0 git status", "sudo git status", "sh -c 'git status'",
            "bash -c 'git status'", "python3 -c 'import os'", "perl -e 1", "strace git status", "watch git status",
            "setsid git status", "flock x git status", "chroot / git status", "busybox sh", "ssh host git status"})
    void wrappers_are_refused_unless_a_rule_names_them_and_their_payload_never_counts(String line) {
        SecurityContext context = w.context().allowCommand("git status").allowCommand("git").build();
        assertThatThrownBy(() -> context.checkCommand(line))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("a program that runs other programs or code (a shell, an interpreter or a "
                        + "launcher such as env, xargs or timeout). Such a program runs only when an allowed-command "
                        + "rule names it explicitly, and what it runs never counts as an allowed command of its own: "
                        + "run the program you mean directly.");
    }

    @Test
    void wrapper_refusal_message_is_exact() {
        SecurityContext context = w.context().allowCommand("git").build();
        assertThatThrownBy(() -> context.checkCommand("env git status"))
                .hasMessage("Command 'env git status' runs 'env', a program that runs other programs or code (a shell, "
                        + "an interpreter or a launcher such as env, xargs or timeout). Such a program runs only when "
                        + "an allowed-command rule names it explicitly, and what it runs never counts as an allowed "
                        + "command of its own: run the program you mean directly.");
    }

    @Test
    void a_program_that_resolves_to_a_wrapper_counts_as_one() {
        w.link("mytool", Path.of("/usr/bin/dash"));
        SecurityContext context = w.context().allowCommand("mytool").commandSearchPath(w.searchPath()).build();
        assertThatThrownBy(() -> context.checkCommand("mytool -c true"))
                .hasMessageStartingWith("Command 'mytool -c true' runs 'mytool', which is the program 'dash', a "
                        + "program that runs other programs or code");
    }

    @Test
    void a_wrapper_named_by_a_rule_runs_and_sh_resolving_to_dash_is_fine() {
        SecurityContext context = w.context().allowCommand("sh").build();
        CheckedCommand command = context.checkCommand("sh -c 'echo hi'");
        assertThat(command.realExecutable().getFileName().toString()).isIn("dash", "bash");
        assertThat(command.argv()).containsExactly("sh", "-c", "echo hi");
    }

    @Test
    void an_allowed_wrapper_payload_still_meets_deny_rules_guards_and_nested_wrappers() {
        SecurityContext context = w.context().allowCommand("timeout").allowCommand("timeout 5 nice")
                .denyCommand("rm -rf").build();
        assertThatThrownBy(() -> context.checkCommand("timeout 5 rm -fr sub"))
                .hasMessage("Command 'timeout 5 rm -fr sub' is blocked by denied-command rule 'rm -rf' in context "
                        + "'worker_1'.");
        assertThatThrownBy(() -> context.checkCommand("timeout 5 find . -delete"))
                .hasMessageStartingWith("Command 'timeout 5 find . -delete' is refused by the argument guard for "
                        + "'find': the action '-delete' deletes files");
        assertThatThrownBy(() -> context.checkCommand("timeout 5 env ls"))
                .hasMessage("Command 'timeout 5 env ls' is allowed by the rule 'timeout', but its argument 'env' names "
                        + "another program that runs programs or code, which the rule does not name. Run that program "
                        + "directly, or name it in an allowed-command rule explicitly.");
        assertThat(context.checkCommand("timeout 5 nice ls").allowRule().text()).isEqualTo("timeout 5 nice");
        assertThat(context.checkCommand("timeout 5 ls sub").argv()).containsExactly("timeout", "5", "ls", "sub");
    }

    // --- guards ---

    @Test
    void built_in_guards_are_on_by_default_and_can_be_turned_off() {
        SecurityContext guarded = w.context().allowCommand("find").build();
        assertThatThrownBy(() -> guarded.checkCommand("find . -delete"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'find . -delete' is refused by the argument guard for 'find': the action '-delete' "
                        + "deletes files; delete files with the file tools instead.");
        SecurityContext unguarded = w.context().allowCommand("find").builtInArgumentGuards(false).build();
        assertThat(unguarded.checkCommand("find . -delete").argv()).contains("-delete");
        assertThat(unguarded.commandPolicy().builtInGuards()).isFalse();
    }

    @Test
    void custom_guards_apply_after_the_built_in_ones() {
        w.stub("curl");
        ArgumentGuard noOutput = ArgumentGuard.forPrograms(Set.of("curl"), arguments -> arguments.contains("-o")
                ? Optional.of("the option '-o' writes a file; let curl print to standard output instead")
                : Optional.empty());
        SecurityContext context = w.context().allowCommand("curl").commandSearchPath(w.searchPath())
                .argumentGuard(noOutput).build();
        assertThatThrownBy(() -> context.checkCommand("curl -o out http://example.invalid"))
                .hasMessage("Command 'curl -o out http://example.invalid' is refused by the argument guard for 'curl': "
                        + "the option '-o' writes a file; let curl print to standard output instead.");
        assertThat(context.checkCommand("curl http://example.invalid").programName()).isEqualTo("curl");
    }

    @Test
    void a_guard_sees_the_real_program_name_too() {
        SecurityContext context = w.context().allowCommand("awk").build();
        Path real = context.checkCommand("awk 1 notes.txt").realExecutable();
        ArgumentGuard byRealName = ArgumentGuard.forPrograms(Set.of(real.getFileName().toString()),
                arguments -> Optional.of("seen as " + real.getFileName()));
        SecurityContext guarded = w.context().allowCommand("awk").argumentGuard(byRealName).build();
        assertThatThrownBy(() -> guarded.checkCommand("awk 1 notes.txt")).hasMessageEndingWith("seen as "
                + real.getFileName() + ".");
    }

    // --- shell syntax is refused before any rule ---

    @Test
    void shell_syntax_is_refused_before_rules_are_matched() {
        SecurityContext context = w.context().build();
        assertThatThrownBy(() -> context.checkCommand("git status; id"))
                .hasMessageContaining("contains the shell operator ';'");
        assertThatThrownBy(() -> context.checkCommand("")).isInstanceOf(InvalidInputException.class);
    }

    // --- working directory ---

    @Test
    void a_working_directory_needs_execute() {
        SecurityContext context = w.context().allowCommand("ls").build();
        CheckedCommand command = context.checkCommand("ls", "/ws/sub");
        assertThat(command.workingDirectory()).get().extracting(r -> r.virtualPath()).isEqualTo("/ws/sub");
        assertThat(command.workingDirectory().get().realPath()).isEqualTo(w.ws.resolve("sub"));
        assertThatThrownBy(() -> context.checkCommand("ls", "/docs"))
                .isInstanceOf(PermissionDeniedException.class)
                .hasMessage("'/docs' in context 'worker_1' lacks permission(s) ['EXECUTE'] for '/docs' "
                        + "(allows: ['READ']).");
    }

    @Test
    void without_a_working_directory_the_first_entry_granting_execute_is_used() {
        SecurityContext context = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(w.docs.toString(), "docs", Permission.READ))
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.EXECUTE))
                .allowCommand("ls").build();
        assertThat(context.checkCommand("ls", null).workingDirectory().get().virtualPath()).isEqualTo("/ws");
        assertThat(context.checkCommand("ls", " ").workingDirectory().get().virtualPath()).isEqualTo("/ws");
    }

    @Test
    void without_any_entry_granting_execute_no_command_runs() {
        SecurityContext noEntry = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(w.docs.toString(), "docs", Permission.READ)).allowCommand("ls").build();
        assertThatThrownBy(() -> noEntry.checkCommand("ls", null))
                .isInstanceOf(PermissionDeniedException.class)
                .hasMessage("Context 'worker_1' has no PathEntry that grants 'EXECUTE', so no command can run: a "
                        + "command needs EXECUTE on its working directory.");
        SecurityContext noCeiling = w.context().permissions(Permission.READ).allowCommand("ls").build();
        assertThatThrownBy(() -> noCeiling.checkCommand("ls", null))
                .isInstanceOf(PermissionDeniedException.class)
                .hasMessage("Context 'worker_1' lacks permission(s) ['EXECUTE'] (has: ['READ']).");
        assertThatThrownBy(() -> noCeiling.checkCommand("ls", "/ws"))
                .isInstanceOf(PermissionDeniedException.class)
                .hasMessage("Context 'worker_1' lacks permission(s) ['EXECUTE'] (has: ['READ']).");
    }

    @Test
    void a_working_directory_must_be_a_directory() {
        SecurityContext context = w.context().allowCommand("ls").build();
        assertThatThrownBy(() -> context.checkCommand("ls", "/ws/notes.txt"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("Working directory '/ws/notes.txt' is not a directory. Give a directory such as '/ws'.");
    }
}
