package dev.mero.core.command;

import dev.mero.core.command.GitArguments.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which git commands change files, and which paths git's own syntax names. */
class GitArgumentsTest {

    private static List<String> argv(String line) {
        return CommandLineParser.parse(line);
    }

    @Test
    void theSubcommandComesAfterTheGlobalOptionsAndTheirValues() {
        assertThat(GitArguments.subcommandIndex(argv("git status"))).isEqualTo(1);
        assertThat(GitArguments.subcommandIndex(argv("git -C sub --no-pager log"))).isEqualTo(4);
        assertThat(GitArguments.subcommandIndex(argv("git -Csub log"))).isEqualTo(2);
        assertThat(GitArguments.subcommandIndex(argv("git --git-dir=g log"))).isEqualTo(2);
        assertThat(GitArguments.subcommandIndex(argv("git --no-pager"))).isEqualTo(2);
        assertThat(GitArguments.subcommandIndex(argv("git -C"))).isEqualTo(2);
        assertThat(GitArguments.subcommandIndex(argv("git"))).isEqualTo(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"git", "git --no-pager", "git status", "git -C sub log -p", "git config --get user.name",
            "git config user.name --get", "git config --list", "git submodule", "git submodule status",
            "git submodule summary", "git branch", "git branch -a", "git -C sub branch --list -v", "git tag -l",
            "git stash list", "git stash show -p", "git remote -v"})
    void readingCommandsWriteNothing(String line) {
        assertThat(GitArguments.writes(argv(line))).as(line).isFalse();
        assertThat(GitArguments.deletes(argv(line))).as(line).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"git commit -m x", "git add .", "git config user.name x", "git submodule update",
            "git branch new", "git tag v1", "git remote add o ../x", "git init", "git -C sub commit"})
    void changingCommandsWriteButDoNotDelete(String line) {
        assertThat(GitArguments.writes(argv(line))).as(line).isTrue();
        assertThat(GitArguments.deletes(argv(line))).as(line).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"git rm x", "git checkout -- x", "git -C sub reset --hard", "git clean -fdx",
            "git stash", "git stash -a", "git stash --all", "git stash push -u", "git stash pop", "git worktree add w"})
    void commandsThatRemoveOrRewriteFilesWriteAndDelete(String line) {
        assertThat(GitArguments.writes(argv(line))).as(line).isTrue();
        assertThat(GitArguments.deletes(argv(line))).as(line).isTrue();
    }

    @Test
    void optionsUrlsAndRemoteHelpersNameNoPath() {
        assertThat(GitArguments.named("-p")).isEmpty();
        assertThat(GitArguments.named("https://host/x:y")).isEmpty();
        assertThat(GitArguments.named("ext::sh")).isEmpty();
        assertThat(GitArguments.named("plain/path")).isEmpty();
    }

    @Test
    void pathspecMagicNamesThePathFromTheTopOrFromTheDirectoryGitRunsIn() {
        assertThat(GitArguments.named(":(top)x")).containsExactly(new Named("x", true));
        assertThat(GitArguments.named(":(glob, top)x")).containsExactly(new Named("x", true));
        assertThat(GitArguments.named(":(glob)x")).containsExactly(new Named("x", false));
        // unclosed magic: both readings are judged
        assertThat(GitArguments.named(":(top")).containsExactly(new Named("top", true), new Named("top", false));
        assertThat(GitArguments.named(":/x")).containsExactly(new Named("x", true), new Named("x", true));
        assertThat(GitArguments.named(":!x")).containsExactly(new Named("x", false), new Named("!x", true));
        assertThat(GitArguments.named(":^/x")).containsExactly(new Named("x", true), new Named("^/x", true));
        assertThat(GitArguments.named(":/:x")).containsExactly(new Named("x", true), new Named(":x", true));
        assertThat(GitArguments.named(":/")).containsExactly(new Named("", true));
    }

    @Test
    void anIndexEntryIsNamedFromTheTop() {
        assertThat(GitArguments.named(":x")).containsExactly(new Named("x", false), new Named("x", true));
        assertThat(GitArguments.named(":0:x")).containsExactly(new Named("0:x", false), new Named("x", true));
        assertThat(GitArguments.named(":0")).containsExactly(new Named("0", false), new Named("0", true));
    }

    @Test
    void aRevisionPathIsFromTheTopUnlessItStartsWithADot() {
        assertThat(GitArguments.named("HEAD:x")).containsExactly(new Named("x", true));
        assertThat(GitArguments.named("HEAD:/x")).containsExactly(new Named("x", true));
        assertThat(GitArguments.named("HEAD://x")).isEmpty();
        assertThat(GitArguments.named("HEAD:")).isEmpty();
        assertThat(GitArguments.named("HEAD:./x")).containsExactly(new Named("./x", false));
        assertThat(GitArguments.named("HEAD:../x")).containsExactly(new Named("../x", false));
        assertThat(GitArguments.named("HEAD:.")).containsExactly(new Named(".", false));
        assertThat(GitArguments.named("HEAD:..")).containsExactly(new Named("..", false));
        assertThat(GitArguments.named("HEAD:.x")).containsExactly(new Named(".x", true));
    }
}
