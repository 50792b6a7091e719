package dev.mero.core.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mero.core.MeroToolsException;
import dev.mero.core.guard.Operation;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Denials name virtual paths only: whatever a path or command is refused for, the text the model receives
 * holds no host path and no link target, while the audit log keeps them for operators.
 */
class HostPathLeakTest {

    @TempDir
    Path tmp;
    Workspace w;
    List<AuditEvent> events;
    SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tmp);
        Files.createSymbolicLink(w.ws.resolve("loop"), w.ws.resolve("loop"));
        events = new CopyOnWriteArrayList<>();
        context = w.context().auditLog(AuditLog.builder().sink(events::add).build())
                .allowCommand("cat").allowCommand("ls").allowCommand("tar").allowCommand("ln").allowCommand("git")
                .allowCommand("cp").build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"link", "/ws/link", "dirlink/secret.txt", "../outside/secret.txt", "/ws/../outside",
        "dangling", "dangling/x", "loop", "sub/../../outside/secret.txt"})
    void aFileDenialNamesNoHostPath(String path) {
        MeroToolsException denial = catchThrowableOfType(MeroToolsException.class,
                () -> context.guard(Operation.FILE_READ, path));

        assertNoHostPathForTheModel(denial);
        assertThat(denial.toModelText()).contains(dev.mero.core.message.Messages.quote(path));
    }

    @Test
    void theLinkTargetGoesToTheAuditLogOnly() {
        MeroToolsException denial = catchThrowableOfType(MeroToolsException.class,
                () -> context.guard(Operation.FILE_READ, "/ws/link"));

        assertThat(denial.getMessage()).isEqualTo("Path '/ws/link' (resolves outside the mounted entries) is not "
                + "covered by any PathEntry in context 'worker_1'.");
        AuditEvent denied = deniedEvent();
        assertThat(denied.reason()).contains(denial.getMessage());
        assertThat(denied.detail()).contains("resolves to '" + w.outside.resolve("secret.txt") + "'");
        assertThat(denied.toString()).contains(w.outside.resolve("secret.txt").toString());
    }

    @Test
    void aDanglingLinkIsNamedByItsVirtualPath() {
        MeroToolsException denial = catchThrowableOfType(MeroToolsException.class,
                () -> context.guard(Operation.FILE_WRITE, "dangling"));

        assertThat(denial.getMessage()).isEqualTo("Path 'dangling' goes through the symbolic link '/ws/dangling', "
                + "whose target does not exist or loops; such a link is never followed or written through in context "
                + "'worker_1'.");
        assertThat(deniedEvent().detail()).contains("symbolic link '" + w.ws.resolve("dangling") + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"cat link", "cat dangling", "cat dirlink/x", "ls -R dirlink", "tar -C dirlink -cf - .",
        "tar -cf - -Cdirlink .", "cat ../outside/secret.txt", "cat sub/../../outside/secret.txt",
        "cp notes.txt dirlink", "ln -s ../outside/secret.txt sub/../planted", "ln -s ../../outside/x sub/planted",
        "git -C dirlink status", "cat loop", "git show HEAD:../outside/secret.txt", "cat file:../outside/secret.txt",
        "cat dangling/x", "tar -C sub -cf - ../../outside"})
    void aCommandDenialNamesNoHostPath(String line) {
        MeroToolsException denial = catchThrowableOfType(MeroToolsException.class,
                () -> context.guardCommand(line, "/ws"));

        assertNoHostPathForTheModel(denial);
        assertThat(denial.toModelText()).startsWith("Denied: Command " + dev.mero.core.message.Messages.quote(line));
        assertThat(deniedEvent().detail()).hasValueSatisfying(detail -> assertThat(detail)
                .contains(w.root.getParent().toString()));
    }

    @Test
    void aCommandDenialShowsTheVirtualPathWhereALinkLeadsInside() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("guide"), w.docs.resolve("guide.txt"));

        MeroToolsException denial = catchThrowableOfType(MeroToolsException.class,
                () -> context.guardCommand("cp notes.txt guide", "/ws"));

        assertThat(denial.getMessage()).isEqualTo("Command 'cp notes.txt guide' names the path 'guide' (resolves to "
                + "'/docs/guide.txt'), which it may not write: '/docs' in context 'worker_1' lacks permission(s) "
                + "['WRITE'] for '/docs/guide.txt' (allows: ['READ']).");
    }

    @Test
    void commandOutputShowsTheMountsVirtualPaths() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("guide"), w.docs.resolve("guide.txt"));
        SecurityContext running = w.context().allowCommand("pwd").allowCommand("ls").allowCommand("cat")
                .allowCommand("readlink").build();

        assertThat(running.runCommand("pwd", "/ws/sub").stdout()).isEqualTo("/ws/sub\n");
        assertThat(running.runCommand("readlink guide", "/ws").stdout()).isEqualTo("/docs/guide.txt\n");
        assertThat(running.runCommand("ls -l guide", "/ws").stdout()).endsWith("guide -> /docs/guide.txt\n");
        CommandResult missing = running.runCommand("cat " + w.ws.resolve("missing.txt"), "/ws");
        assertThat(missing.toModelText()).contains("/ws/missing.txt").doesNotContain(w.root.toString());
    }

    @Test
    void aDirectoryThatOnlyStartsLikeAMountIsLeftAlone() throws IOException {
        Path sibling = Files.createDirectories(w.root.resolve("ws2"));
        Files.writeString(w.ws.resolve("where.txt"), sibling + "/x and " + w.ws + "/x and " + w.ws);
        SecurityContext running = w.context().allowCommand("cat").build();

        assertThat(running.runCommand("cat where.txt", "/ws").stdout())
                .isEqualTo(sibling + "/x and /ws/x and /ws");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aProgramThatCannotRunIsNamedAsTheAgentWroteIt(boolean sandboxed) throws IOException {
        Path bin = Files.createDirectories(w.root.resolve("tools/bin"));
        Path noInterpreter = Files.writeString(bin.resolve("build"), "echo no interpreter line\n");
        Files.setPosixFilePermissions(noInterpreter, java.nio.file.attribute.PosixFilePermissions.fromString("r-xr-xr-x"));
        SecurityContext withTools = w.context()
                .path(dev.mero.core.PathEntry.of(w.root.resolve("tools").toString(), "tools",
                        dev.mero.core.Permission.READ))
                .commandSearchPath(bin.toRealPath() + ":/usr/bin:/bin").allowCommand("build")
                .commandSandbox(sandboxed ? CommandSandbox.required() : CommandSandbox.disabled()).build();

        MeroToolsException failure = catchThrowableOfType(MeroToolsException.class,
                () -> withTools.runCommand("build", "/ws"));

        assertThat(failure).isNotNull();
        assertThat(failure.toModelText()).contains("Program 'build'").contains("'#!'")
                .doesNotContain(w.root.toString());
    }

    @Test
    void aSandboxRefusalNamesNoHostPath() throws IOException {
        Path missing = w.root.resolve("nowhere/bwrap");
        SecurityContext noSandbox = w.context().allowCommand("cat").auditLog(AuditLog.builder().sink(events::add).build())
                .commandSandbox(CommandSandbox.builder().bubblewrap(missing).build()).build();

        MeroToolsException denial = catchThrowableOfType(MeroToolsException.class,
                () -> noSandbox.runCommand("cat notes.txt", "/ws"));

        assertNoHostPathForTheModel(denial);
        assertThat(deniedEvent().detail()).hasValueSatisfying(detail -> assertThat(detail).contains(missing.toString()));
    }

    private void assertNoHostPathForTheModel(MeroToolsException denial) {
        assertThat(denial).isNotNull();
        assertThat(denial.isDenial()).isTrue();
        assertThat(denial.toModelText()).doesNotContain(w.root.toString());
        assertThat(deniedEvent().reason()).hasValueSatisfying(reason -> assertThat(reason)
                .doesNotContain(w.root.toString()));
    }

    private AuditEvent deniedEvent() {
        return events.stream().filter(e -> e.type() == AuditEventType.DENIED).reduce((a, b) -> b).orElseThrow();
    }
}
