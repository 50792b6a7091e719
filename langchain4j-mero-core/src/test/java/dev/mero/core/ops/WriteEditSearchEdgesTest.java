package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The smaller items of issue 19: a write deletes another writer's stale temporary file only where the context
 * may delete without asking; an edit_file dry run is refused where the real edit would be; find_files and
 * search_text say when the depth bound kept them out of a subtree instead of reporting a plain "no match".
 */
class WriteEditSearchEdgesTest {

    private static final String HEX = "0123456789abcdef";

    @TempDir
    Path temp;
    OpsWorkspace w;
    String stale;

    @BeforeEach
    void setUp() throws Exception {
        w = new OpsWorkspace(temp);
        Process ended = new ProcessBuilder("true").start();
        assertThat(ended.waitFor(60, TimeUnit.SECONDS)).isTrue();
        stale = ".notes.txt.mero-" + ended.pid() + "-" + HEX + ".tmp";
        Files.writeString(w.ws.resolve(stale), "left behind");
    }

    private SecurityContext.Builder wsOnly(Permission... permissions) {
        return SecurityContext.builder().name("narrow").path(PathEntry.of(w.ws.toString(), "ws", permissions));
    }

    @Test
    void aWriteWithoutDeleteLeavesAnotherWritersTemporaryFile() {
        MeroOperations noDelete = MeroOperations.forContext(wsOnly(Permission.READ, Permission.WRITE).build());
        assertThat(noDelete.call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"new\"}")).startsWith("Wrote ");
        assertThat(noDelete.call("edit_file", "{\"path\":\"/ws/notes.txt\",\"old_text\":\"new\",\"new_text\":\"n\"}"))
                .startsWith("Edited ");
        assertThat(noDelete.call("copy_file", "{\"source\":\"/ws/notes.txt\",\"destination\":\"/ws/notes.txt.bak\"}"))
                .startsWith("Copied ");
        assertThat(w.ws.resolve(stale)).hasContent("left behind");
        assertThat(w.ws.resolve("notes.txt")).hasContent("n");
    }

    @Test
    void aWriteWhereDeletingNeedsApprovalOrAScopeLeavesItToo() {
        MeroOperations approval = MeroOperations.forContext(wsOnly(Permission.READ, Permission.WRITE, Permission.DELETE)
                .requireApproval(Permission.DELETE).approval(request -> {
                    throw new AssertionError("a write never asks to delete: " + request.action());
                }).build());
        assertThat(approval.call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"new\"}")).startsWith("Wrote ");
        MeroOperations scoped = MeroOperations.forContext(wsOnly(Permission.READ, Permission.WRITE, Permission.DELETE)
                .scopes("files:*:read", "files:*:write", "files:*:create").build());
        assertThat(scoped.call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"newer\"}")).startsWith("Wrote ");
        assertThat(w.ws.resolve(stale)).hasContent("left behind");
        MeroOperations full = MeroOperations.forContext(wsOnly(Permission.READ, Permission.WRITE, Permission.DELETE)
                .build());
        assertThat(full.call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"newest\"}")).startsWith("Wrote ");
        assertThat(w.ws.resolve(stale)).doesNotExist();
    }

    @Test
    void anEditDryRunIsRefusedWhereTheEditWouldBe() throws IOException {
        MeroOperations ops = w.ops();
        List<String> before = w.snapshot();
        assertThat(OpsWorkspace.modelText(ops, "edit_file",
                "{\"path\":\"/docs/guide.md\",\"old_text\":\"Guide\",\"new_text\":\"G\",\"dry_run\":true}"))
                .startsWith("Denied: ").doesNotContain("would make");
        MeroOperations readOnlyScope = MeroOperations.forContext(w.contextBuilder().scopes("files:*:read").build());
        assertThat(OpsWorkspace.modelText(readOnlyScope, "edit_file",
                "{\"path\":\"/ws/notes.txt\",\"old_text\":\"hello\",\"new_text\":\"bye\",\"dry_run\":true}"))
                .startsWith("Denied: ");
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(ops.call("edit_file",
                "{\"path\":\"/ws/notes.txt\",\"old_text\":\"hello\",\"new_text\":\"bye\",\"dry_run\":true}"))
                .startsWith("Dry run: editing '/ws/notes.txt' would make 1 replacement; nothing was written.");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void aSearchCutByTheDepthBoundSaysSoAndHowToGoDeeper() throws IOException {
        Path deep = w.ws.resolve("deep");
        for (int level = 0; level < TreeWalk.MAX_DEPTH + 2; level++) {
            deep = deep.resolve("d");
        }
        Files.createDirectories(deep);
        Files.writeString(deep.resolve("match.txt"), "needle\n");
        MeroOperations ops = w.ops();
        String found = ops.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"**/match.txt\"}");
        assertThat(found).startsWith("No paths below '/ws' match '**/match.txt'.")
                .contains("[Incomplete: the walk stops 64 levels below the start, so 1 directory at that depth was not "
                        + "searched, the first being '/ws/deep/d/d/")
                .contains("call find_files again with such a directory as 'path'");
        String searched = ops.call("search_text", "{\"path\":\"/ws\",\"pattern\":\"needle\"}");
        assertThat(searched).startsWith("No line in '/ws' matches 'needle'")
                .contains("[Incomplete: the walk stops 64 levels below the start")
                .contains("call search_text again with such a directory as 'path'");
        String shallow = ops.call("find_files", "{\"path\":\"/docs\",\"pattern\":\"*.md\"}");
        assertThat(shallow).doesNotContain("Incomplete");
        String deeper = ops.call("find_files", "{\"path\":\"/ws/deep/d/d/d/d/d/d/d/d\",\"pattern\":\"**/match.txt\"}");
        assertThat(deeper).contains("match.txt").doesNotContain("Incomplete");
    }
}
