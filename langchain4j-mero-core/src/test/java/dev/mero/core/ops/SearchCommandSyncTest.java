package dev.mero.core.ops;

import dev.mero.core.catalogue.ToolDescriptor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.CommandDeniedException;
import dev.mero.core.InvalidInputException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SearchCommandSyncTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    MeroOperations ops;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        ops = w.ops();
        Files.createDirectories(w.ws.resolve("src/main"));
        Files.writeString(w.ws.resolve("src/main/App.java"), "class App {\n  // TODO fix\n}\n");
        Files.writeString(w.ws.resolve("src/readme.md"), "todo: write docs\n");
        Files.writeString(w.outside.resolve("leak.md"), "TODO outside\n");
        Files.createSymbolicLink(w.ws.resolve("src/out"), w.outside);
    }

    private String modelText(String tool, String json) {
        return OpsWorkspace.modelText(ops, tool, json);
    }

    @Test
    void findFilesMatchesNamesAndPathsButNeverFollowsLinks() {
        assertThat(ops.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"*.md\"}"))
                .isEqualTo("1 path below '/ws' match '*.md' (directories end with '/', symbolic links with '@'):\n"
                        + "/ws/src/readme.md");
        assertThat(ops.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"src/**/*.java\"}"))
                .endsWith("\n/ws/src/main/App.java");
        assertThat(ops.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"**/out\"}")).endsWith("\n/ws/src/out@");
        assertThat(ops.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"../outside/*\"}"))
                .startsWith("No paths below '/ws' match");
        assertThat(ops.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"**/leak.md\"}"))
                .startsWith("No paths below '/ws' match");
        assertThat(modelText("find_files", "{\"path\":\"/ws\",\"pattern\":\"[\"}"))
                .startsWith("Error: Invalid input: 'pattern' is not a valid glob");
        assertThat(modelText("find_files", "{\"path\":\"/ws/../outside\",\"pattern\":\"*\"}")).startsWith("Denied: ");
        MeroOperations small = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxFindResults(1).build()).build();
        assertThat(small.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"*\"}"))
                .contains("[Truncated: showing the first 1 matches");
    }

    @Test
    void searchTextReturnsVirtualPathLineAndText() throws IOException {
        Files.write(w.ws.resolve("src/blob.bin"), new byte[] {'T', 'O', 'D', 'O', 0, 1});
        assertThat(ops.call("search_text", "{\"path\":\"/ws\",\"pattern\":\"(?i)todo\"}"))
                .isEqualTo("2 matching lines for '(?i)todo' in '/ws' (searched 3 files):\n"
                        + "/ws/src/main/App.java:2:   // TODO fix\n/ws/src/readme.md:1: todo: write docs");
        assertThat(ops.call("search_text", "{\"path\":\"/ws\",\"pattern\":\"TODO\",\"glob\":\"*.java\"}"))
                .endsWith("(searched 1 file):\n/ws/src/main/App.java:2:   // TODO fix");
        assertThat(ops.call("search_text", "{\"path\":\"/ws/src/readme.md\",\"pattern\":\"docs$\"}"))
                .endsWith("/ws/src/readme.md:1: todo: write docs");
        assertThat(ops.call("search_text", "{\"path\":\"/ws\",\"pattern\":\"outside\"}"))
                .startsWith("No line in '/ws' matches 'outside'");
        assertThat(modelText("search_text", "{\"path\":\"/ws\",\"pattern\":\"(\"}"))
                .startsWith("Error: Invalid input: 'pattern' is not a valid regular expression");
    }

    @Test
    void aFormerlyCatastrophicPatternCompletesAndALongMatchIsStoppedByTheTimeLimit() throws IOException {
        Files.writeString(w.ws.resolve("slow.txt"), "a".repeat(40) + "!\n");
        MeroOperations quick = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().searchTimeoutMillis(200).build()).build();
        assertThat(quick.call("search_text", "{\"path\":\"/ws/slow.txt\",\"pattern\":\"((a+)+)+b\"}"))
                .isEqualTo("No line in '/ws/slow.txt' matches '((a+)+)+b' (searched 1 file).");
        // linear time is still time: one line of a mebibyte takes the engine far longer than 1 ms, and the
        // deadline is checked while the line is matched
        Files.writeString(w.ws.resolve("slow.txt"), "a".repeat(1024 * 1024 - 1) + "\n");
        MeroOperations instant = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().searchTimeoutMillis(1).build()).build();
        assertThat(instant.call("search_text", "{\"path\":\"/ws/slow.txt\",\"pattern\":\"(a|aa)+b\"}"))
                .contains("[Incomplete: the search reached its time limit of 1 ms");
    }

    @Test
    void runCommandShowsExitCodeAndOutputAndIsDecidedByThePolicy() {
        MeroOperations withCommands = MeroOperations.forContext(SecurityContext.builder().name("cmd")
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.EXECUTE))
                .allowCommand("echo").allowCommand("ls").build());
        assertThat(withCommands.call("run_command", "{\"command\":\"echo hello\"}"))
                .isEqualTo("Exit code: 0\n[stdout]\nhello\n");
        assertThat(withCommands.call("run_command", "{\"command\":\"ls nope\",\"working_directory\":\"/ws\"}"))
                .startsWith("Exit code: 2\n[stdout]\n(empty)\n[stderr]\n");
        assertThatThrownBy(() -> withCommands.call("run_command", "{\"command\":\"rm -rf /ws\"}"))
                .isInstanceOf(CommandDeniedException.class);
        assertThatThrownBy(() -> withCommands.call("run_command", "{\"command\":\"echo a\",\"timeout_seconds\":0}"))
                .isInstanceOf(InvalidInputException.class);
        assertThat(ops.availableTools()).extracting(ToolDescriptor::name).doesNotContain("run_command");
        assertThat(withCommands.availableTools()).extracting(ToolDescriptor::name).contains("run_command")
                .doesNotContain("write_file", "delete_file");
    }

    @Test
    void syncCopiesUpdatesAndDeletesOneWay() throws IOException {
        Path from = Files.createDirectories(w.ws.resolve("from/sub"));
        Files.writeString(from.resolve("a.txt"), "A");
        Files.writeString(w.ws.resolve("from/b.txt"), "B");
        Path to = Files.createDirectories(w.ws.resolve("to"));
        Files.writeString(to.resolve("b.txt"), "old");
        Files.writeString(to.resolve("extra.txt"), "x");
        Files.createSymbolicLink(w.ws.resolve("from/link"), w.outside);

        List<String> before = w.snapshot();
        assertThat(ops.call("sync_directory",
                "{\"source\":\"/ws/from\",\"destination\":\"/ws/to\",\"delete_extraneous\":true,\"dry_run\":true}"))
                .startsWith("Dry run: syncing '/ws/from' to '/ws/to' would copy 1, update 1, delete 1 (1 new directory; "
                        + "skipped 1 symbolic links or special files); nothing was changed.");
        assertThat(w.snapshot()).isEqualTo(before);

        assertThat(ops.call("sync_directory",
                "{\"source\":\"/ws/from\",\"destination\":\"/ws/to\",\"delete_extraneous\":true}"))
                .isEqualTo("Synced '/ws/from' to '/ws/to': copied 1, updated 1, deleted 1 (1 new directory; skipped 1 "
                        + "symbolic links or special files).\ncopy: sub/a.txt\nupdate: b.txt\ndelete: extra.txt\n"
                        + "create directory: sub");
        assertThat(to.resolve("sub/a.txt")).hasContent("A");
        assertThat(to.resolve("b.txt")).hasContent("B");
        assertThat(to.resolve("extra.txt")).doesNotExist();
        assertThat(to.resolve("link")).doesNotExist();
        assertThat(ops.call("sync_directory", "{\"source\":\"/ws/from\",\"destination\":\"/ws/to\"}"))
                .startsWith("Synced '/ws/from' to '/ws/to': copied 0, updated 0, deleted 0 (0 new directories;");
    }

    @Test
    void syncRefusesOverlapsAndReadOnlyDestinationsWithoutChanges() throws IOException {
        Files.createDirectories(w.ws.resolve("from"));
        Files.writeString(w.ws.resolve("from/a.txt"), "A");
        List<String> before = w.snapshot();
        assertThat(modelText("sync_directory", "{\"source\":\"/ws\",\"destination\":\"/ws/from/inner\"}"))
                .startsWith("Error: The source '/ws' and the destination '/ws/from/inner' overlap");
        assertThat(modelText("sync_directory", "{\"source\":\"/ws/from\",\"destination\":\"/docs/copy\"}"))
                .startsWith("Denied: '/docs' in context 'test' lacks permission(s) ['WRITE']");
        assertThat(w.snapshot()).isEqualTo(before);
    }
}
