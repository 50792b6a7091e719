package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.MeroToolsException;
import dev.mero.core.OperationFailedException;
import dev.mero.core.Permission;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Races made deterministic: the approval step runs between an operation's check and its use, so an approver
 * that swaps a directory for a link to the outside, or changes the file, plays the attacker at exactly the
 * worst moment. Nothing may happen outside the mounts, and nothing may be written that was not approved.
 */
class RaceAttackTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    List<ApprovalRequest> requests = new CopyOnWriteArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
    }

    private MeroOperations approvingAfter(Consumer<ApprovalRequest> attack) {
        return MeroOperations.forContext(w.contextBuilder().requireApproval(Permission.WRITE).approval(request -> {
            requests.add(request);
            attack.accept(request);
            return ApprovalDecision.APPROVED;
        }).build());
    }

    private void swapForLinkOut(Path directory) {
        try {
            Files.move(directory, directory.resolveSibling(directory.getFileName() + ".moved"));
            Files.createSymbolicLink(directory, w.outside);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aDirectorySwappedForALinkDuringApprovalIsNotWrittenThrough() throws IOException {
        Files.createDirectories(w.ws.resolve("dir"));
        MeroOperations ops = approvingAfter(request -> swapForLinkOut(w.ws.resolve("dir")));

        assertThatThrownBy(() -> ops.call("write_file", "{\"path\":\"/ws/dir/pwned.txt\",\"content\":\"x\"}"))
                .isInstanceOf(MeroToolsException.class).extracting(e -> ((MeroToolsException) e).isDenial())
                .isEqualTo(true);
        assertThat(w.outside.resolve("pwned.txt")).doesNotExist();
        // the approval is bound to the complete content by its digest, not to the preview
        assertThat(requests).singleElement().satisfies(r -> assertThat(r.contentDigest())
                .contains("2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"));
    }

    @Test
    void aParentPlantedAsALinkWhileMissingLevelsAreApprovedCreatesNothingOutside() {
        // every missing level is approved before any is created; while the second is approved, the first
        // (still missing) is planted as a link to the outside
        MeroOperations ops = approvingAfter(request -> {
            if (request.action().endsWith("/ws/a/b")) {
                try {
                    Files.createSymbolicLink(w.ws.resolve("a"), w.outside);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        });

        assertThatThrownBy(() -> ops.call("write_file", "{\"path\":\"/ws/a/b/c.txt\",\"content\":\"x\"}"))
                .isInstanceOf(MeroToolsException.class);
        assertThat(w.outside.resolve("b")).doesNotExist();
        assertThat(w.outside.resolve("c.txt")).doesNotExist();
        assertThat(requests).extracting(ApprovalRequest::action).contains("WRITE: /ws/a", "WRITE: /ws/a/b");
    }

    @Test
    void anEditIsRefusedWhenTheFileChangesWhileItIsApproved() throws IOException {
        Path file = Files.writeString(w.ws.resolve("f.txt"), "one two\n");
        MeroOperations ops = approvingAfter(request -> {
            try {
                Files.writeString(file, "one two three\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        assertThatThrownBy(() -> ops.call("edit_file", "{\"path\":\"/ws/f.txt\",\"old_text\":\"two\",\"new_text\":\"2\"}"))
                .isInstanceOf(OperationFailedException.class).hasMessageContaining("changed since it was read");
        assertThat(file).hasContent("one two three");
        assertThat(requests).singleElement().satisfies(r -> {
            assertThat(r.details().orElseThrow()).contains("-one two\n+one 2\n");
            assertThat(r.contentDigest()).contains(dev.mero.core.path.ContentDigest.of("one 2\n"));
        });
    }

    @Test
    void aCopySourceChangedDuringApprovalIsNotCopied() throws IOException {
        Path source = Files.writeString(w.ws.resolve("src.txt"), "approved bytes");
        MeroOperations ops = approvingAfter(request -> {
            try {
                Files.writeString(source, "other bytes");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        assertThatThrownBy(() -> ops.call("copy_file", "{\"source\":\"/ws/src.txt\",\"destination\":\"/ws/dst.txt\"}"))
                .isInstanceOf(OperationFailedException.class).hasMessageContaining("changed while it was being copied");
        assertThat(w.ws.resolve("dst.txt")).doesNotExist();
        try (var files = Files.list(w.ws)) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".mero-"));
        }
    }

    @Test
    void aLinkPlantedInsideATreeIsRemovedNotFollowedByRecursiveDelete() throws IOException {
        Path tree = Files.createDirectories(w.ws.resolve("tree/inner"));
        Files.createSymbolicLink(tree.resolve("to-outside"), w.outside);
        Files.createSymbolicLink(tree.resolve("to-secret"), w.outside.resolve("secret.txt"));
        MeroOperations ops = w.ops();
        assertThat(ops.call("delete_directory", "{\"path\":\"/ws/tree\",\"recursive\":true}")).startsWith("Deleted");
        assertThat(w.outside.resolve("secret.txt")).hasContent("top secret");
        assertThat(w.ws.resolve("tree")).doesNotExist();
    }

    @Test
    void aDeeperLevelRefusedLeavesNoShallowerDirectoryBehind() {
        MeroOperations ops = MeroOperations.forContext(w.contextBuilder().requireApproval(Permission.WRITE)
                .approval(request -> request.action().endsWith("/ws/p/q") ? ApprovalDecision.DENIED
                        : ApprovalDecision.APPROVED).build());
        List<String> before = w.snapshot();
        assertThatThrownBy(() -> ops.call("write_file", "{\"path\":\"/ws/p/q/r.txt\",\"content\":\"x\"}"))
                .isInstanceOf(MeroToolsException.class);
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void syncNeverWritesThroughALinkInTheDestinationAndChangesNothing() throws IOException {
        Path from = Files.createDirectories(w.ws.resolve("from/sub"));
        Files.writeString(w.ws.resolve("from/a.txt"), "A");
        Files.writeString(from.resolve("pwned.txt"), "P");
        Path to = Files.createDirectories(w.ws.resolve("to"));
        Files.createSymbolicLink(to.resolve("sub"), w.outside);
        MeroOperations ops = w.ops();
        List<String> before = w.snapshot();

        assertThatThrownBy(() -> ops.call("sync_directory", "{\"source\":\"/ws/from\",\"destination\":\"/ws/to\"}"))
                .isInstanceOf(MeroToolsException.class);
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(w.outside.resolve("pwned.txt")).doesNotExist();
    }

    @Test
    void aHardLinkToAFileOutsideIsNeverChangedInPlace() throws IOException {
        Path outsideFile = w.outside.resolve("secret.txt");
        Files.createLink(w.ws.resolve("shared.txt"), outsideFile);
        MeroOperations ops = w.ops();

        assertThatThrownBy(() -> ops.call("append_file", "{\"path\":\"/ws/shared.txt\",\"content\":\"x\"}"))
                .isInstanceOf(MeroToolsException.class).hasMessageContaining("other hard link");
        assertThat(ops.call("write_file", "{\"path\":\"/ws/shared.txt\",\"content\":\"new\"}"))
                .startsWith("Wrote 3 bytes");
        assertThat(ops.call("edit_file", "{\"path\":\"/ws/shared.txt\",\"old_text\":\"new\",\"new_text\":\"n\"}"))
                .startsWith("Edited");
        // the write replaced the directory entry; the file outside still holds its own content
        assertThat(outsideFile).hasContent("top secret");
        assertThat(w.ws.resolve("shared.txt")).hasContent("n");
    }
}
