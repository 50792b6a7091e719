package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer killed in the middle leaves its temporary file; the next write of the same target removes it when
 * the process that wrote it has ended, and leaves everything else alone.
 */
class StaleTemporaryFilesTest {

    private static final String HEX = "0123456789abcdef";

    @TempDir
    Path temp;
    OpsWorkspace w;
    long deadPid;

    @BeforeEach
    void setUp() throws Exception {
        w = new OpsWorkspace(temp);
        Process ended = new ProcessBuilder("true").start();
        assertThat(ended.waitFor(60, TimeUnit.SECONDS)).isTrue();
        deadPid = ended.pid();
    }

    @Test
    void onlyTheNamesOfEndedOtherProcessesAreStale() {
        long self = ProcessHandle.current().pid();
        assertThat(AtomicWrite.ownerIsGone(deadPid + "-" + HEX + ".tmp")).isTrue();
        assertThat(AtomicWrite.ownerIsGone("1-" + HEX + ".tmp")).isFalse();
        assertThat(AtomicWrite.ownerIsGone(self + "-" + HEX + ".tmp")).isFalse();
        assertThat(AtomicWrite.ownerIsGone(deadPid + "-" + HEX + ".txt")).isFalse();
        assertThat(AtomicWrite.ownerIsGone(deadPid + "-" + HEX + "0.tmp")).isFalse();
        assertThat(AtomicWrite.ownerIsGone(deadPid + "-" + HEX.substring(1) + ".tmp")).isFalse();
        assertThat(AtomicWrite.ownerIsGone(deadPid + "-0123456789abcdeg.tmp")).isFalse();
        assertThat(AtomicWrite.ownerIsGone("x" + deadPid + "-" + HEX + ".tmp")).isFalse();
        assertThat(AtomicWrite.ownerIsGone("-" + HEX + ".tmp")).isFalse();
        assertThat(AtomicWrite.ownerIsGone("0-" + HEX + ".tmp")).isFalse();
        assertThat(AtomicWrite.ownerIsGone(HEX + ".tmp")).isFalse();
        assertThat(AtomicWrite.ownerIsGone("")).isFalse();
    }

    @Test
    void aWriteRemovesWhatAnEndedWriterOfTheSameFileLeftAndNothingElse() throws Exception {
        String stale = ".notes.txt.mero-" + deadPid + "-" + HEX + ".tmp";
        String live = ".notes.txt.mero-1-" + HEX + ".tmp";
        String otherFile = ".other.txt.mero-" + deadPid + "-" + HEX + ".tmp";
        String lookalike = ".notes.txt.mero-" + deadPid + "-" + HEX + ".bak";
        for (String name : new String[] {stale, live, otherFile, lookalike}) {
            Files.writeString(w.ws.resolve(name), "left behind");
        }

        assertThat(w.ops().call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"new\"}")).startsWith("Wrote ");

        assertThat(Files.readString(w.ws.resolve("notes.txt"))).isEqualTo("new");
        try (Stream<Path> entries = Files.list(w.ws)) {
            assertThat(entries.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("notes.txt", live, otherFile, lookalike);
        }
    }

    /** A temporary file an ended writer of notes.txt left behind. */
    private Path leftBehind() throws IOException {
        return Files.writeString(w.ws.resolve(".notes.txt.mero-" + deadPid + "-" + HEX + ".tmp"), "left behind");
    }

    private SecurityContext.Builder wsOnly(Permission... permissions) {
        return SecurityContext.builder().name("narrow").path(PathEntry.of(w.ws.toString(), "ws", permissions));
    }

    @Test
    void aWriteWithoutDeleteLeavesAnotherWritersTemporaryFile() throws IOException {
        Path stale = leftBehind();
        MeroOperations noDelete = MeroOperations.forContext(wsOnly(Permission.READ, Permission.WRITE).build());
        assertThat(noDelete.call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"new\"}")).startsWith("Wrote ");
        assertThat(noDelete.call("edit_file", "{\"path\":\"/ws/notes.txt\",\"old_text\":\"new\",\"new_text\":\"n\"}"))
                .startsWith("Edited ");
        assertThat(noDelete.call("copy_file", "{\"source\":\"/ws/notes.txt\",\"destination\":\"/ws/notes.txt.bak\"}"))
                .startsWith("Copied ");
        assertThat(stale).hasContent("left behind");
        assertThat(w.ws.resolve("notes.txt")).hasContent("n");
    }

    @Test
    void aWriteWhereDeletingNeedsApprovalOrAScopeLeavesItToo() throws IOException {
        Path stale = leftBehind();
        MeroOperations approval = MeroOperations.forContext(wsOnly(Permission.READ, Permission.WRITE, Permission.DELETE)
                .requireApproval(Permission.DELETE).approval(request -> {
                    throw new AssertionError("a write never asks to delete: " + request.action());
                }).build());
        assertThat(approval.call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"new\"}")).startsWith("Wrote ");
        MeroOperations scoped = MeroOperations.forContext(wsOnly(Permission.READ, Permission.WRITE, Permission.DELETE)
                .scopes("files:*:read", "files:*:write", "files:*:create").build());
        assertThat(scoped.call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"newer\"}")).startsWith("Wrote ");
        MeroOperations entryApproval = MeroOperations.forContext(SecurityContext.builder().name("entry")
                .path(PathEntry.builder().path(w.ws.toString()).slug("ws")
                        .allow(Permission.READ, Permission.WRITE, Permission.DELETE)
                        .requireApproval(Permission.DELETE).build())
                .approval(request -> {
                    throw new AssertionError("a write never asks to delete: " + request.action());
                }).build());
        assertThat(entryApproval.call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"new!\"}"))
                .startsWith("Wrote ");
        assertThat(stale).hasContent("left behind");
        MeroOperations full = MeroOperations.forContext(wsOnly(Permission.READ, Permission.WRITE, Permission.DELETE)
                .build());
        assertThat(full.call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"newest\"}")).startsWith("Wrote ");
        assertThat(stale).doesNotExist();
    }
}
