package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.Fifos;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.policy.SecurityPolicy;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.ProviderMismatchException;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A platform whose JDK has no {@link java.nio.file.SecureDirectoryStream} (macOS, musl), forced on Linux: by default
 * every file tool refuses, saying why; a context that opted in to the weaker mode reads, writes and lists by path,
 * still refuses links, {@code ..}, pipes and protected files, and its audit says the weaker mode decided.
 */
class WeakerPathOpensTest {

    private static ConfinedCalls confined;
    private static boolean jdkStreams;

    @TempDir
    Path temp;
    OpsWorkspace w;
    final List<AuditEvent> events = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void forceNoSecureDirectoryStream() {
        confined = ConfinedCalls.Selected.calls;
        jdkStreams = DirectoryAccess.jdkStreams;
        // the openat2 layer (Java 25) would read without the JDK's streams: take it away too
        ConfinedCalls.Selected.calls = ConfinedCalls.NONE;
        DirectoryAccess.jdkStreams = false;
        // and the foreign-function layer's directories (Java 25): the weaker mode is for a JDK 17 without either
        DirectoryAccess.portableStreams = false;
    }

    @AfterAll
    static void restore() {
        ConfinedCalls.Selected.calls = confined;
        DirectoryAccess.jdkStreams = jdkStreams;
        DirectoryAccess.portableStreams = true;
    }

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        Files.createDirectories(w.ws.resolve("sub"));
        Files.writeString(w.ws.resolve("sub/deep.txt"), "deep\n");
    }

    private MeroOperations ops(boolean weaker) {
        return MeroOperations.forContext(w.contextBuilder().weakerPathOpens(weaker)
                .auditLog(AuditLog.builder().sink(events::add).build()).build());
    }

    private List<AuditEvent> weakerOpens() {
        return events.stream().filter(e -> e.reason().orElse("").equals(WeakerPathOpens.AUDIT_REASON)).toList();
    }

    @Test
    void byDefaultEveryFileToolRefusesAndSaysWhy() {
        MeroOperations ops = ops(false);
        List<String> before = w.snapshot();
        assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/notes.txt\"}"))
                .startsWith("Error: ").contains(DirectoryAccess.NO_SECURE_ACCESS).doesNotContain(w.root.toString());
        assertThat(OpsWorkspace.modelText(ops, "write_file", "{\"path\":\"/ws/new.txt\",\"content\":\"x\"}"))
                .startsWith("Error: ").contains(DirectoryAccess.NO_SECURE_ACCESS);
        assertThat(OpsWorkspace.modelText(ops, "list_directory", "{\"path\":\"/ws\"}"))
                .startsWith("Error: ").contains(DirectoryAccess.NO_SECURE_ACCESS);
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(weakerOpens()).isEmpty();
    }

    @Test
    void optedInReadsWritesListsAndMovesByPathAndTheAuditSaysSo() {
        MeroOperations ops = ops(true);
        assertThat(ops.call("read_file", "{\"path\":\"/ws/notes.txt\"}")).contains("hello notes");
        assertThat(weakerOpens()).hasSize(1).first().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AuditEventType.ALLOWED);
            assertThat(e.contextName()).contains("test");
            // the directory the operation walked to, host path and all: the audit is the operator's
            assertThat(e.subject()).contains(w.ws.toString());
        });
        assertThat(OpsWorkspace.modelText(ops, "write_file", "{\"path\":\"/ws/sub/new.txt\",\"content\":\"made\"}"))
                .doesNotStartWith("Error").doesNotStartWith("Denied");
        assertThat(w.ws.resolve("sub/new.txt")).hasContent("made");
        assertThat(ops.call("list_directory", "{\"path\":\"/ws/sub\"}")).contains("deep.txt").contains("new.txt");
        assertThat(ops.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"**/*.txt\"}"))
                .contains("deep.txt").contains("notes.txt");
        assertThat(OpsWorkspace.modelText(ops, "move_file",
                "{\"source\":\"/ws/sub/new.txt\",\"destination\":\"/ws/moved.txt\"}")).doesNotStartWith("Error");
        assertThat(w.ws.resolve("moved.txt")).hasContent("made");
        assertThat(OpsWorkspace.modelText(ops, "delete_file", "{\"path\":\"/ws/moved.txt\"}"))
                .doesNotStartWith("Error");
        assertThat(w.ws.resolve("moved.txt")).doesNotExist();
        assertThat(weakerOpens()).hasSizeGreaterThanOrEqualTo(5);
    }

    @Test
    void optedInStillRefusesLinksDotDotPipesAndProtectedFiles() throws Exception {
        MeroOperations ops = ops(true);
        Files.createSymbolicLink(w.ws.resolve("out"), w.outside);
        Files.createSymbolicLink(w.ws.resolve("secret.txt"), w.outside.resolve("secret.txt"));
        Files.writeString(w.ws.resolve(".env"), "TOKEN=hunter2\n");
        Fifos.mkfifo(w.ws.resolve("pipe"));
        List<String> before = w.snapshot();
        assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/out/secret.txt\"}"))
                .startsWith("Denied: ").doesNotContain("top secret");
        assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/secret.txt\"}"))
                .startsWith("Denied: ").doesNotContain("top secret");
        assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/../outside/secret.txt\"}"))
                .startsWith("Denied: ").doesNotContain("top secret");
        assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/.env\"}"))
                .startsWith("Denied: ").doesNotContain("hunter2");
        assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/pipe\"}")).startsWith("Error: ");
        assertThat(OpsWorkspace.modelText(ops, "write_file", "{\"path\":\"/ws/pipe\",\"content\":\"x\"}"))
                .startsWith("Error: ");
        assertThat(OpsWorkspace.modelText(ops, "write_file", "{\"path\":\"/ws/out/new.txt\",\"content\":\"x\"}"))
                .startsWith("Denied: ");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void aContextThatDidNotOptInNeverUsesAnotherContextsPermission() {
        MeroOperations weaker = ops(true);
        MeroOperations strict = ops(false);
        assertThat(weaker.call("read_file", "{\"path\":\"/ws/notes.txt\"}")).contains("hello notes");
        assertThat(OpsWorkspace.modelText(strict, "read_file", "{\"path\":\"/ws/notes.txt\"}"))
                .contains(DirectoryAccess.NO_SECURE_ACCESS);
        assertThat(weaker.call("read_file", "{\"path\":\"/ws/sub/deep.txt\"}")).contains("deep");
    }

    @Test
    void thePolicyFileTurnsItOnAndLeavesItOffByDefault() throws IOException {
        String paths = "paths:\n  - path: " + w.ws + "\n    slug: ws\n    allow: [READ]\n";
        Path on = Files.writeString(temp.resolve("on.yaml"), paths + "weaker_path_opens: true\n");
        Path off = Files.writeString(temp.resolve("off.yaml"), paths);
        assertThat(SecurityPolicy.load(on).weakerPathOpens()).isTrue();
        assertThat(SecurityPolicy.load(off).weakerPathOpens()).isFalse();
        assertThat(MeroOperations.forContext(SecurityPolicy.load(on)).call("read_file",
                "{\"path\":\"/ws/notes.txt\"}")).contains("hello notes");
    }

    @Test
    void aDirectoryOpenedByPathIsNeverKeptForOtherOperations() {
        int kept = MountRoots.openCount();
        assertThat(ops(true).call("read_file", "{\"path\":\"/ws/notes.txt\"}")).contains("hello notes");
        assertThat(MountRoots.openCount()).isEqualTo(kept);
    }

    @Test
    void theDirectoryByPathRefusesWhatItsSecureCounterpartRefuses() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("dir-link"), w.ws.resolve("sub"));
        try (PathDirectoryStream ws = PathDirectoryStream.open(w.ws);
             PathDirectoryStream docs = PathDirectoryStream.open(w.docs)) {
            assertThat(ws.getFileAttributeView(BasicFileAttributeView.class).readAttributes().isDirectory()).isTrue();
            assertThatThrownBy(() -> ws.newDirectoryStream(Path.of("dir-link"), LinkOption.NOFOLLOW_LINKS))
                    .isInstanceOf(NotDirectoryException.class);
            assertThatThrownBy(() -> ws.newDirectoryStream(Path.of("notes.txt")))
                    .isInstanceOf(NotDirectoryException.class);
            assertThatThrownBy(() -> ws.deleteFile(Path.of("sub"))).isInstanceOf(FileSystemException.class)
                    .hasMessageContaining("Is a directory");
            assertThatThrownBy(() -> ws.deleteDirectory(Path.of("notes.txt")))
                    .isInstanceOf(NotDirectoryException.class);
            assertThatThrownBy(() -> ws.deleteDirectory(Path.of("dir-link")))
                    .isInstanceOf(NotDirectoryException.class);
            assertThat(w.ws.resolve("sub")).isDirectory();
            assertThat(w.ws.resolve("dir-link")).isSymbolicLink();
            ws.deleteFile(Path.of("dir-link"));
            assertThat(w.ws.resolve("dir-link")).doesNotExist();
            assertThat(w.ws.resolve("sub/deep.txt")).exists();
            Files.writeString(w.docs.resolve("replaced.md"), "old");
            ws.move(Path.of("notes.txt"), docs, Path.of("replaced.md"));
            assertThat(w.docs.resolve("replaced.md")).hasContent("hello notes");
            try (SecureDirectoryStream<Path> sub = ws.newDirectoryStream(Path.of("sub"));
                 DirectoryStream<Path> jdk = Files.newDirectoryStream(w.docs)) {
                // another implementation, such as the JDK's own, is never a rename's target
                assertThatThrownBy(() -> ws.move(Path.of("sub"), (SecureDirectoryStream<Path>) jdk, Path.of("x")))
                        .isInstanceOf(ProviderMismatchException.class);
                sub.deleteFile(Path.of("deep.txt"));
            }
            ws.deleteDirectory(Path.of("sub"));
            assertThat(w.ws.resolve("sub")).doesNotExist();
        }
        PathDirectoryStream closed = PathDirectoryStream.open(w.ws);
        closed.close();
        assertThatThrownBy(closed::iterator).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aNarrowedContextKeepsItsParentsChoice() {
        SecurityContext parent = w.contextBuilder().weakerPathOpens(true).build();
        assertThat(parent.narrow("child").build().weakerPathOpens()).isTrue();
        assertThat(w.contextBuilder().build().narrow("child").build().weakerPathOpens()).isFalse();
    }
}
