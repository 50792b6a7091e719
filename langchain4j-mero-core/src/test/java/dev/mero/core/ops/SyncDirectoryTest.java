package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.path.ContentDigest;
import dev.mero.core.Permission;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sync_directory on real trees: what the model reads, what the approver is asked, what ends up on disk. */
class SyncDirectoryTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    MeroOperations ops;
    Path from;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        ops = w.ops();
        from = Files.createDirectories(w.ws.resolve("from"));
        Files.writeString(from.resolve("a.txt"), "A");
    }

    private String sync(MeroOperations operations, String source, String destination, String more) {
        return OpsWorkspace.modelText(operations, "sync_directory",
                "{\"source\":\"" + source + "\",\"destination\":\"" + destination + "\"" + more + "}");
    }

    private String sync(String source, String destination, String more) {
        return sync(ops, source, destination, more);
    }

    @Test
    void aMissingDestinationIsCreatedWithItsMissingParents() {
        assertThat(sync("/ws/from", "/ws/new/deeper/to", ""))
                .isEqualTo("Synced '/ws/from' to '/ws/new/deeper/to': copied 1, updated 0, deleted 0 "
                        + "(0 new directories).\ncopy: a.txt");
        assertThat(w.ws.resolve("new/deeper/to/a.txt")).hasContent("A");
        assertThat(sync("/ws/from", "/ws/to", ""))
                .isEqualTo("Synced '/ws/from' to '/ws/to': copied 1, updated 0, deleted 0 (0 new directories).\n"
                        + "copy: a.txt");
        assertThat(w.ws.resolve("to/a.txt")).hasContent("A");
    }

    @Test
    void aMountRootDestinationIsComparedWithWhatItAlreadyHolds() throws IOException {
        Files.writeString(w.ws.resolve("guide.md"), "# Guide\n");
        List<String> before = w.snapshot();
        assertThat(sync("/docs", "/ws", ",\"delete_extraneous\":true,\"dry_run\":true"))
                .isEqualTo("Dry run: syncing '/docs' to '/ws' would copy 0, update 0, delete 2 (0 new directories); "
                        + "nothing was changed.\ndelete: from\ndelete: notes.txt");
        assertThat(sync("/docs", "/ws", "")).isEqualTo("Synced '/docs' to '/ws': copied 0, updated 0, deleted 0 "
                + "(0 new directories).");
        assertThat(w.snapshot()).isEqualTo(before);
        Files.writeString(w.docs.resolve("guide.md"), "# Guide, revised\n");
        assertThat(sync("/docs", "/ws", "")).isEqualTo("Synced '/docs' to '/ws': copied 0, updated 1, deleted 0 "
                + "(0 new directories).\nupdate: guide.md");
        assertThat(w.ws.resolve("guide.md")).hasContent("# Guide, revised");
    }

    @Test
    void aFileOfTheSameSizeWithOtherBytesIsUpdated() throws IOException {
        Path to = Files.createDirectories(w.ws.resolve("to"));
        Files.writeString(from.resolve("same.txt"), "new");
        Files.writeString(to.resolve("same.txt"), "old");
        Files.writeString(to.resolve("a.txt"), "A");
        assertThat(sync("/ws/from", "/ws/to", ""))
                .isEqualTo("Synced '/ws/from' to '/ws/to': copied 0, updated 1, deleted 0 (0 new directories).\n"
                        + "update: same.txt");
        assertThat(to.resolve("same.txt")).hasContent("new");
    }

    @Test
    void filesUpToTheCopyLimitAreComparedAndCopiedAndALargerOneStopsTheWholeSync() throws IOException {
        MeroOperations small = w.ops(OperationLimits.builder().maxCopyBytes(4));
        Path to = Files.createDirectories(w.ws.resolve("to"));
        Files.writeString(from.resolve("four.txt"), "abcd");
        Files.writeString(to.resolve("four.txt"), "abce");
        assertThat(sync(small, "/ws/from", "/ws/to", ""))
                .isEqualTo("Synced '/ws/from' to '/ws/to': copied 1, updated 1, deleted 0 (0 new directories).\n"
                        + "copy: a.txt\nupdate: four.txt");
        assertThat(to.resolve("four.txt")).hasContent("abcd");

        Files.writeString(from.resolve("five.txt"), "abcde");
        Files.writeString(from.resolve("a.txt"), "B");
        List<String> before = w.snapshot();
        assertThat(sync(small, "/ws/from", "/ws/to", ""))
                .isEqualTo("Error: '/ws/from/five.txt' is larger than 4 bytes, more than sync_directory copies; "
                        + "nothing was changed.");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void anExtraneousDirectoryIsDeletedAsOneEntryWithEverythingBelowIt() throws IOException {
        Path to = Files.createDirectories(w.ws.resolve("to/old/sub"));
        Files.writeString(w.ws.resolve("to/old/x.txt"), "x");
        Files.writeString(to.resolve("y.txt"), "y");
        Files.writeString(w.ws.resolve("to/a.txt"), "A");
        Files.createDirectories(from.resolve("n1"));
        Files.createDirectories(from.resolve("n2"));
        assertThat(sync("/ws/from", "/ws/to", ",\"delete_extraneous\":true"))
                .isEqualTo("Synced '/ws/from' to '/ws/to': copied 0, updated 0, deleted 1 (2 new directories).\n"
                        + "delete: old\ncreate directory: n1\ncreate directory: n2");
        assertThat(w.ws.resolve("to/old")).doesNotExist();
        assertThat(w.ws.resolve("to/n1")).isDirectory();
        assertThat(w.ws.resolve("to/n2")).isDirectory();
        assertThat(w.ws.resolve("to/a.txt")).hasContent("A");
    }

    @Test
    void anEmptyNewDirectoryAloneIsWorthASync() throws IOException {
        Files.createDirectories(w.ws.resolve("to"));
        Files.writeString(w.ws.resolve("to/a.txt"), "A");
        Files.createDirectories(from.resolve("empty"));
        assertThat(sync("/ws/from", "/ws/to", ""))
                .isEqualTo("Synced '/ws/from' to '/ws/to': copied 0, updated 0, deleted 0 (1 new directory).\n"
                        + "create directory: empty");
        assertThat(w.ws.resolve("to/empty")).isDirectory();
    }

    @Test
    void aFileAndADirectoryOfTheSameNameAreConflictsLeftAlone() throws IOException {
        Files.createDirectories(from.resolve("d"));
        Files.writeString(from.resolve("f"), "file");
        Path to = Files.createDirectories(w.ws.resolve("to/f"));
        Files.writeString(w.ws.resolve("to/d"), "was a file");
        Files.writeString(w.ws.resolve("to/a.txt"), "A");
        List<String> before = w.snapshot();
        assertThat(sync("/ws/from", "/ws/to", ""))
                .isEqualTo("Synced '/ws/from' to '/ws/to': copied 0, updated 0, deleted 0 (0 new directories; "
                        + "2 conflicts left alone).\n"
                        + "conflict (a file and a directory share the name; left alone): d\n"
                        + "conflict (a file and a directory share the name; left alone): f");
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(to).isDirectory();
    }

    @Test
    void anApproverSeesThePlanAndItsDigestAndIsNotAskedWhenThereIsNothingToDo() throws IOException {
        List<ApprovalRequest> requests = new CopyOnWriteArrayList<>();
        MeroOperations approved = MeroOperations.forContext(w.contextBuilder()
                .requireApproval(Permission.WRITE, Permission.DELETE).approval(request -> {
                    requests.add(request);
                    return ApprovalDecision.APPROVED;
                }).build());
        Files.createDirectories(w.ws.resolve("to"));
        Files.writeString(w.ws.resolve("to/a.txt"), "A");
        assertThat(sync(approved, "/ws/from", "/ws/to", ",\"delete_extraneous\":true"))
                .startsWith("Synced '/ws/from' to '/ws/to': copied 0, updated 0, deleted 0");
        assertThat(requests).isEmpty();

        Files.writeString(from.resolve("b.txt"), "B");
        assertThat(sync(approved, "/ws/from", "/ws/to", ",\"delete_extraneous\":true"))
                .endsWith("copy: b.txt");
        assertThat(requests).hasSize(1);
        assertThat(requests.get(0).permissions()).containsExactly(Permission.WRITE);
        assertThat(requests.get(0).details()).contains("Sync from '/ws/from':\ncopy: b.txt");
        assertThat(requests.get(0).contentDigest()).contains(ContentDigest.of("\ncopy: b.txt"));

        Files.writeString(w.ws.resolve("to/extra.txt"), "x");
        assertThat(sync(approved, "/ws/from", "/ws/to", ",\"delete_extraneous\":true")).endsWith("delete: extra.txt");
        assertThat(requests).hasSize(3);
        assertThat(requests.get(2).permissions()).containsExactly(Permission.DELETE);
        assertThat(w.ws.resolve("to/extra.txt")).doesNotExist();
    }

    @Test
    void aDestinationThatIsAFileOrHoldsTheSourceIsRefusedWithoutChanges() throws IOException {
        List<String> before = w.snapshot();
        assertThat(sync("/ws/from", "/ws/notes.txt", ""))
                .isEqualTo("Error: '/ws/notes.txt' exists and is not a directory.");
        assertThat(sync("/ws/from", "/ws", ""))
                .startsWith("Error: The source '/ws/from' and the destination '/ws' overlap");
        assertThat(sync("/ws/from", "/ws/from", ""))
                .startsWith("Error: The source '/ws/from' and the destination '/ws/from' overlap");
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(sync("/ws/from", "/ws/from2", "")).startsWith("Synced '/ws/from' to '/ws/from2': copied 1,");
        assertThat(w.ws.resolve("from2/a.txt")).hasContent("A");
    }

    @Test
    void aTreeBeyondTheScanLimitIsRefusedAsAWholeOnEitherSide() throws IOException {
        MeroOperations small = w.ops(OperationLimits.builder().maxScanEntries(2));
        Files.writeString(from.resolve("b.txt"), "B");
        Files.writeString(from.resolve("c.txt"), "C");
        Path one = Files.createDirectories(w.ws.resolve("one"));
        Files.writeString(one.resolve("a.txt"), "A");
        List<String> before = w.snapshot();
        assertThat(sync(small, "/ws/from", "/ws/to", ""))
                .isEqualTo("Error: '/ws/from' holds more than 2 entries, is nested too deep, or holds directories "
                        + "without READ permission, so the source cannot be synced as a whole; nothing was done. "
                        + "Sync smaller directories.");
        assertThat(sync(small, "/ws/one", "/ws/from", ""))
                .isEqualTo("Error: '/ws/from' holds more than 2 entries, is nested too deep, or holds directories "
                        + "without WRITE permission, so the destination cannot be synced as a whole; nothing was "
                        + "done. Sync smaller directories.");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void aTreeDeeperThanAnyWalkGoesIsRefused() throws IOException {
        Path deep = from;
        for (int i = 0; i < TreeWalk.MAX_DEPTH; i++) {
            deep = Files.createDirectories(deep.resolve("d"));
        }
        assertThat(sync("/ws/from", "/ws/to", ""))
                .startsWith("Error: '/ws/from' holds more than 20000 entries, is nested too deep,");
        assertThat(w.ws.resolve("to")).doesNotExist();
    }
}
