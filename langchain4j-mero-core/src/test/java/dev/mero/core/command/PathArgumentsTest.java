package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PathArgumentsTest {

    @TempDir
    Path tmp;
    Workspace w;
    SecurityContext context;

    @BeforeEach
    void setUp() {
        w = new Workspace(tmp);
        context = w.context().allowCommand("cat").allowCommand("grep").allowCommand("dd").allowCommand("ls")
                .allowCommand("git").build();
    }

    @Test
    void an_absolute_path_outside_every_entry_is_denied_even_with_the_program_allowed() {
        assertThatThrownBy(() -> context.checkCommand("cat /etc/passwd"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'cat /etc/passwd' names the path '/etc/passwd', which it may not read: Path "
                        + "'/etc/passwd' is an absolute path that isn't covered by any configured PathEntry, and its "
                        + "leading segment doesn't match a mounted slug (mounted: '/ws', '/docs').");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cat ../outside/secret.txt", "cat sub/../../outside/secret.txt", "cat ..",
            "cat -- /etc/passwd", "grep -f/etc/passwd x", "grep -rf/etc/passwd x", "grep --file=/etc/passwd x",
            "grep --file /etc/passwd x", "dd if=/etc/passwd", "cat /", "git -C /tmp status",
            "grep -e x -r /root", "cat link", "cat ./link", "cat dirlink/../secret.txt", "ls dirlink",
            "grep -r x dirlink"})
    void paths_outside_the_entries_are_denied_however_they_are_written(String line) {
        assertThatThrownBy(() -> context.checkCommand(line))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageStartingWith("Command '" + line + "' names the path ");
    }

    @Test
    void a_symlink_is_followed_as_the_kernel_follows_it() {
        // lexically dirlink/../secret.txt is ws/secret.txt; the kernel goes through outside/dir to outside/secret.txt
        assertThatThrownBy(() -> context.checkCommand("cat dirlink/../secret.txt"))
                .hasMessage("Command 'cat dirlink/../secret.txt' names the path 'dirlink/../secret.txt', which it may "
                        + "not read: it leads outside every mounted entry of context 'worker_1' (mounted: '/ws', "
                        + "'/docs').");
        assertThatThrownBy(() -> context.checkCommand("cat link"))
                .hasMessage("Command 'cat link' names the path 'link', which it may not read: it leads outside every "
                        + "mounted entry of context 'worker_1' (mounted: '/ws', '/docs').")
                .satisfies(e -> assertThat(((dev.mero.core.MeroToolsException) e).auditDetail())
                        .contains("resolves to '" + w.outside.resolve("secret.txt") + "'"));
    }

    @Test
    void a_symlink_named_like_an_option_is_checked_too() throws Exception {
        Files.createSymbolicLink(w.ws.resolve("-evil"), w.outside.resolve("secret.txt"));
        Files.createSymbolicLink(w.ws.resolve("-d"), w.outside.resolve("dir"));
        assertThatThrownBy(() -> context.checkCommand("cat -- -evil"))
                .hasMessageStartingWith("Command 'cat -- -evil' names the path '-evil', which it may not read: it "
                        + "leads outside every mounted entry");
        assertThatThrownBy(() -> context.checkCommand("cat -- -d/x"))
                .hasMessageStartingWith("Command 'cat -- -d/x' names the path '-d/x', which it may not read: it leads "
                        + "outside every mounted entry");
    }

    @Test
    void a_dangling_symlink_is_never_followed() {
        assertThatThrownBy(() -> context.checkCommand("cat dangling"))
                .hasMessage("Command 'cat dangling' names the path 'dangling', which goes through the symbolic link "
                        + "'/ws/dangling' whose target does not exist or loops; such a link is never "
                        + "followed.");
    }

    @Test
    void without_the_sandbox_mount_paths_are_refused_because_a_program_opens_the_host_path() {
        SecurityContext unsandboxed = w.context().allowCommand("cat").commandSandbox(CommandSandbox.disabled()).build();

        assertThatThrownBy(() -> unsandboxed.checkCommand("cat /ws/notes.txt"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("names the path '/ws/notes.txt', which ");
    }

    @Test
    void inside_the_sandbox_mount_paths_are_checked_as_the_paths_the_sandbox_shows() {
        assertThat(context.checkCommand("cat /ws/notes.txt").pathArguments())
                .extracting(p -> p.realPath()).containsExactly(w.ws.resolve("notes.txt"));
        assertThatThrownBy(() -> context.checkCommand("cat /ws/link"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("names the path '/ws/link'");
        assertThatThrownBy(() -> context.checkCommand("cat /ws/../outside/secret.txt"))
                .isInstanceOf(CommandDeniedException.class);
    }

    @Test
    void a_mount_path_shadowing_a_host_directory_is_refused_with_the_mount_hint() throws Exception {
        // a slug named like a host directory must not let the host directory through
        Path etcLike = Files.createDirectories(w.root.resolve("etcmount"));
        Files.writeString(etcLike.resolve("passwd"), "harmless");
        SecurityContext shadowing = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.EXECUTE))
                .path(PathEntry.of(etcLike.toString(), "etc", Permission.READ))
                .allowCommand("cat").commandSandbox(CommandSandbox.disabled()).build();
        assertThat(shadowing.checkPathAccess("/etc/passwd", Permission.READ).realPath())
                .isEqualTo(etcLike.resolve("passwd"));
        assertThatThrownBy(() -> shadowing.checkCommand("cat /etc/passwd"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'cat /etc/passwd' names the path '/etc/passwd', which a program opens as the host "
                        + "path '/etc/passwd', outside every mounted entry; programs do not understand mount paths "
                        + "such as '/etc/...'. Give the path relative to the working directory.");
    }

    @Test
    void inside_the_sandbox_a_mount_named_like_a_system_directory_stops_every_command() throws Exception {
        Path etcLike = Files.createDirectories(w.root.resolve("etcmount"));
        SecurityContext shadowing = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.EXECUTE))
                .path(PathEntry.of(etcLike.toString(), "etc", Permission.READ))
                .allowCommand("cat").build();

        assertThatThrownBy(() -> shadowing.checkCommand("cat notes.txt"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageStartingWith("Command 'cat notes.txt' cannot run in context 'worker_1'")
                .hasMessageContaining("its mount '/etc'")
                .hasMessageContaining("another slug");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cat notes.txt", "cat sub/../notes.txt", "cat ./notes.txt", "grep -r x sub",
            "grep -e x -r .", "ls", "ls -la sub", "git log main..feature", "cat '~/x'", "grep -f./notes.txt x"})
    void paths_inside_the_entries_are_allowed(String line) {
        assertThat(context.checkCommand(line).commandLine()).isEqualTo(line);
    }

    @Test
    void host_paths_inside_entries_are_allowed() {
        assertThat(context.checkCommand("cat " + w.ws.resolve("notes.txt")).argv()).hasSize(2);
        assertThat(context.checkCommand("cat " + w.docs.resolve("guide.txt")).argv()).hasSize(2);
        assertThat(context.checkCommand("grep --file=" + w.docs.resolve("guide.txt") + " x").argv()).hasSize(3);
    }

    @Test
    void a_path_in_an_entry_without_read_is_denied() throws Exception {
        Path exec = Files.createDirectories(w.root.resolve("execonly"));
        Files.writeString(exec.resolve("data.txt"), "data");
        SecurityContext executeOnly = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(exec.toString(), "run", Permission.EXECUTE))
                .allowCommand("cat").allowCommand("ls").build();
        assertThatThrownBy(() -> executeOnly.checkCommand("cat data.txt", "/run"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'cat data.txt' names the path 'data.txt' (resolves to '/run/data.txt'), which it "
                        + "may not read: '/run' in context 'worker_1' lacks permission(s) ['READ'] for '/run/data.txt' "
                        + "(allows: ['EXECUTE']).");
        assertThat(executeOnly.checkCommand("ls", "/run").workingDirectory()).isPresent();
    }

    @Test
    void relative_paths_resolve_against_the_working_directory() {
        assertThat(context.checkCommand("cat ../notes.txt", "/ws/sub").argv()).containsExactly("cat", "../notes.txt");
        assertThatThrownBy(() -> context.checkCommand("cat ../../outside/secret.txt", "/ws/sub"))
                .hasMessageStartingWith("Command 'cat ../../outside/secret.txt' names the path ");
        assertThatThrownBy(() -> context.checkCommand("cat ../link", "/ws/sub"))
                .hasMessageContaining("which it may not read: it leads outside every mounted entry")
                .hasMessageNotContaining(w.root.toString());
    }

    @Test
    void without_entries_every_path_argument_is_denied() {
        SecurityContext empty = SecurityContext.builder().name("worker_1").allowCommand("cat").build();
        assertThatThrownBy(() -> empty.checkCommand("cat a/b"))
                .hasMessage("Command 'cat a/b' names the path 'a/b', which it may not read: Path 'a/b' is not covered "
                        + "by any PathEntry in context 'worker_1' (the context mounts no paths).");
        assertThat(empty.checkCommand("cat notes").argv()).containsExactly("cat", "notes");
    }
}
