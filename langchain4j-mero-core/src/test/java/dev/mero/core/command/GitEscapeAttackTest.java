package dev.mero.core.command;

import static dev.mero.core.command.Attacks.git;
import static dev.mero.core.command.Attacks.refused;
import static dev.mero.core.command.Attacks.repository;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * git, attacked with real repositories: URLs and remotes that name other places, a repository above the mount,
 * pathspec magic and {@code rev:path}, repository directories not named {@code .git}, and git writing where the
 * context grants only READ.
 */
class GitEscapeAttackTest {

    @TempDir
    Path tmp;
    Workspace w;
    SecurityContext context;
    Path outsideRepository;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tmp);
        outsideRepository = Files.createDirectories(w.outside.resolve("repo"));
        Files.writeString(outsideRepository.resolve("secret.txt"), "repository secret");
        repository(outsideRepository);
        context = w.context(Permission.READ, Permission.WRITE, Permission.EXECUTE, Permission.DELETE)
                .allowCommand("git").allowCommand("cp").allowCommand("mv").allowCommand("rm").allowCommand("cat")
                .build();
    }

    @Nested
    class Remotes {

        @ParameterizedTest
        @ValueSource(strings = {"git clone file://REPO copy", "git clone file://localhostREPO copy",
            "git clone FILE://REPO copy", "git ls-remote file://REPO", "git archive --remote=file://REPO HEAD",
            "git archive --remote=REPO HEAD", "git archive --remote REPO HEAD", "git clone REPO copy",
            "git fetch file://REPO", "git clone --reference=REPO https://example.invalid/x.git copy",
            "git remote add evil file://REPO", "git clone ../outside/repo copy"})
        void aRepositoryOutsideTheMountsIsRefusedHoweverItIsNamed(String template) {
            String repository = outsideRepository.toString();
            String line = template.replace("REPO", repository);

            refused(w, context, line, "/ws", "which it may not", List.of(repository));
            assertThat(w.ws.resolve("copy")).doesNotExist();
        }

        @Test
        void aPercentEncodedFileUrlIsDecodedBeforeItIsJudged() {
            String encoded = outsideRepository.toString().replace("/", "%2F").replaceFirst("%2F", "/");

            refused(w, context, "git clone file://" + encoded + " copy", "/ws", "which it may not",
                    List.of(outsideRepository.toString(), encoded));
        }

        @Test
        void aFileUrlOnAnotherHostIsRefused() {
            refused(w, context, "git clone file://example.invalid/srv/repo copy", "/ws", "a file on another host");
        }

        @ParameterizedTest
        @ValueSource(strings = {"git clone ssh://example.invalid/x.git copy", "git clone example.invalid:x.git copy",
            "git clone git@example.invalid:x.git", "git fetch example.invalid:x", "git pull --depth 1 host:x main",
            "git push --repo=example.invalid:x", "git remote add evil example.invalid:x",
            "git archive --remote=example.invalid:x HEAD", "git ls-remote git+ssh://example.invalid/x",
            "git ls-remote foo::bar", "git clone ext::sh copy"})
        void repositoriesReachedThroughSshOrARemoteHelperAreRefused(String line) {
            String text = refused(w, context, line, "/ws", "the ");

            assertThat(text).containsAnyOf("is reached through ssh", "uses a remote helper", "runs a command");
        }

        @Test
        void aSubmoduleUrlIsNeverFollowedWhenCloning() {
            refused(w, context, "git clone --recurse-submodules ../ws/x copy", "/ws", "submodules");
            refused(w, context, "git clone --recursive https://example.invalid/x.git copy", "/ws", "submodules");
        }
    }

    @Nested
    class RepositoryAboveTheMount {

        @BeforeEach
        void aRepositoryAroundEveryMount() {
            // the mounts live inside a bigger repository whose history holds the secret
            git(w.root, "init", "-q", "-b", "main");
            git(w.root, "add", "outside/secret.txt", "ws/notes.txt");
            git(w.root, "commit", "-q", "-m", "around");
        }

        @ParameterizedTest
        @ValueSource(strings = {"git show HEAD:../outside/secret.txt", "git show HEAD:./../outside/secret.txt",
            "git show HEAD:outside/secret.txt", "git show :outside/secret.txt", "git show :0:outside/secret.txt",
            "git grep -e secret -- :/", "git grep -e secret -- :/outside", "git rm -q :/outside/secret.txt",
            "git checkout HEAD -- :/outside/secret.txt", "git grep -e secret -- ':(top)outside'",
            "git grep -e secret -- ':(top,icase)outside'", "git rm --cached ../outside/secret.txt",
            "git checkout HEAD -- ../outside/secret.txt", "git grep -e secret -- ':!x' ../outside",
            "git grep -e secret -- ':(glob)../outside/*'", "git grep -e secret -- ':^x' :/"})
        void pathsAboveTheMountAreRefused(String line) {
            String text = refused(w, context, line, "/ws", "");

            assertThat(text).containsAnyOf("it leads outside every mounted entry",
                    "no repository lies inside the mounted entries");
            assertThat(w.outside.resolve("secret.txt")).hasContent("secret");
        }

        @ParameterizedTest
        @ValueSource(booleans = {true, false})
        void gitNeverFindsTheRepositoryAboveTheMount(boolean sandboxed) {
            SecurityContext running = sandboxed ? context : optedOut();
            CommandResult status = running.runCommand("git status", "/ws");
            CommandResult log = running.runCommand("git log -p", "/ws/sub");

            assertThat(status.succeeded()).isFalse();
            assertThat(status.stderr()).contains("not a git repository");
            assertThat(log.succeeded()).isFalse();
            assertThat(status.stdout() + status.stderr() + log.stdout() + log.stderr()).doesNotContain("secret")
                    .doesNotContain(w.root.toString());
        }

        @Test
        void theCeilingIsTheParentOfEveryMountSoARepositoryAtAMountRootIsStillFound() {
            // without the sandbox, git sees the host's directories: the ceilings are the entries' real parents
            SecurityContext optedOut = optedOut();
            assertThat(optedOut.checkCommand("git status", "/ws").environment())
                    .containsEntry("GIT_CEILING_DIRECTORIES", w.root.toString())
                    .containsEntry("GIT_DISCOVERY_ACROSS_FILESYSTEM", "0");
            // inside the sandbox, git sees each mount at /<slug>: the ceiling is their parent as it shows it
            assertThat(context.checkCommand("git status", "/ws").environment())
                    .containsEntry("GIT_CEILING_DIRECTORIES", "/")
                    .containsEntry("GIT_DISCOVERY_ACROSS_FILESYSTEM", "0");
            repository(w.ws);
            assertThat(optedOut.runCommand("git log --oneline", "/ws/sub").succeeded()).isTrue();
            assertThat(context.runCommand("git log --oneline", "/ws/sub").succeeded()).isTrue();
            assertThat(context.runCommand("git rev-parse --show-toplevel", "/ws/sub").stdout()).isEqualTo("/ws\n");
        }

        @Test
        void aNestedMountsCeilingIsItsContainersMountPointInsideTheSandbox() {
            SecurityContext nested = w.context().path(PathEntry.builder().path(w.ws.resolve("sub")).slug("inner")
                    .allow(Permission.READ, Permission.EXECUTE).build()).allowCommand("git").build();

            assertThat(nested.checkCommand("git status", "/ws").environment().get("GIT_CEILING_DIRECTORIES")
                    .split(":")).containsExactlyInAnyOrder("/", "/ws");
            assertThat(nested.runCommand("git status", "/inner").stderr()).contains("not a git repository");
        }

        private SecurityContext optedOut() {
            return w.context(Permission.READ, Permission.WRITE, Permission.EXECUTE, Permission.DELETE)
                    .allowCommand("git").commandSandbox(CommandSandbox.disabled()).build();
        }
    }

    @Nested
    class RepositoryAtTheMountRoot {

        @BeforeEach
        void aRepositoryInTheMount() {
            repository(w.ws);
        }

        @Test
        void pathsFromTheTopAndRevisionsInsideStillWork() {
            assertThat(context.runCommand("git show HEAD:notes.txt", "/ws/sub").stdout()).isEqualTo("notes");
            assertThat(context.runCommand("git show HEAD:../notes.txt", "/ws/sub").stdout()).isEqualTo("notes");
            assertThat(context.runCommand("git grep -e notes -- :/", "/ws/sub").stdout()).contains("notes.txt");
            assertThat(context.runCommand("git status --short", "/ws").succeeded()).isTrue();
        }

        @ParameterizedTest
        @ValueSource(strings = {"git show HEAD:private/key.txt", "git show HEAD:./private/key.txt",
            "git show :private/key.txt", "git grep -e key -- :/private", "git grep -e key -- ':(top)private'",
            "git log -p -- private"})
        void aPathTheContextDeniesCannotBeReadThroughTheRepository(String line) throws IOException {
            Path secret = Files.createDirectories(w.ws.resolve("private"));
            Files.writeString(secret.resolve("key.txt"), "key");
            git(w.ws, "add", "private/key.txt");
            git(w.ws, "commit", "-q", "-m", "key");
            SecurityContext denying = SecurityContext.builder().name("worker_1")
                    .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.EXECUTE))
                    .path(PathEntry.builder().path(secret.toString()).slug("private").deny(Permission.READ).build())
                    .allowCommand("git").build();

            refused(w, denying, line, "/ws", "is denied permission(s) ['READ'] by '/private'");
        }

        @ParameterizedTest
        @ValueSource(strings = {"git show HEAD:../outside/secret.txt", "git show HEAD:../../outside/secret.txt",
            "git grep -e x -- :/../outside", "git diff --no-index ../outside/secret.txt notes.txt"})
        void pathsOutsideTheWorkTreeAreRefused(String line) {
            refused(w, context, line, "/ws", "it leads outside every mounted entry");
        }
    }

    @Nested
    class RepositoryDirectories {

        @ParameterizedTest
        @ValueSource(strings = {"git init --separate-git-dir=gd repo", "git init --separate-git-dir gd repo",
            "git init --separate=gd repo", "git clone --separate-git-dir=gd ../outside/repo dst",
            "git clone --separate-git-dir gd https://example.invalid/x.git dst"})
        void aRepositoryDirectoryNotNamedGitIsNeverCreated(String line) {
            refused(w, context, line, "/ws", "puts the repository in a directory not named '.git'");
            assertThat(w.ws.resolve("gd")).doesNotExist();
        }

        @Test
        void anArchiveCannotPlantARepositoryConfiguration() throws IOException {
            repository(w.ws);
            Path archive = w.ws.resolve("evil.zip");
            try (java.util.zip.ZipOutputStream zip = new java.util.zip.ZipOutputStream(Files.newOutputStream(archive))) {
                zip.putNextEntry(new java.util.zip.ZipEntry(".git/config"));
                zip.write("[alias]\n\tst = !touch pwned\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                zip.closeEntry();
            }
            String config = Files.readString(w.ws.resolve(".git/config"));
            SecurityContext unzipping = w.context().allowCommand("unzip").build();

            refused(w, unzipping, "unzip -o evil.zip", "/ws", "writes files whose names come from inside its input");
            assertThat(w.ws.resolve(".git/config")).hasContent(config);
            assertThat(unzipping.runCommand("unzip -l evil.zip", "/ws").stdout()).contains(".git/config");
        }

        @Test
        void anyRepositoryDirectoryIsProtectedLikeDotGit() throws IOException {
            git(w.ws, "init", "-q", "--separate-git-dir=" + w.ws.resolve("gd"), w.ws.resolve("wt").toString());
            git(w.ws, "init", "-q", "--bare", "bare");
            Files.writeString(w.ws.resolve("evil-config"), "[alias]\n\tx = !touch pwned\n");

            for (String path : List.of("gd/config", "gd/hooks/pre-commit", "bare/config", "gd", "bare")) {
                assertThatThrownBy(() -> context.checkPathAccess(path, Permission.WRITE))
                        .isInstanceOf(PathAccessDeniedException.class)
                        .hasMessageContaining("is inside the git repository directory '/ws/")
                        .hasMessageNotContaining(w.root.toString());
            }
            refused(w, context, "cp evil-config gd/config", "/ws", "is inside the git repository directory '/ws/gd'");
            refused(w, context, "mv evil-config bare/config", "/ws", "is inside the git repository directory");
            refused(w, context, "rm -r gd", "/ws", "is inside the git repository directory '/ws/gd'");
            assertThat(context.runCommand("cat gd/HEAD", "/ws").stdout()).startsWith("ref: ");
            assertThat(context.checkPathAccess("wt/new.txt", Permission.WRITE).virtualPath()).isEqualTo("/ws/wt/new.txt");
        }
    }

    @Nested
    class GitChangesFiles {

        SecurityContext readOnlyDocs;

        @BeforeEach
        void docsReadableAndExecutable() {
            readOnlyDocs = SecurityContext.builder().name("worker_1")
                    .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.EXECUTE))
                    .path(PathEntry.of(w.docs.toString(), "docs", Permission.READ, Permission.EXECUTE))
                    .allowCommand("git").build();
        }

        @ParameterizedTest
        @ValueSource(strings = {"git init ../docs/newrepo", "git -C ../docs init", "git -C ../docs init newrepo",
            "git clone ../ws ../docs/copy"})
        void gitMayNotWriteIntoAReadOnlyMount(String line) {
            refused(w, readOnlyDocs, line, "/ws", "which it may not write");
            assertThat(w.docs.resolve("newrepo")).doesNotExist();
            assertThat(w.docs.resolve(".git")).doesNotExist();
        }

        @Test
        void gitInitInAReadOnlyWorkingDirectoryIsRefused() {
            refused(w, readOnlyDocs, "git init", "/docs", "names the path '.' (resolves to '/docs'), which it may not "
                    + "write");
            assertThat(w.docs.resolve(".git")).doesNotExist();
        }

        @Test
        void readingGitCommandsNeedOnlyRead() {
            repository(w.docs);

            assertThat(readOnlyDocs.runCommand("git log --oneline", "/docs").succeeded()).isTrue();
            assertThat(readOnlyDocs.runCommand("git show HEAD:guide.txt", "/docs").stdout()).isEqualTo("guide");
        }

        @Test
        void gitMayWriteWhereTheContextGrantsWrite() {
            assertThat(readOnlyDocs.runCommand("git init -q newrepo", "/ws").succeeded()).isTrue();
            assertThat(w.ws.resolve("newrepo/.git")).isDirectory();
        }

        @Test
        void evenWithoutTheGuardsGitConfigurationIsWrittenOnlyWhereWriteIsGranted() {
            repository(w.docs);
            SecurityContext unguarded = SecurityContext.builder().name("worker_1")
                    .path(PathEntry.of(w.docs.toString(), "docs", Permission.READ, Permission.EXECUTE))
                    .builtInArgumentGuards(false).allowCommand("git").build();

            refused(w, unguarded, "git config alias.x '!touch pwned'", "/docs", "which it may not write");
            refused(w, unguarded, "git submodule update --init", "/docs", "which it may not write");
            assertThat(unguarded.runCommand("git config --get core.bare", "/docs").stdout()).isEqualTo("false\n");
        }

        @Test
        void gitCommandsThatRemoveFilesNeedDelete() {
            repository(w.ws);

            refused(w, readOnlyDocs, "git rm -q notes.txt", "/ws", "which it may not change or delete");
            assertThat(w.ws.resolve("notes.txt")).exists();
            // 'git stash' alone, or with options only, is 'git stash push': it rewrites and removes files
            refused(w, readOnlyDocs, "git stash", "/ws", "which it may not change or delete");
            refused(w, readOnlyDocs, "git stash -a", "/ws", "which it may not change or delete");
        }
    }
}
