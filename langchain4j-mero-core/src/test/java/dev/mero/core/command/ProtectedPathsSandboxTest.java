package dev.mero.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Protected paths against real programs in the real bubblewrap sandbox: the sandbox alone (no policy check,
 * {@link CommandRunner#runInSandbox}) masks every protected file and directory, so {@code cat}, {@code grep -r},
 * {@code tar}, {@code cp -r}, {@code sort} and {@code diff} read nothing of them and cannot change them; the
 * policy's argument check refuses a protected path named on the command line, naming the pattern; and the search
 * for protected paths before a run is bounded and fails closed.
 */
class ProtectedPathsSandboxTest {

    @TempDir
    Path tmp;

    private Path ws;
    private Path docs;
    private String secret;
    private SecurityContext context;
    private SandboxView view;
    private final CommandRunner runner = CommandRunner.builder().build();

    @BeforeEach
    void setUp() throws IOException {
        Path root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        docs = Files.createDirectories(root.resolve("docs"));
        secret = "SECRET-" + UUID.randomUUID();
        write(ws.resolve("notes.txt"), "notes\n");
        write(ws.resolve("project/.env"), "API_TOKEN=" + secret + "\n");
        write(ws.resolve("project/keys/server.pem"), secret + "\n");
        write(ws.resolve("project/.ssh/id_ed25519"), secret + "\n");
        write(ws.resolve("project/src/app.txt"), "hello app\n");
        write(docs.resolve(".npmrc"), "//registry/:_authToken=" + secret + "\n");
        Files.createDirectories(ws.resolve("out"));
        Files.createSymbolicLink(ws.resolve("project/link.txt"), Path.of(".env"));
        Files.createSymbolicLink(ws.resolve("sshlink"), Path.of("project/.ssh"));
        context = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.DELETE,
                        Permission.EXECUTE))
                .path(PathEntry.of(docs.toString(), "docs", Permission.READ))
                .allowCommand("cat").allowCommand("grep").allowCommand("tar").allowCommand("cp")
                .allowCommand("sort").allowCommand("diff")
                .build();
        view = SandboxView.of(context.paths(), context.permissions()).protecting(context::protectedPattern);
    }

    private static void write(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    private CommandResult inSandbox(String... argv) {
        CommandResult result = runner.runInSandbox(CommandSandbox.required(), view, "/ws", List.of(argv),
                Duration.ofSeconds(30));
        assertThat(result.stdout() + result.stderr()).as(String.join(" ", argv)).doesNotContain(secret);
        return result;
    }

    @Test
    void programsInTheSandboxReadNothingOfProtectedFiles() {
        CommandResult cat = inSandbox("/usr/bin/cat", "/ws/project/.env", "/ws/project/link.txt",
                "/ws/project/keys/server.pem", "/ws/sshlink/id_ed25519", "/docs/.npmrc");
        assertThat(cat.stdout()).isEmpty();
        CommandResult grep = inSandbox("/usr/bin/grep", "-r", "-a", "", "/ws", "/docs");
        assertThat(grep.stdout()).contains("/ws/notes.txt:notes", "/ws/project/src/app.txt:hello app")
                .doesNotContain("API_TOKEN", "_authToken");
        CommandResult names = inSandbox("/usr/bin/grep", "-r", "-l", "SECRET", "/ws", "/docs");
        assertThat(names.stdout()).as(names.stderr()).isEmpty();
        assertThat(names.exitCode()).as(names.stderr()).isEqualTo(1);
        assertThat(inSandbox("/usr/bin/sort", "/ws/project/.env", "/ws/project/keys/server.pem", "/ws/notes.txt")
                .stdout()).isEqualTo("notes\n");
        assertThat(inSandbox("/usr/bin/diff", "/ws/project/.env", "/ws/notes.txt").stdout())
                .contains("> notes").doesNotContain("API_TOKEN");
        assertThat(inSandbox("/usr/bin/ls", "-A", "/ws/project/.ssh").stdout()).isEmpty();
        assertThat(inSandbox("/usr/bin/wc", "-c", "/ws/project/.env").stdout()).isEqualTo("0 /ws/project/.env\n");
    }

    @Test
    void archivesAndCopiesMadeInTheSandboxHoldNoSecret() {
        inSandbox("/usr/bin/tar", "-cf", "/ws/out/all.tar", "-C", "/ws", "project", "sshlink");
        inSandbox("/usr/bin/tar", "-chf", "/ws/out/followed.tar", "-C", "/ws", "project", "sshlink");
        inSandbox("/usr/bin/cp", "-r", "/ws/project", "/ws/out/copy");
        inSandbox("/usr/bin/cp", "-rL", "/ws/project", "/ws/out/followed");
        assertThat(ws.resolve("out/all.tar")).isNotEmptyFile();
        assertThat(ws.resolve("out/copy/src/app.txt")).hasContent("hello app\n");
        assertThat(filesHolding(ws.resolve("out"))).isEmpty();
    }

    @Test
    void programsInTheSandboxCannotChangeRemoveOrMoveProtectedFiles() {
        Map<String, String> before = contents(ws.resolve("project"));
        inSandbox("/bin/sh", "-c", "rm -rf /ws/project/.env /ws/project/.ssh; mv /ws/project/keys/server.pem /ws/out/;"
                + " echo replaced > /ws/project/.env; echo added > /ws/project/.ssh/new; cp /ws/notes.txt "
                + "/ws/project/keys/server.pem");
        assertThat(contents(ws.resolve("project"))).containsAllEntriesOf(before);
        assertThat(ws.resolve("out/server.pem")).doesNotExist();
        assertThat(ws.resolve("project/.ssh/new")).doesNotExist();
    }

    @Test
    void thePolicyRefusesAProtectedPathNamedAsAnArgumentAndNamesThePattern() {
        for (String[] line : new String[][] {
            {"cat /ws/project/.env", "/ws", ".env"},
            {"cat project/link.txt", "/ws", ".env"},
            {"sort keys/server.pem", "/ws/project", "*.pem"},
            {"grep -r TOKEN /ws/sshlink", "/ws", ".ssh"},
            {"cp /docs/.npmrc /ws/out/npmrc", "/ws", ".npmrc"},
            {"diff /ws/notes.txt /ws/project/.ssh/id_ed25519", "/ws", ".ssh"}}) {
            MeroToolsException refusal = catchThrowableOfType(() -> context.runCommand(line[0], line[1]),
                    MeroToolsException.class);
            assertThat(refusal).as(line[0]).isNotNull();
            assertThat(refusal.toModelText()).as(line[0]).startsWith("Denied: ")
                    .contains("protected by the pattern '" + line[2] + "'").doesNotContain(secret);
        }
        assertThat(ws.resolve("out/npmrc")).doesNotExist();
    }

    @Test
    void allowedCommandsOverWholeMountsRunAndReadNothingProtected() {
        List<String> outputs = new ArrayList<>();
        for (String[] line : new String[][] {
            {"grep -r -a -e . /ws /docs", "/ws"},
            {"tar -cf /ws/out/project.tar project", "/ws"},
            {"cp -r /ws/project /ws/out/copy", "/ws"},
            {"diff -r --no-dereference /ws/project /ws/out/copy", "/ws"},
            {"sort /ws/notes.txt /ws/project/src/app.txt", "/ws"}}) {
            CommandResult result = context.runCommand(line[0], line[1]);
            outputs.add(result.stdout() + result.stderr());
        }
        assertThat(outputs.get(0)).contains("/ws/project/src/app.txt:hello app");
        assertThat(outputs).noneMatch(output -> output.contains(secret));
        assertThat(ws.resolve("out/copy/src/app.txt")).hasContent("hello app\n");
        assertThat(filesHolding(ws.resolve("out"))).isEmpty();
    }

    @Test
    void theMasksCoverProtectedFilesAndDirectoriesWhereverTheyAreVisible() {
        List<String> arguments = ProtectedMasks.arguments(view);
        String empty = EmptyFile.path().toString();
        assertThat(String.join(" ", arguments)).contains(
                "--ro-bind " + empty + " /ws/project/.env",
                "--ro-bind " + empty + " /ws/project/keys/server.pem",
                "--tmpfs /ws/project/.ssh --remount-ro /ws/project/.ssh",
                "--ro-bind " + empty + " /docs/.npmrc")
                .doesNotContain("link.txt", "sshlink", "id_ed25519", "app.txt");
        assertThat(arguments).hasSize(4 * 3 + 1);
        assertThat(ProtectedMasks.arguments(SandboxView.of(context.paths(), context.permissions()))).isEmpty();
        SecurityContext open = SecurityContext.builder().defaultProtectedPaths(false)
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ)).build();
        assertThat(ProtectedMasks.arguments(SandboxView.of(open.paths(), open.permissions())
                .protecting(open::protectedPattern))).isEmpty();
    }

    @Test
    void aNestedMountIsMaskedUnderEachOfItsMountPoints() throws IOException {
        SecurityContext nested = SecurityContext.builder().name("worker_1")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ))
                .path(PathEntry.of(ws.resolve("project/keys").toString(), "keys", Permission.READ))
                .build();
        List<String> arguments = ProtectedMasks.arguments(SandboxView.of(nested.paths(), nested.permissions())
                .protecting(nested::protectedPattern));
        String empty = EmptyFile.path().toString();
        // the outer mount's search does not enter the nested one: each file is masked once per mount point
        assertThat(arguments.stream().filter(argument -> argument.endsWith("server.pem")))
                .containsExactlyInAnyOrder("/keys/server.pem", "/ws/project/keys/server.pem");
        assertThat(String.join(" ", arguments)).contains("--ro-bind " + empty + " /keys/server.pem");
    }

    @Test
    void aLinkNamedLikeAProtectedFileIsNotMaskedItsTargetIsJudgedOnItsOwnName() throws IOException {
        Files.createSymbolicLink(ws.resolve("out/.env"), Path.of("../notes.txt"));
        assertThat(String.join(" ", ProtectedMasks.arguments(view))).doesNotContain("/ws/out/.env");
        assertThat(inSandbox("/usr/bin/cat", "/ws/notes.txt", "/ws/out/.env").stdout()).isEqualTo("notes\nnotes\n");
    }

    @Test
    void theEmptyFileIsMadeAgainWhenSomethingRemovedOrFilledIt() throws IOException {
        Path first = EmptyFile.path();
        assertThat(first).isEmptyFile().isReadable();
        assertThat(Files.getPosixFilePermissions(first))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("r--r--r--"));
        Files.delete(first);
        Path second = EmptyFile.path();
        assertThat(second).isEmptyFile();
        assertThat(EmptyFile.path()).isEqualTo(second);
    }

    @Test
    void tooManyEntriesToSearchRefuseTheRunInsteadOfLeavingAProtectedFileUnmasked() throws IOException {
        Path many = Files.createDirectories(ws.resolve("many"));
        for (int i = 0; i < 120; i++) {
            Files.writeString(many.resolve("f" + i + ".txt"), "x");
        }
        assertThatThrownBy(() -> ProtectedMasks.arguments(view, 100, 60_000))
                .isInstanceOf(CommandDeniedException.class)
                .hasMessage("The command cannot run: its mounts hold too many entries to find every protected file "
                        + "within the bound (100 entries, 60000 ms) before the run, and the sandbox must hide them "
                        + "all. Nothing ran; ask the operator to mount smaller directories.");
        assertThat(ProtectedMasks.arguments(view, 1000, 60_000)).contains("/ws/project/.env");
        assertThatThrownBy(() -> ProtectedMasks.arguments(view, 1000, -1))
                .isInstanceOf(CommandDeniedException.class).hasMessageContaining("(1000 entries, -1 ms)");
        assertThat(ProtectedMasks.MAX_ENTRIES).isEqualTo(50_000);

        // the bound is exact: three entries fit a bound of three
        Path small = Files.createDirectories(tmp.resolve("small"));
        Files.writeString(small.resolve(".env"), secret);
        Files.writeString(small.resolve("a.txt"), "a");
        Files.createDirectories(small.resolve("dir"));
        SecurityContext three = SecurityContext.builder().path(PathEntry.of(small.toString(), "s", Permission.READ))
                .build();
        SandboxView smallView = SandboxView.of(three.paths(), three.permissions()).protecting(three::protectedPattern);
        assertThat(ProtectedMasks.arguments(smallView, 3, 60_000)).hasSize(3);
        assertThatThrownBy(() -> ProtectedMasks.arguments(smallView, 2, 60_000))
                .isInstanceOf(CommandDeniedException.class);
    }

    /** Regular files below a directory that hold the secret, by path. */
    private Map<String, Path> filesHolding(Path directory) {
        Map<String, Path> holding = new TreeMap<>();
        for (Map.Entry<String, String> file : contents(directory).entrySet()) {
            if (file.getValue().contains(secret)) {
                holding.put(file.getKey(), directory.resolve(file.getKey()));
            }
        }
        return holding;
    }

    /** Every regular file below a directory with its content, links not followed. */
    private static Map<String, String> contents(Path directory) {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : paths.toList()) {
                if (Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)) {
                    files.put(directory.relativize(path).toString(),
                            new String(Files.readAllBytes(path), StandardCharsets.ISO_8859_1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
