package dev.mero.core.command;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which arguments are taken for paths: glued option values, empty names before '=', plain words. */
class PathArgumentsMutationTest {

    private static final String OUTSIDE_ETC_PASSWD = ", which it may not read: Path '/etc/passwd' is an absolute "
            + "path that isn't covered by any configured PathEntry, and its leading segment doesn't match a mounted "
            + "slug (mounted: '/ws', '/docs').";

    @TempDir
    Path tmp;
    Workspace w;
    SecurityContext context;

    @BeforeEach
    void setUp() {
        w = new Workspace(tmp);
        context = w.context().allowCommand("cat").allowCommand("ls").build();
    }

    @Test
    void an_absolute_path_glued_directly_to_a_short_option_is_checked() {
        assertThatThrownBy(() -> context.checkCommand("cat -x/etc/passwd"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'cat -x/etc/passwd' names the path '/etc/passwd'" + OUTSIDE_ETC_PASSWD);
    }

    @Test
    void a_path_glued_after_a_long_cluster_of_short_options_is_still_checked() {
        String line = "cat -abcdefghijklmnopqrstuvwxyz/etc/passwd";

        assertThatThrownBy(() -> context.checkCommand(line))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command '" + line + "' names the path '/etc/passwd'" + OUTSIDE_ETC_PASSWD);
    }

    @Test
    void a_glued_value_through_a_planted_symlink_is_checked_before_the_first_path_character() throws Exception {
        Files.createSymbolicLink(w.ws.resolve("lnk.d"), w.outside.resolve("dir"));

        assertThatThrownBy(() -> context.checkCommand("cat -Xlnk.d/x"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageStartingWith("Command 'cat -Xlnk.d/x' names the path 'lnk.d/x', which it may not read: it "
                        + "leads outside every mounted entry");
    }

    @Test
    void the_value_after_an_equals_sign_at_the_start_is_checked() {
        assertThatThrownBy(() -> context.checkCommand("cat =/etc/passwd"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'cat =/etc/passwd' names the path '/etc/passwd'" + OUTSIDE_ETC_PASSWD);
    }

    @Test
    void a_word_that_names_no_existing_file_is_not_a_path() throws Exception {
        Path exec = Files.createDirectories(w.root.resolve("execonly"));
        Files.writeString(exec.resolve("data.txt"), "data");
        SecurityContext executeOnly = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(exec.toString(), "run", Permission.EXECUTE))
                .allowCommand("ls").build();

        assertThat(executeOnly.checkCommand("ls nothing-here", "/run").argv()).containsExactly("ls", "nothing-here");
        assertThatThrownBy(() -> executeOnly.checkCommand("ls data.txt", "/run"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageStartingWith("Command 'ls data.txt' names the path 'data.txt' (resolves to ");
    }

    @Test
    void a_program_linked_to_a_multi_call_binary_runs_under_its_own_name() {
        w.stub("busybox");
        w.link("ls", w.bin.resolve("busybox"));
        SecurityContext multiCall = w.context().commandSearchPath(w.searchPath()).allowCommand("ls").build();

        CheckedCommand command = multiCall.checkCommand("ls -la");

        assertThat(command.argv()).containsExactly("ls", "-la");
    }

    @Test
    void a_file_url_is_judged_by_the_host_path_it_decodes_to() {
        String ws = w.ws.toString();
        for (String url : List.of("file:" + ws + "/notes.txt", "file://" + ws + "/notes.txt",
                "file://localhost" + ws + "/notes.txt", "FILE://LOCALHOST" + ws + "/notes.txt",
                "file:" + ws.replace("/", "%2F") + "%2fnotes.txt")) {
            assertThatCode(() -> context.checkCommand("cat " + url)).as(url).doesNotThrowAnyException();
        }
        for (String url : List.of("file:..%2Foutside%2Fsecret.txt", "file://localhost", "file://",
                "file:" + w.outside + "/secret.txt%2", "file:" + w.outside + "/secret.txt%")) {
            assertThatThrownBy(() -> context.checkCommand("cat " + url)).as(url)
                    .isInstanceOf(CommandDeniedException.class).hasMessageContaining("which it may not read");
        }
        assertThatThrownBy(() -> context.checkCommand("cat file://example.invalid" + ws + "/notes.txt"))
                .isInstanceOf(CommandDeniedException.class).hasMessageContaining("a file on another host");
    }
}
