package dev.mero.core;

import dev.mero.core.guard.Operation;

import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.approval.ApprovalBackends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dropping entries when narrowing must not widen what the kept entries allow. */
class NarrowingDroppedEntriesTest {

    @TempDir
    Path tmp;

    Path ws;
    Path vault;

    @BeforeEach
    void setUp() throws IOException {
        Path root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        vault = Files.createDirectories(root.resolve("vault"));
        Files.writeString(ws.resolve("a.txt"), "a");
        Files.writeString(vault.resolve("v.txt"), "v");
    }

    @Test
    void droppingANestedEntryDoesNotWidenTheOuterOne() throws IOException {
        Path secret = Files.createDirectories(ws.resolve("secret"));
        SecurityContext manager = SecurityContext.builder().name("manager")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE))
                .path(PathEntry.builder().path(secret.toString()).slug("secret").allow(READ).build())
                .build();
        assertThatThrownBy(() -> manager.checkPathAccess("/ws/secret/x.txt", WRITE))
                .isInstanceOf(PermissionDeniedException.class);

        SecurityContext worker = manager.narrow("worker").paths("ws").build();

        assertThatThrownBy(() -> worker.checkPathAccess("/ws/secret/x.txt", WRITE))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessage("Path '/ws/secret/x.txt' is denied permission(s) ['WRITE'] by '/secret' in context 'worker'.");
    }

    @Test
    void droppingAnOuterEntryKeepsItsDenyRules() throws IOException {
        Path sub = Files.createDirectories(ws.resolve("sub"));
        SecurityContext manager = SecurityContext.builder().name("manager")
                .path(PathEntry.builder().path(ws.toString()).slug("ws").allow(READ, WRITE).deny(WRITE).build())
                .path(PathEntry.of(sub.toString(), "sub", READ, WRITE))
                .build();
        assertThatThrownBy(() -> manager.checkPathAccess("/sub/x.txt", WRITE))
                .isInstanceOf(PathAccessDeniedException.class);

        SecurityContext worker = manager.narrow("worker").paths("sub").build();

        assertThatThrownBy(() -> worker.checkPathAccess("/sub/x.txt", WRITE))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessage("Path '/sub/x.txt' is denied permission(s) ['WRITE'] by '/sub' in context 'worker'.");
    }

    @Test
    void droppingAnOuterEntryKeepsItsApprovalRequirements() throws IOException {
        Path sub = Files.createDirectories(ws.resolve("sub"));
        SecurityContext manager = SecurityContext.builder().name("manager")
                .path(PathEntry.builder().path(ws.toString()).slug("ws").allow(READ, WRITE).requireApproval(WRITE).build())
                .path(PathEntry.of(sub.toString(), "sub", READ, WRITE))
                .approval(ApprovalBackends.alwaysDeny())
                .build();
        assertThatThrownBy(() -> manager.guard(Operation.FILE_WRITE, "/sub/x.txt"))
                .isInstanceOf(ApprovalDeniedException.class);

        SecurityContext worker = manager.narrow("worker").paths("sub").build();

        assertThatThrownBy(() -> worker.guard(Operation.FILE_WRITE, "/sub/x.txt"))
                .isInstanceOf(ApprovalDeniedException.class);
    }

    @Test
    void narrowingDoesNotFollowAMountSymlinkRepointedAfterTheParentWasBuilt() throws IOException {
        Path link = Files.createSymbolicLink(tmp.resolve("link"), ws);
        SecurityContext manager = SecurityContext.builder().name("manager")
                .path(PathEntry.of(link.toString(), "ws", READ, WRITE))
                .build();
        Files.delete(link);
        Files.createSymbolicLink(link, vault);

        SecurityContext worker = manager.narrow("worker").build();

        assertThat(worker.checkPathAccess("/ws/a.txt", READ).realPath()).isEqualTo(ws.resolve("a.txt"));
    }
}
