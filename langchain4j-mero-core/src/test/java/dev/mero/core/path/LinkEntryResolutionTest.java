package dev.mero.core.path;

import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;

import dev.mero.core.guard.Operation;
import dev.mero.core.path.ResolvedPath;
import dev.mero.core.path.SymbolicLinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resolving a path as its own directory entry ({@link LinkOption#NOFOLLOW_LINKS}), as rm and mv see it: the
 * decision is on the link's location, where the link leads is known (and must stay inside the mounts), a link
 * re-pointed after the check is caught, and {@link SymbolicLinks#leadsTo} follows a link text as the kernel does.
 */
class LinkEntryResolutionTest {

    @TempDir
    Path tmp;
    Path ws;
    Path outside;
    SecurityContext context;
    final List<AuditEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        Path root = tmp.toRealPath();
        ws = Files.createDirectories(root.resolve("ws"));
        outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(ws.resolve("a.txt"), "a");
        Files.writeString(ws.resolve("b.txt"), "b");
        Files.createDirectories(ws.resolve("dir/sub"));
        context = SecurityContext.builder().name("c")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE, Permission.DELETE))
                .auditLog(AuditLog.builder().sink(events::add).build()).build();
    }

    @Test
    void aLinkIsDecidedWhereItIsAndKnowsWhereItLeads() throws IOException {
        Files.createSymbolicLink(ws.resolve("link"), Path.of("a.txt"));
        ResolvedPath followed = context.guard("/ws/link", Permission.DELETE);
        ResolvedPath entry = context.guard("/ws/link", LinkOption.NOFOLLOW_LINKS, Permission.DELETE);
        assertThat(followed.realPath()).isEqualTo(ws.resolve("a.txt"));
        assertThat(followed.isSymbolicLink()).isFalse();
        assertThat(followed.linkTarget()).isEmpty();
        assertThat(entry.realPath()).isEqualTo(ws.resolve("link"));
        assertThat(entry.virtualPath()).isEqualTo("/ws/link");
        assertThat(entry.isSymbolicLink()).isTrue();
        assertThat(entry.linkTarget()).contains(ws.resolve("a.txt"));
        assertThat(entry).isNotEqualTo(followed);
        assertThat(context.recheck(entry)).isEqualTo(entry);

        ResolvedPath plain = context.guard("/ws/b.txt", LinkOption.NOFOLLOW_LINKS, Permission.READ);
        assertThat(plain.realPath()).isEqualTo(context.checkPathAccess("/ws/b.txt", Permission.READ).realPath());
        assertThat(plain.isSymbolicLink()).isFalse();
        ResolvedPath root = context.guard("/ws", LinkOption.NOFOLLOW_LINKS, Permission.READ);
        assertThat(root.isMountRoot()).isTrue();
        ResolvedPath relative = context.guard("dir/../link", LinkOption.NOFOLLOW_LINKS, Permission.READ);
        assertThat(relative.realPath()).isEqualTo(ws.resolve("link"));
        ResolvedPath hostPath = context.guard(ws.resolve("link").toString(), LinkOption.NOFOLLOW_LINKS,
                Permission.READ);
        assertThat(hostPath.isSymbolicLink()).isTrue();
    }

    @Test
    void aLinkRepointedAfterTheCheckIsRefusedAndAudited() throws IOException {
        Path link = Files.createSymbolicLink(ws.resolve("link"), Path.of("a.txt"));
        ResolvedPath entry = context.guard(Operation.FILE_DELETE, "/ws/link", LinkOption.NOFOLLOW_LINKS, null, null);
        Files.delete(link);
        Files.createSymbolicLink(link, Path.of("b.txt"));
        assertThatThrownBy(() -> context.recheck(entry)).isInstanceOf(PathAccessDeniedException.class)
                .hasMessageContaining("now leads elsewhere").hasMessageNotContaining(ws.toString());
        assertThat(events.get(events.size() - 1).type()).isEqualTo(AuditEventType.DENIED);
        assertThat(events.get(events.size() - 1).detail()).hasValueSatisfying(d -> assertThat(d)
                .contains(ws.resolve("a.txt").toString()).contains(ws.resolve("b.txt").toString()));
    }

    @Test
    void aLinkOutOfTheMountsIsRefusedButADanglingOneIsAccepted() throws IOException {
        Files.createSymbolicLink(ws.resolve("out"), outside);
        Files.createSymbolicLink(ws.resolve("dangling"), Path.of("missing"));
        assertThatThrownBy(() -> context.guard("/ws/out", LinkOption.NOFOLLOW_LINKS, Permission.DELETE))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessage("Path '/ws/out' is a symbolic link that leads outside the mounted entries of context 'c'; "
                        + "such a link is not deleted, moved or copied, and nothing was changed. Ask the user to remove "
                        + "it if it is not needed.");
        assertThat(events.get(events.size() - 1).detail()).hasValueSatisfying(d -> assertThat(d)
                .contains(outside.toString()));
        ResolvedPath dangling = context.guard("/ws/dangling", LinkOption.NOFOLLOW_LINKS, Permission.DELETE);
        assertThat(dangling.isSymbolicLink()).isTrue();
        assertThat(dangling.linkTarget()).isEmpty();
        assertThatThrownBy(() -> context.guard("/ws/dangling", Permission.DELETE))
                .isInstanceOf(PathAccessDeniedException.class).hasMessageContaining("does not exist or loops");
    }

    @Test
    void theNewOverloadsTakeOnlyNoFollowAndNoCommand() throws IOException {
        Files.createSymbolicLink(ws.resolve("link"), Path.of("a.txt"));
        assertThatThrownBy(() -> context.guard("/ws/link", (LinkOption) null, Permission.READ))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> context.guard(Operation.FILE_READ, "/ws/link", null, null, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> context.run(Operation.FILE_READ, "/ws/link", null, null, null, t -> t))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> context.guard(Operation.COMMAND_EXECUTE, "/ws/link", LinkOption.NOFOLLOW_LINKS,
                null, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> context.run(Operation.COMMAND_EXECUTE, "/ws/link", LinkOption.NOFOLLOW_LINKS,
                null, null, t -> t)).isInstanceOf(IllegalArgumentException.class);
        ResolvedPath file = context.guard("/ws/a.txt", LinkOption.NOFOLLOW_LINKS, Permission.READ);
        assertThatThrownBy(() -> context.checkLinkTarget(file, file)).isInstanceOf(IllegalArgumentException.class);
        assertThat(context.run(Operation.FILE_READ, "/ws/link", LinkOption.NOFOLLOW_LINKS, null, null,
                ResolvedPath::isSymbolicLink)).isTrue();
    }

    @Test
    void checkLinkTargetJudgesTheLinkFromWhereItWouldBe() throws IOException {
        Files.createSymbolicLink(ws.resolve("dir/rel"), Path.of("../a.txt"));
        ResolvedPath link = context.guard("/ws/dir/rel", LinkOption.NOFOLLOW_LINKS, Permission.READ);
        ResolvedPath sameLevel = context.checkPathAccess("/ws/dir/other", Permission.WRITE);
        assertThat(context.checkLinkTarget(link, sameLevel)).isEqualTo("../a.txt");
        ResolvedPath deeper = context.checkPathAccess("/ws/dir/sub/rel", Permission.WRITE);
        assertThatThrownBy(() -> context.checkLinkTarget(link, deeper)).isInstanceOf(PathAccessDeniedException.class)
                .hasMessageContaining("would lead to nothing from its new place");
        Files.writeString(ws.resolve("dir/a.txt"), "decoy");
        assertThat(context.checkLinkTarget(link, deeper)).isEqualTo("../a.txt");
        Files.writeString(ws.getParent().resolve("a.txt"), "outside the mount");
        ResolvedPath top = context.checkPathAccess("/ws/rel", Permission.WRITE);
        assertThatThrownBy(() -> context.checkLinkTarget(link, top)).isInstanceOf(PathAccessDeniedException.class)
                .hasMessageContaining("would lead outside the mounted entries from its new place");
        Files.delete(ws.resolve("dir/rel"));
        assertThatThrownBy(() -> context.checkLinkTarget(link, sameLevel)).isInstanceOf(OperationFailedException.class)
                .hasMessageContaining("is no longer a symbolic link");
    }

    @Test
    void aLinkRepointedOutOfTheMountsBeforeItIsPlacedIsRefused() throws IOException {
        Path link = Files.createSymbolicLink(ws.resolve("link"), Path.of("a.txt"));
        ResolvedPath entry = context.guard("/ws/link", LinkOption.NOFOLLOW_LINKS, Permission.READ);
        Files.delete(link);
        Files.createSymbolicLink(link, outside);
        assertThatThrownBy(() -> context.checkLinkTarget(entry, context.checkPath("/ws/copy")))
                .isInstanceOf(PathAccessDeniedException.class)
                .hasMessageStartingWith("Path '/ws/link' is a symbolic link that leads outside the mounted entries;")
                .hasMessageNotContaining(outside.toString());
        assertThat(events.get(events.size() - 1).type()).isEqualTo(AuditEventType.DENIED);
    }

    @Test
    void aHostPathThroughALinkElsewhereNamesTheEntryItReaches() throws IOException {
        Files.createSymbolicLink(ws.resolve("link"), Path.of("a.txt"));
        Path alias = Files.createSymbolicLink(outside.resolve("alias"), ws);
        ResolvedPath entry = context.guard(alias.resolve("link").toString(), LinkOption.NOFOLLOW_LINKS,
                Permission.READ);
        assertThat(entry.realPath()).isEqualTo(ws.resolve("link"));
        assertThat(entry.isSymbolicLink()).isTrue();
        ResolvedPath followed = context.guard(alias.resolve("link").toString(), Permission.READ);
        assertThat(followed.realPath()).isEqualTo(ws.resolve("a.txt"));
    }

    @Test
    void leadsToFollowsALinkTextAsTheKernelDoes() throws IOException {
        Path dir = ws.resolve("dir");
        assertThat(SymbolicLinks.leadsTo(dir, "../a.txt")).contains(ws.resolve("a.txt"));
        assertThat(SymbolicLinks.leadsTo(dir, "./sub/.././../a.txt")).contains(ws.resolve("a.txt"));
        assertThat(SymbolicLinks.leadsTo(dir, ws.resolve("b.txt").toString())).contains(ws.resolve("b.txt"));
        assertThat(SymbolicLinks.leadsTo(dir, "sub")).contains(dir.resolve("sub"));
        // a link on the way is resolved before '..' applies, as the kernel resolves it
        Files.createSymbolicLink(ws.resolve("hop"), Path.of("dir/sub"));
        Files.writeString(dir.resolve("c.txt"), "c");
        assertThat(SymbolicLinks.leadsTo(ws, "hop/../c.txt")).contains(dir.resolve("c.txt"));
        // from a directory that does not exist yet, '..' climbs its plain names
        assertThat(SymbolicLinks.leadsTo(dir.resolve("new/deeper"), "../../c.txt")).contains(dir.resolve("c.txt"));
        assertThat(SymbolicLinks.leadsTo(dir, "/../../" + ws.resolve("a.txt"))).contains(ws.resolve("a.txt"));
        assertThat(SymbolicLinks.leadsTo(dir, "missing")).isEmpty();
        assertThat(SymbolicLinks.leadsTo(dir, "")).isEmpty();
        assertThat(SymbolicLinks.leadsTo(dir, null)).isEmpty();
        assertThat(SymbolicLinks.leadsTo(dir, "a\0b")).isEmpty();
        assertThat(SymbolicLinks.leadsTo(dir, "../" + "./".repeat(SymbolicLinks.MAX_TEXT_LENGTH / 2) + "a.txt"))
                .isEmpty();
        assertThat(SymbolicLinks.leadsTo(dir, "../" + "./".repeat(SymbolicLinks.MAX_TEXT_LENGTH / 2 - 4) + "a.txt"))
                .contains(ws.resolve("a.txt"));
        Files.createSymbolicLink(ws.resolve("loop1"), Path.of("loop2"));
        Files.createSymbolicLink(ws.resolve("loop2"), Path.of("loop1"));
        assertThat(SymbolicLinks.leadsTo(ws, "loop1")).isEmpty();
        assertThat(SymbolicLinks.text(ws.resolve("loop1"))).isEqualTo("loop2");
        assertThat(SymbolicLinks.text(ws.resolve("a.txt"))).isNull();
        assertThat(SymbolicLinks.text(ws.resolve("nothing"))).isNull();
    }
}
