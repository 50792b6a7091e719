package dev.mero.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two ways out that the argument vector alone does not show: a repository configuration the agent writes
 * (git then runs what it names), and programs that write or delete the paths they are given.
 */
class RepositoryAndWriteAttackTest {

    @TempDir
    Path tmp;

    Workspace w;

    @BeforeEach
    void setUp() {
        w = new Workspace(tmp);
    }

    @ParameterizedTest
    @ValueSource(strings = {".git/config", ".git/hooks/pre-commit", "sub/.git/config", ".GIT/config", ".git"})
    void nothingInsideAGitDirectoryMayBeWrittenOrDeleted(String path) throws IOException {
        Files.createDirectories(w.ws.resolve(".git/hooks"));
        SecurityContext context = w.context(Permission.READ, Permission.WRITE, Permission.DELETE).build();

        assertThatThrownBy(() -> context.checkPathAccess(path, Permission.WRITE))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessage("Path " + dev.mero.core.message.Messages.quote(path) + " is inside a '.git' directory, which may "
                        + "not be changed in context 'worker_1': a repository's configuration and hooks can make git "
                        + "run programs. Change the repository with git commands instead.");
        assertThatThrownBy(() -> context.checkPathAccess(path, Permission.DELETE))
                .isInstanceOf(PathAccessDeniedException.class);
        assertThat(context.checkPathAccess(path, Permission.READ).virtualPath()).startsWith("/ws/");
    }

    @Test
    void aRepositoryConfigurationCannotBePlantedThroughALinkEither() throws IOException {
        Files.createDirectories(w.ws.resolve("repo/.git"));
        Files.createSymbolicLink(w.ws.resolve("cfg"), w.ws.resolve("repo/.git"));
        SecurityContext context = w.context().build();

        assertThatThrownBy(() -> context.checkPathAccess("cfg/config", Permission.WRITE))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessageContaining("is inside a '.git' directory");
    }

    @Test
    void anAgentWrittenBareRepositoryIsNeverUsedByGit() throws IOException {
        // a directory that looks like a bare repository, with an external diff command in its config
        Path bare = Files.createDirectories(w.ws.resolve("bare"));
        Files.createDirectories(bare.resolve("objects"));
        Files.createDirectories(bare.resolve("refs"));
        Files.writeString(bare.resolve("HEAD"), "ref: refs/heads/main\n");
        Path marker = w.outside.resolve("pwned");
        Files.writeString(bare.resolve("config"), "[core]\n\tbare = true\n[diff]\n\texternal = touch " + marker + "\n"
                + "[log]\n\tshowSignature = true\n[gpg]\n\tprogram = touch " + marker + "\n");
        SecurityContext context = w.context().allowCommand("git diff").allowCommand("git log").build();

        CommandResult result = context.runCommand("git log", "/ws/bare");
        context.runCommand("git diff", "/ws/bare");

        assertThat(result.succeeded()).isFalse();
        assertThat(marker).doesNotExist();
        assertThatThrownBy(() -> context.runCommand("git --git-dir=bare diff", "/ws"))
                .isInstanceOf(CommandDeniedException.class);
        assertThat(marker).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"cp notes.txt DOCS/copy.txt", "mv notes.txt DOCS/", "touch DOCS/new.txt",
        "tar -cf DOCS/a.tar notes.txt", "tee DOCS/x", "ln -s notes.txt DOCS/link", "dd if=notes.txt of=DOCS/x"})
    void programsThatWriteNeedWriteOnTheirPaths(String template) throws IOException {
        Files.writeString(w.ws.resolve("archive.tar"), "");
        List<String> before = w.tree();
        SecurityContext context = w.context().allowCommand("cp").allowCommand("mv").allowCommand("touch")
                .allowCommand("tar").allowCommand("tee").allowCommand("ln").allowCommand("dd").build();
        String line = template.replace("DOCS", w.docs.toString());

        assertThatThrownBy(() -> context.runCommand(line, "/ws"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("which it may not ");
        assertThat(w.tree()).isEqualTo(before);
    }

    @Test
    void programsThatDeleteNeedDelete() {
        SecurityContext noDelete = w.context().allowCommand("rm").allowCommand("mv").build();
        SecurityContext withDelete = w.context(Permission.READ, Permission.WRITE, Permission.EXECUTE, Permission.DELETE)
                .allowCommand("rm").build();

        assertThatThrownBy(() -> noDelete.runCommand("rm notes.txt", "/ws"))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessageContaining("names the path 'notes.txt'")
                .hasMessageContaining("which it may not change or delete")
                .hasMessageContaining("lacks permission(s) ['DELETE']");
        assertThat(w.ws.resolve("notes.txt")).exists();
        assertThat(withDelete.runCommand("rm notes.txt", "/ws").succeeded()).isTrue();
        assertThat(w.ws.resolve("notes.txt")).doesNotExist();
    }

    @Test
    void readingProgramsStillOnlyNeedRead() {
        SecurityContext context = w.context().allowCommand("cat").allowCommand("tar").build();

        assertThat(context.checkCommand("cat " + w.docs.resolve("guide.txt"), "/ws").argv()).hasSize(2);
        assertThat(context.checkCommand("tar -tf notes.txt", "/ws").argv()).hasSize(3);
    }
}
