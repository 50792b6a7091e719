package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An edit_file dry run is refused where the real edit would be; find_files and search_text say when the depth
 * bound kept them out of a subtree instead of reporting a plain "no match".
 */
class EditDryRunAndDepthTest {

    @TempDir
    Path temp;
    OpsWorkspace w;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
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
    void everyDirectoryTheDepthBoundLeftOutIsCountedAndTheFirstNamed() throws IOException {
        for (String top : new String[] {"b", "a"}) {
            Path deep = w.ws.resolve(top);
            for (int level = 0; level < TreeWalk.MAX_DEPTH; level++) {
                deep = deep.resolve("d");
            }
            Files.createDirectories(deep);
        }
        String found = w.ops().call("find_files", "{\"path\":\"/ws\",\"pattern\":\"*.md\"}");
        assertThat(found).contains("so 2 directories at that depth were not searched, the first being '/ws/a/d/");
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
