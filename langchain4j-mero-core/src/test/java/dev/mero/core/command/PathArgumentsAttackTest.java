package dev.mero.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.message.Messages;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A value glued to a short option that is a plain name, not a path: {@code tar -Cdirlink} has no {@code /}, so
 * it was never checked, and a symlink planted in the workspace led tar out of every entry.
 */
class PathArgumentsAttackTest {

    @TempDir
    Path tmp;
    Workspace w;
    SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tmp);
        Files.writeString(w.outside.resolve("dir/loot.txt"), "LOOT");
        Files.createSymbolicLink(w.ws.resolve(".hidden"), w.outside.resolve("dir"));
        context = w.context().allowCommand("tar").allowCommand("grep").allowCommand("du").allowCommand("sort")
                .allowCommand("head").build();
    }

    @Test
    void tar_with_a_glued_directory_symlink_does_not_archive_the_outside_directory() {
        assertThatThrownBy(() -> context.runCommand("tar -cf - -Cdirlink .", "/ws"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("Command 'tar -cf - -Cdirlink .' names the path 'dirlink', which it may not read: it "
                        + "leads outside every mounted entry of context 'worker_1' (mounted: '/ws', '/docs').");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tar -cf - -vvvvvvvvvvvvvvvvvvvvCdirlink .", "tar -cf - -C.hidden .", "grep -flink notes.txt",
            "grep -rflink .", "du -Xlink .", "du -X.hidden .", "sort -Tdirlink notes.txt", "grep -e x -f.hidden ."})
    void every_glued_plain_name_that_leads_out_is_refused(String line) {
        assertThatThrownBy(() -> context.checkCommand(line, "/ws"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageStartingWith("Command " + Messages.quote(line) + " names the path ")
                // tar -c writes its archive, so its paths are checked for WRITE as well
                .hasMessageMatching("(?s).*which it may not (read|write): .*");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tar -cf - -Csub .", "head -n1 notes.txt", "grep -fnotes.txt notes.txt", "sort -t. notes.txt"})
    void glued_names_inside_the_workspace_still_pass(String line) {
        assertThat(context.checkCommand(line, "/ws").commandLine()).isEqualTo(line);
    }
}
