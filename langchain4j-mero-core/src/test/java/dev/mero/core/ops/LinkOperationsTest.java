package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * delete_file, delete_directory, move_file and copy_file on real symbolic and hard links, like {@code rm},
 * {@code mv} and {@code cp -P}: the link is what is deleted, moved or copied, never what it points to; a link
 * that leads out of the mounts (or nowhere, for a move or a copy) is refused and every refusal leaves the file
 * system exactly as it was.
 */
class LinkOperationsTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    MeroOperations ops;
    final List<AuditEvent> events = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        ops = MeroOperations.forContext(w.contextBuilder().auditLog(AuditLog.builder().sink(events::add).build())
                .build());
        Files.createDirectories(w.ws.resolve("real/sub"));
        Files.writeString(w.ws.resolve("real/sub/deep.txt"), "deep\n");
        Files.writeString(w.ws.resolve("target.txt"), "keep me\n");
    }

    private String modelText(String tool, String json) {
        return OpsWorkspace.modelText(ops, tool, json);
    }

    private AuditEvent last() {
        return events.get(events.size() - 1);
    }

    /** A refusal that starts with {@code prefix}, names no host path and changes nothing. */
    private String refusedUnchanged(String tool, String json, String prefix) {
        List<String> before = w.snapshot();
        String text = modelText(tool, json);
        assertThat(text).startsWith(prefix).doesNotContain(w.root.toString());
        assertThat(w.snapshot()).isEqualTo(before);
        return text;
    }

    @Test
    void deleteFileRemovesTheLinkAndNeverItsTarget() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("link.txt"), Path.of("target.txt"));
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/link.txt\"}"))
                .isEqualTo("Deleted the symbolic link '/ws/link.txt'; what it pointed to was not touched.");
        assertThat(w.ws.resolve("link.txt")).doesNotExist();
        assertThat(w.ws.resolve("target.txt")).hasContent("keep me");
        AuditEvent allowed = last();
        assertThat(allowed.type()).isEqualTo(AuditEventType.ALLOWED);
        assertThat(allowed.subject()).contains("/ws/link.txt");
        assertThat(allowed.targets()).singleElement().asString()
                .contains(w.ws.resolve("link.txt").toString())
                .contains("symbolic link to " + w.ws.resolve("target.txt"));
    }

    @Test
    void deleteFileRemovesALinkToADirectoryAndLeavesTheTree() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("dirlink"), w.ws.resolve("real"));
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/dirlink\"}")).startsWith("Deleted the symbolic link");
        assertThat(w.ws.resolve("dirlink")).doesNotExist();
        assertThat(w.ws.resolve("real/sub/deep.txt")).hasContent("deep");
    }

    @Test
    void aDanglingOrLoopingLinkCanBeDeletedButNeverMovedOrCopied() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("dangling"), Path.of("no-such-file"));
        Files.createSymbolicLink(w.ws.resolve("loop-a"), Path.of("loop-b"));
        Files.createSymbolicLink(w.ws.resolve("loop-b"), Path.of("loop-a"));
        refusedUnchanged("move_file", "{\"source\":\"/ws/dangling\",\"destination\":\"/ws/moved\"}",
                "Denied: Path '/ws/dangling' is a symbolic link that leads to nothing");
        assertThat(last().type()).isEqualTo(AuditEventType.DENIED);
        assertThat(last().detail()).hasValueSatisfying(d -> assertThat(d).contains("no-such-file"));
        refusedUnchanged("copy_file", "{\"source\":\"/ws/loop-a\",\"destination\":\"/ws/copied\"}",
                "Denied: Path '/ws/loop-a' is a symbolic link that leads to nothing");
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/dangling\"}")).startsWith("Deleted the symbolic link");
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/loop-a\"}")).startsWith("Deleted the symbolic link");
        assertThat(last().targets()).singleElement().asString().contains("nothing: dangling or looping");
        assertThat(Files.exists(w.ws.resolve("dangling"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(Files.isSymbolicLink(w.ws.resolve("loop-b"))).isTrue();
    }

    @Test
    void aLinkLeadingOutOfTheMountsIsRefusedByEveryToolAndChangesNothing() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("out.txt"), w.outside.resolve("secret.txt"));
        Files.createSymbolicLink(w.ws.resolve("outdir"), w.outside);
        for (String[] call : new String[][] {
                {"delete_file", "{\"path\":\"/ws/out.txt\"}"},
                {"delete_directory", "{\"path\":\"/ws/outdir\",\"recursive\":true}"},
                {"move_file", "{\"source\":\"/ws/out.txt\",\"destination\":\"/ws/moved.txt\"}"},
                {"copy_file", "{\"source\":\"/ws/out.txt\",\"destination\":\"/ws/copied.txt\"}"},
                {"copy_file", "{\"source\":\"/ws/outdir\",\"destination\":\"/ws/copied\"}"}}) {
            String text = refusedUnchanged(call[0], call[1], "Denied: Path '/ws/out");
            assertThat(text).contains("leads outside the mounted entries").doesNotContain("secret");
            AuditEvent denied = last();
            assertThat(denied.type()).isEqualTo(AuditEventType.DENIED);
            assertThat(denied.detail()).hasValueSatisfying(d -> assertThat(d).contains(w.outside.toString()));
        }
        assertThat(w.outside.resolve("secret.txt")).hasContent("top secret");
    }

    @Test
    void deleteDirectoryOnALinkRefusesAndNamesBothWaysOn() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("dirlink"), Path.of("real"));
        String text = refusedUnchanged("delete_directory", "{\"path\":\"/ws/dirlink\",\"recursive\":true}",
                "Error: '/ws/dirlink' is a symbolic link, not a directory");
        assertThat(text).contains("delete_file").contains("'/ws/real'");
        refusedUnchanged("delete_directory", "{\"path\":\"/ws/dirlink\"}", "Error: '/ws/dirlink' is a symbolic link");
        Files.createSymbolicLink(w.ws.resolve("filelink"), Path.of("target.txt"));
        assertThat(refusedUnchanged("delete_directory", "{\"path\":\"/ws/filelink\"}",
                "Error: '/ws/filelink' is a symbolic link")).doesNotContain("target.txt");
        assertThat(w.ws.resolve("real/sub/deep.txt")).hasContent("deep");
    }

    @Test
    void deletingNeedsDeleteWhereTheLinkIsNotWhereItPoints() throws IOException {
        Files.createSymbolicLink(w.docs.resolve("to-ws"), w.ws.resolve("target.txt"));
        refusedUnchanged("delete_file", "{\"path\":\"/docs/to-ws\"}", "Denied: ");
        Files.createSymbolicLink(w.ws.resolve("to-docs"), w.docs.resolve("guide.md"));
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/to-docs\"}")).startsWith("Deleted the symbolic link");
        assertThat(w.docs.resolve("guide.md")).hasContent("# Guide");
    }

    @Test
    void aLinkInTheMiddleOfThePathIsResolvedAsAlways() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("via"), Path.of("real/sub"));
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/via/deep.txt\"}")).isEqualTo("Deleted '/ws/real/sub/deep.txt'.");
        assertThat(w.ws.resolve("real/sub/deep.txt")).doesNotExist();
        assertThat(Files.isSymbolicLink(w.ws.resolve("via"))).isTrue();
    }

    @Test
    void aChainIsActedOnAtItsFirstLinkOnly() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("second"), Path.of("target.txt"));
        Files.createSymbolicLink(w.ws.resolve("first"), Path.of("second"));
        assertThat(ops.call("move_file", "{\"source\":\"/ws/first\",\"destination\":\"/ws/renamed\"}"))
                .startsWith("Moved the symbolic link '/ws/first' to '/ws/renamed'");
        assertThat(Files.readSymbolicLink(w.ws.resolve("renamed"))).isEqualTo(Path.of("second"));
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/renamed\"}")).startsWith("Deleted the symbolic link");
        assertThat(Files.readSymbolicLink(w.ws.resolve("second"))).isEqualTo(Path.of("target.txt"));
        assertThat(w.ws.resolve("target.txt")).hasContent("keep me");
        Files.createSymbolicLink(w.ws.resolve("leads-out"), w.outside.resolve("secret.txt"));
        Files.createSymbolicLink(w.ws.resolve("chain-out"), Path.of("leads-out"));
        refusedUnchanged("delete_file", "{\"path\":\"/ws/chain-out\"}", "Denied: Path '/ws/chain-out' is a symbolic "
                + "link that leads outside");
    }

    @Test
    void moveFileMovesTheLinkWithItsTextAndNeverTheTarget() throws IOException {
        Files.createDirectories(w.ws.resolve("elsewhere"));
        Files.createSymbolicLink(w.ws.resolve("abs"), w.ws.resolve("target.txt"));
        assertThat(ops.call("move_file", "{\"source\":\"/ws/abs\",\"destination\":\"/ws/elsewhere/abs\"}"))
                .isEqualTo("Moved the symbolic link '/ws/abs' to '/ws/elsewhere/abs' (the link with its text); what it "
                        + "points to was not moved.");
        assertThat(Files.readSymbolicLink(w.ws.resolve("elsewhere/abs"))).isEqualTo(w.ws.resolve("target.txt"));
        assertThat(Files.exists(w.ws.resolve("abs"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        assertThat(w.ws.resolve("target.txt")).hasContent("keep me");
        Files.createSymbolicLink(w.ws.resolve("real/sub/rel"), Path.of("../../target.txt"));
        assertThat(ops.call("move_file", "{\"source\":\"/ws/real/sub/rel\",\"destination\":\"/ws/new/deeper/rel\"}"))
                .contains("created its missing parent directories");
        assertThat(Files.readSymbolicLink(w.ws.resolve("new/deeper/rel"))).isEqualTo(Path.of("../../target.txt"));
        assertThat(w.ws.resolve("new/deeper/rel")).hasContent("keep me");
        assertThat(w.ws.resolve("real/sub/deep.txt")).hasContent("deep");
    }

    @Test
    void aRelativeLinkThatWouldLeadNowhereOrOutFromItsNewPlaceIsNotMoved() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("rel.txt"), Path.of("target.txt"));
        refusedUnchanged("move_file", "{\"source\":\"/ws/rel.txt\",\"destination\":\"/ws/real/rel.txt\"}",
                "Denied: Path '/ws/rel.txt' is a symbolic link that would lead to nothing from its new place");
        refusedUnchanged("copy_file", "{\"source\":\"/ws/rel.txt\",\"destination\":\"/ws/a/b/rel.txt\"}",
                "Denied: Path '/ws/rel.txt' is a symbolic link that would lead to nothing from its new place");
        Files.createDirectories(w.ws.resolve("real/outside"));
        Files.writeString(w.ws.resolve("real/outside/secret.txt"), "decoy");
        Files.createSymbolicLink(w.ws.resolve("up"), Path.of("../outside/secret.txt"));
        refusedUnchanged("copy_file", "{\"source\":\"/ws/up\",\"destination\":\"/ws/real/sub/up\"}",
                "Denied: Path '/ws/up' is a symbolic link that leads outside");
        Files.createSymbolicLink(w.ws.resolve("real/sub/up2"), Path.of("../outside/secret.txt"));
        refusedUnchanged("move_file", "{\"source\":\"/ws/real/sub/up2\",\"destination\":\"/ws/up2\"}",
                "Denied: Path '/ws/real/sub/up2' is a symbolic link that would lead outside the mounted entries from "
                        + "its new place");
        assertThat(last().type()).isEqualTo(AuditEventType.DENIED);
    }

    @Test
    void aMoveAcrossFileSystemsPlacesTheLinkOrCopiesTheFileThenRemovesTheSource() throws IOException {
        // another file system: memory (/dev/shm) or, where temporary trees live in memory, the build directory
        Path other = null;
        for (Path candidate : List.of(Path.of("/dev/shm"), Path.of("target").toAbsolutePath())) {
            if (Files.isDirectory(candidate) && Files.isWritable(candidate)
                    && !Files.getFileStore(candidate).equals(Files.getFileStore(w.ws))) {
                other = Files.createTempDirectory(candidate, "mero-links-").toRealPath();
                break;
            }
        }
        Assumptions.assumeTrue(other != null, "no second file system here");
        try {
            MeroOperations across = MeroOperations.forContext(w.contextBuilder()
                    .path(PathEntry.of(other.toString(), "mem", Permission.READ, Permission.WRITE, Permission.DELETE))
                    .build());
            Files.createSymbolicLink(w.ws.resolve("link"), w.ws.resolve("target.txt"));
            assertThat(across.call("move_file", "{\"source\":\"/ws/link\",\"destination\":\"/mem/link\"}"))
                    .startsWith("Moved the symbolic link '/ws/link' to '/mem/link'");
            assertThat(Files.readSymbolicLink(other.resolve("link"))).isEqualTo(w.ws.resolve("target.txt"));
            assertThat(Files.exists(w.ws.resolve("link"), LinkOption.NOFOLLOW_LINKS)).isFalse();
            assertThat(across.call("move_file", "{\"source\":\"/ws/notes.txt\",\"destination\":\"/mem/n.txt\"}"))
                    .isEqualTo("Moved '/ws/notes.txt' to '/mem/n.txt' (12 bytes).");
            assertThat(other.resolve("n.txt")).hasContent("hello notes");
            assertThat(w.ws.resolve("notes.txt")).doesNotExist();
            assertThat(w.ws.resolve("target.txt")).hasContent("keep me");
            try (var entries = Files.list(other)) {
                assertThat(entries.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("link", "n.txt");
            }
        } finally {
            try (var entries = Files.list(other)) {
                for (Path entry : entries.toList()) {
                    Files.delete(entry);
                }
            }
            Files.delete(other);
        }
    }

    @Test
    void aLinkIsNotMovedOntoItselfAndAVanishedSourceIsReported() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("link"), Path.of("target.txt"));
        refusedUnchanged("move_file", "{\"source\":\"/ws/link\",\"destination\":\"/ws/./link\"}",
                "Error: The source and the destination are the same link ('/ws/link'); nothing was moved.");
        refusedUnchanged("copy_file", "{\"source\":\"/ws/link\",\"destination\":\"/ws/link\"}",
                "Error: The source and the destination are the same link ('/ws/link'); nothing was copied.");
        refusedUnchanged("move_file", "{\"source\":\"/ws/target.txt\",\"destination\":\"/ws/target.txt\"}",
                "Error: The source and the destination are the same file ('/ws/target.txt'); nothing was moved.");
    }

    @Test
    void moveFileNeedsDeleteWhereTheLinkIsAndWriteWhereItGoes() throws IOException {
        Files.createSymbolicLink(w.docs.resolve("doclink"), Path.of("guide.md"));
        refusedUnchanged("move_file", "{\"source\":\"/docs/doclink\",\"destination\":\"/ws/doclink\"}", "Denied: ");
        Files.createSymbolicLink(w.ws.resolve("wslink"), w.ws.resolve("target.txt"));
        refusedUnchanged("move_file", "{\"source\":\"/ws/wslink\",\"destination\":\"/docs/wslink\"}", "Denied: ");
        refusedUnchanged("copy_file", "{\"source\":\"/ws/wslink\",\"destination\":\"/docs/wslink\"}", "Denied: ");
        Files.writeString(w.ws.resolve("taken.txt"), "taken");
        refusedUnchanged("move_file", "{\"source\":\"/ws/wslink\",\"destination\":\"/ws/taken.txt\"}",
                "Error: '/ws/taken.txt' already exists");
    }

    @Test
    void copyFileCopiesTheLinkAsALink() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("dirlink"), Path.of("real"));
        assertThat(ops.call("copy_file", "{\"source\":\"/ws/dirlink\",\"destination\":\"/ws/dircopy\"}"))
                .isEqualTo("Copied the symbolic link '/ws/dirlink' to '/ws/dircopy' as a link with the same text "
                        + "(created it); what it points to was not copied.");
        assertThat(Files.readSymbolicLink(w.ws.resolve("dircopy"))).isEqualTo(Path.of("real"));
        assertThat(Files.readSymbolicLink(w.ws.resolve("dirlink"))).isEqualTo(Path.of("real"));
        Files.createSymbolicLink(w.ws.resolve("filelink"), w.docs.resolve("guide.md"));
        assertThat(ops.call("copy_file", "{\"source\":\"/ws/filelink\",\"destination\":\"/ws/target.txt\"}"))
                .contains("(replaced what was there)");
        assertThat(Files.readSymbolicLink(w.ws.resolve("target.txt"))).isEqualTo(w.docs.resolve("guide.md"));
        assertThat(w.docs.resolve("guide.md")).hasContent("# Guide");
        try (var entries = Files.list(w.ws)) {
            assertThat(entries.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".mero-"));
        }
    }

    @Test
    void aCopyNeverReplacesWhatTheLinkPointsToNorPointsToItself() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("link"), Path.of("target.txt"));
        refusedUnchanged("copy_file", "{\"source\":\"/ws/link\",\"destination\":\"/ws/target.txt\"}",
                "Denied: Path '/ws/link' is a symbolic link that would replace what it points to, or point to itself");
        Files.createSymbolicLink(w.ws.resolve("hop"), Path.of("target.txt"));
        Files.createSymbolicLink(w.ws.resolve("first"), Path.of("hop"));
        refusedUnchanged("copy_file", "{\"source\":\"/ws/first\",\"destination\":\"/ws/hop\"}",
                "Denied: Path '/ws/first' is a symbolic link that would replace what it points to, or point to itself");
        assertThat(w.ws.resolve("target.txt")).hasContent("keep me");
    }

    @Test
    void copyFileNeverWritesThroughALinkAtTheDestination() throws IOException {
        Files.createSymbolicLink(w.ws.resolve("src"), Path.of("target.txt"));
        Files.writeString(w.ws.resolve("victim.txt"), "victim");
        Files.createSymbolicLink(w.ws.resolve("dst"), Path.of("victim.txt"));
        assertThat(ops.call("copy_file", "{\"source\":\"/ws/src\",\"destination\":\"/ws/dst\"}"))
                .contains("(replaced what was there)");
        assertThat(Files.readSymbolicLink(w.ws.resolve("dst"))).isEqualTo(Path.of("target.txt"));
        assertThat(w.ws.resolve("victim.txt")).hasContent("victim");
    }

    @Test
    void aHardLinkIsOneNameOfAFile() throws IOException {
        Files.createLink(w.ws.resolve("twin.txt"), w.ws.resolve("target.txt"));
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/twin.txt\"}")).isEqualTo("Deleted '/ws/twin.txt'.");
        assertThat(w.ws.resolve("target.txt")).hasContent("keep me");
        Files.createLink(w.ws.resolve("twin.txt"), w.ws.resolve("target.txt"));
        assertThat(ops.call("move_file", "{\"source\":\"/ws/twin.txt\",\"destination\":\"/ws/real/twin.txt\"}"))
                .startsWith("Moved '/ws/twin.txt' to '/ws/real/twin.txt'");
        assertThat(ops.call("copy_file", "{\"source\":\"/ws/real/twin.txt\",\"destination\":\"/ws/copy.txt\"}"))
                .startsWith("Copied '/ws/real/twin.txt'");
        assertThat(Files.isSymbolicLink(w.ws.resolve("copy.txt"))).isFalse();
        assertThat(w.ws.resolve("copy.txt")).hasContent("keep me");
        assertThat(w.ws.resolve("target.txt")).hasContent("keep me");
        assertThat(Files.isSameFile(w.ws.resolve("real/twin.txt"), w.ws.resolve("target.txt"))).isTrue();
    }

    @Test
    void theApproverSeesTheLinkNotItsTarget() throws IOException {
        List<dev.mero.core.approval.ApprovalRequest> requests = new CopyOnWriteArrayList<>();
        SecurityContext approving = w.contextBuilder().requireApproval(Permission.DELETE)
                .approval(request -> {
                    requests.add(request);
                    return dev.mero.core.approval.ApprovalDecision.APPROVED;
                }).build();
        Files.createSymbolicLink(w.ws.resolve("link.txt"), Path.of("target.txt"));
        assertThat(MeroOperations.forContext(approving).call("delete_file", "{\"path\":\"/ws/link.txt\"}"))
                .startsWith("Deleted the symbolic link");
        assertThat(requests).singleElement().satisfies(r -> assertThat(r.action()).isEqualTo("DELETE: /ws/link.txt"));
        assertThat(w.ws.resolve("target.txt")).hasContent("keep me");
    }

    @Test
    void aNestedMountKeepsItsOwnRulesForLinks() throws IOException {
        Path locked = Files.createDirectories(w.ws.resolve("locked"));
        Files.createSymbolicLink(locked.resolve("link"), Path.of("../target.txt"));
        MeroOperations nested = MeroOperations.forContext(w.contextBuilder()
                .path(PathEntry.of(locked.toString(), "locked", Permission.READ)).build());
        List<String> before = w.snapshot();
        assertThat(OpsWorkspace.modelText(nested, "delete_file", "{\"path\":\"/ws/locked/link\"}")).startsWith("Denied: ");
        assertThat(w.snapshot()).isEqualTo(before);
    }
}
