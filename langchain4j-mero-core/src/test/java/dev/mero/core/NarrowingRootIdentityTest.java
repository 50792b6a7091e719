package dev.mero.core;

import dev.mero.core.guard.Operation;

import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A child keeps its parent's resolved mounts; a mount root that changed is refused in parent and child alike. */
class NarrowingRootIdentityTest {

    @TempDir
    Path tmp;

    Path root;
    Path ws;
    Path elsewhere;
    SecurityContext parent;

    @BeforeEach
    void setUp() throws IOException {
        root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        elsewhere = Files.createDirectories(root.resolve("elsewhere"));
        Files.writeString(ws.resolve("a.txt"), "mounted");
        Files.writeString(elsewhere.resolve("a.txt"), "secret");
        parent = SecurityContext.builder().name("manager")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE))
                .build();
    }

    @Test
    void theChildKeepsTheParentsResolvedEntryAsItIs() {
        SecurityContext child = parent.narrow("worker").allow("ws", READ).build();

        assertThat(child.paths().get(0).realPath()).isEqualTo(parent.paths().get(0).realPath());
        assertThat(child.paths().get(0).path()).isEqualTo(parent.paths().get(0).path());
        assertThat(child.checkPathAccess("/ws/a.txt", READ).realPath()).isEqualTo(ws.resolve("a.txt"));
    }

    @Test
    void aRootTurnedIntoALinkElsewhereIsRefusedByParentAndChild() throws IOException {
        Files.move(ws, root.resolve("ws-old"));
        Files.createSymbolicLink(ws, elsewhere);

        SecurityContext child = parent.narrow("worker").build();

        for (SecurityContext context : new SecurityContext[] {parent, child}) {
            assertThatThrownBy(() -> context.checkPathAccess("/ws/a.txt", READ)).as(context.name())
                    .isInstanceOf(PathAccessDeniedException.class);
            assertThatThrownBy(() -> context.guard(Operation.FILE_READ, "/ws/a.txt")).as(context.name())
                    .isInstanceOf(PathAccessDeniedException.class);
        }
        assertThat(child.paths().get(0).realPath()).isEqualTo(ws);
    }

    @Test
    void aRootReplacedByAnotherDirectoryIsRefusedByParentAndChild() throws IOException {
        SecurityContext childBefore = parent.narrow("before").build();
        Files.move(ws, root.resolve("ws-old"));
        Files.createDirectory(ws);
        Files.writeString(ws.resolve("a.txt"), "planted");

        SecurityContext childAfter = parent.narrow("after").build();

        for (SecurityContext context : new SecurityContext[] {parent, childBefore, childAfter}) {
            assertThatThrownBy(() -> context.checkPathAccess("a.txt", READ)).as(context.name())
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessageContaining("'/ws'")
                    .hasMessageContaining("is no longer the directory it was")
                    .hasMessageNotContaining(root.toString());
        }
    }

    @Test
    void aRootThatWasRemovedIsRefused() throws IOException {
        Files.delete(ws.resolve("a.txt"));
        Files.delete(ws);

        assertThatThrownBy(() -> parent.checkPath("/ws/new.txt")).isInstanceOf(PathAccessDeniedException.class);
    }

    @Test
    void anUnchangedRootKeepsWorking() {
        assertThat(parent.checkPathAccess("a.txt", WRITE).virtualPath()).isEqualTo("/ws/a.txt");
        assertThat(parent.narrow("w").build().checkPathAccess("/ws/a.txt", READ).virtualPath())
                .isEqualTo("/ws/a.txt");
    }
}
