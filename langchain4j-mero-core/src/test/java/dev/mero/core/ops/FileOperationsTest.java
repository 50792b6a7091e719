package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.PermissionDeniedException;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileOperationsTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    MeroOperations ops;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        ops = w.ops();
    }

    private String modelText(String tool, String json) {
        return OpsWorkspace.modelText(ops, tool, json);
    }

    @Test
    void appendCreatesThenAppends() throws IOException {
        assertThat(ops.call("append_file", "{\"path\":\"/ws/log/a.log\",\"content\":\"one\\n\"}"))
                .isEqualTo("Appended 4 bytes to '/ws/log/a.log' (created the file and its missing parent "
                        + "directories).");
        assertThat(ops.call("append_file", "{\"path\":\"/ws/log/a.log\",\"content\":\"two\\n\"}"))
                .isEqualTo("Appended 4 bytes to '/ws/log/a.log' (now 8 bytes).");
        assertThat(w.ws.resolve("log/a.log")).hasContent("one\ntwo");
        List<String> before = w.snapshot();
        assertThat(modelText("append_file", "{\"path\":\"/docs/guide.md\",\"content\":\"x\"}")).startsWith("Denied: ");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void editReplacesAUniqueMatchAndReturnsADiff() throws IOException {
        Files.writeString(w.ws.resolve("code.py"), "a = 1\nb = 2\nc = 3\n");
        assertThat(ops.call("edit_file", "{\"path\":\"/ws/code.py\",\"old_text\":\"b = 2\",\"new_text\":\"b = 20\"}"))
                .isEqualTo("Edited '/ws/code.py' (1 replacement):\n--- a/ws/code.py\n+++ b/ws/code.py\n"
                        + "@@ -1,3 +1,3 @@\n a = 1\n-b = 2\n+b = 20\n c = 3\n");
        assertThat(w.ws.resolve("code.py")).hasContent("a = 1\nb = 20\nc = 3");
    }

    @Test
    void editRefusesAmbiguousOrMissingTextUnlessReplaceAll() throws IOException {
        Files.writeString(w.ws.resolve("x.txt"), "x\nx\n");
        List<String> before = w.snapshot();
        assertThat(modelText("edit_file", "{\"path\":\"/ws/x.txt\",\"old_text\":\"x\",\"new_text\":\"y\"}"))
                .isEqualTo("Error: 'old_text' occurs 2 times in '/ws/x.txt'. Include more surrounding text so that "
                        + "it occurs once, or set replace_all to true to replace every occurrence.");
        assertThat(modelText("edit_file", "{\"path\":\"/ws/x.txt\",\"old_text\":\"zz\",\"new_text\":\"y\"}"))
                .startsWith("Error: 'old_text' was not found in '/ws/x.txt'.");
        assertThat(modelText("edit_file", "{\"path\":\"/ws/x.txt\",\"old_text\":\"\",\"new_text\":\"y\"}"))
                .startsWith("Error: Invalid input: 'old_text' is empty");
        assertThat(ops.call("edit_file",
                "{\"path\":\"/ws/x.txt\",\"old_text\":\"x\",\"new_text\":\"y\",\"replace_all\":true,\"dry_run\":true}"))
                .startsWith("Dry run: editing '/ws/x.txt' would make 2 replacements; nothing was written.\n--- a/ws/x.txt");
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(ops.call("edit_file",
                "{\"path\":\"/ws/x.txt\",\"old_text\":\"x\",\"new_text\":\"y\",\"replace_all\":true}"))
                .startsWith("Edited '/ws/x.txt' (2 replacements):");
        assertThat(w.ws.resolve("x.txt")).hasContent("y\ny");
    }

    @Test
    void editNeedsWriteAndRefusesBinaryOrInvalidUtf8() throws IOException {
        List<String> before = w.snapshot();
        assertThat(modelText("edit_file", "{\"path\":\"/docs/guide.md\",\"old_text\":\"Guide\",\"new_text\":\"G\"}"))
                .startsWith("Denied: '/docs' in context 'test' lacks permission(s) ['WRITE']");
        // issue 19: a dry run is refused where the edit itself would be
        assertThat(modelText("edit_file",
                "{\"path\":\"/docs/guide.md\",\"old_text\":\"Guide\",\"new_text\":\"G\",\"dry_run\":true}"))
                .startsWith("Denied: '/docs' in context 'test' lacks permission(s) ['WRITE']");
        Files.write(w.ws.resolve("bin"), new byte[] {'a', 0, 'b'});
        Files.write(w.ws.resolve("latin1"), new byte[] {'c', (byte) 0xe9});
        List<String> after = w.snapshot();
        assertThat(modelText("edit_file", "{\"path\":\"/ws/bin\",\"old_text\":\"a\",\"new_text\":\"b\"}"))
                .contains("binary");
        assertThat(modelText("edit_file", "{\"path\":\"/ws/latin1\",\"old_text\":\"c\",\"new_text\":\"d\"}"))
                .contains("is not valid UTF-8");
        assertThat(w.snapshot()).isEqualTo(after);
        assertThat(before).hasSize(after.size() - 2);
    }

    @Test
    void copyAcrossMountsAndRefuseIntoReadOnly() throws IOException {
        assertThat(ops.call("copy_file", "{\"source\":\"/docs/guide.md\",\"destination\":\"/ws/copies/guide.md\"}"))
                .isEqualTo("Copied '/docs/guide.md' to '/ws/copies/guide.md' (8 bytes; created the file and its "
                        + "missing parent directories).");
        assertThat(w.ws.resolve("copies/guide.md")).hasContent("# Guide");
        List<String> before = w.snapshot();
        assertThat(modelText("copy_file", "{\"source\":\"/ws/notes.txt\",\"destination\":\"/docs/notes.txt\"}"))
                .startsWith("Denied: '/docs' in context 'test' lacks permission(s) ['WRITE']");
        assertThat(modelText("copy_file", "{\"source\":\"/ws/notes.txt\",\"destination\":\"/ws/notes.txt\"}"))
                .startsWith("Error: The source and the destination are the same file");
        assertThat(modelText("copy_file", "{\"source\":\"/ws/../outside/secret.txt\",\"destination\":\"/ws/s\"}"))
                .startsWith("Denied: ");
        assertThat(modelText("copy_file", "{\"source\":\"/ws\",\"destination\":\"/ws/s\"}"))
                .startsWith("Error: '/ws' is a directory");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void moveNeedsDeleteOnTheSourceAndNeverReplaces() throws IOException {
        MeroOperations noDelete = MeroOperations.forContext(SecurityContext.builder().name("nd")
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.WRITE)).build());
        List<String> before = w.snapshot();
        assertThatThrownBy(() -> noDelete.call("move_file", "{\"source\":\"/ws/notes.txt\",\"destination\":\"/ws/n\"}"))
                .isInstanceOf(PermissionDeniedException.class).hasMessageContaining("['DELETE']");
        Files.writeString(w.ws.resolve("other.txt"), "other");
        List<String> withOther = w.snapshot();
        assertThat(modelText("move_file", "{\"source\":\"/ws/notes.txt\",\"destination\":\"/ws/other.txt\"}"))
                .isEqualTo("Error: '/ws/other.txt' already exists; move_file does not replace files. Delete it first "
                        + "or choose another name.");
        assertThat(w.snapshot()).isEqualTo(withOther);
        assertThat(before).hasSize(withOther.size() - 1);
        assertThat(ops.call("move_file", "{\"source\":\"/ws/notes.txt\",\"destination\":\"/ws/archive/n.txt\"}"))
                .isEqualTo("Moved '/ws/notes.txt' to '/ws/archive/n.txt' (12 bytes; created its missing parent "
                        + "directories).");
        assertThat(w.ws.resolve("notes.txt")).doesNotExist();
        assertThat(w.ws.resolve("archive/n.txt")).hasContent("hello notes");
    }

    @Test
    void deleteFileReportsAbsenceAndRefusesDirectories() throws IOException {
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/notes.txt\"}")).isEqualTo("Deleted '/ws/notes.txt'.");
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/notes.txt\"}"))
                .isEqualTo("'/ws/notes.txt' does not exist (already absent); nothing was deleted.");
        assertThat(ops.call("delete_file", "{\"path\":\"/ws/no/such/dir/x\"}")).contains("already absent");
        Files.createDirectories(w.ws.resolve("d"));
        assertThat(modelText("delete_file", "{\"path\":\"/ws/d\"}"))
                .isEqualTo("Error: '/ws/d' is a directory; use delete_directory to delete directories.");
        assertThat(modelText("delete_file", "{\"path\":\"/docs/guide.md\"}")).startsWith("Denied: ");
        assertThat(w.docs.resolve("guide.md")).exists();
    }

    @Test
    void deleteFileRemovesALinkNotItsTarget() throws IOException {
        Path inside = Files.writeString(w.ws.resolve("target.txt"), "keep");
        Files.createSymbolicLink(w.ws.resolve("dir"), w.outside);
        assertThat(modelText("delete_file", "{\"path\":\"/ws/dir/secret.txt\"}")).startsWith("Denied: ");
        assertThat(w.outside.resolve("secret.txt")).exists();
        assertThat(inside).exists();
    }

    @Test
    void fileInfoDescribesWithoutFollowing() throws IOException {
        assertThat(ops.call("file_info", "{\"path\":\"/ws/notes.txt\"}"))
                .matches("'/ws/notes.txt': a file, 12 bytes, modified \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\. "
                        + "You may: \\['READ', 'WRITE', 'DELETE'\\]\\.");
        assertThat(ops.call("file_info", "{\"path\":\"/docs\"}"))
                .startsWith("'/docs': a directory, modified ").endsWith(" (a mount root). You may: ['READ'].");
        assertThat(ops.call("file_info", "{\"path\":\"/ws/nothing\"}"))
                .isEqualTo("'/ws/nothing' does not exist. You may: ['READ', 'WRITE', 'DELETE'].");
    }

    @Test
    void treeShowsLevelsAndMarksLinksWithoutFollowing() throws IOException {
        Files.createDirectories(w.ws.resolve("a/b/c/d"));
        Files.writeString(w.ws.resolve("a/b/file.txt"), "f");
        Files.createSymbolicLink(w.ws.resolve("out"), w.outside);
        assertThat(ops.call("directory_tree", "{\"path\":\"/ws\",\"max_depth\":3}"))
                .isEqualTo("Tree of '/ws' (depth 3; directories end with '/', symbolic links with '@'):\n"
                        + "a/\n  b/\n    c/\n    file.txt\nnotes.txt\nout@");
        assertThat(ops.call("directory_tree", "{\"path\":\"/ws\",\"max_depth\":1}")).endsWith("a/\nnotes.txt\nout@");
        assertThat(modelText("directory_tree", "{\"path\":\"/ws\",\"max_depth\":0}"))
                .startsWith("Error: Invalid input: 'max_depth' is 0");
        assertThat(modelText("directory_tree", "{\"path\":\"/ws/notes.txt\"}"))
                .isEqualTo("Error: '/ws/notes.txt' is not a directory or does not exist.");
        MeroOperations small = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxTreeEntries(2).build()).build();
        assertThat(small.call("directory_tree", "{\"path\":\"/ws\"}"))
                .endsWith("a/\n  b/\n[Truncated: showing the first 2 entries; list a subdirectory or use a smaller "
                        + "max_depth.]");
    }

    @Test
    void createDirectoryIsIdempotentAndStopsAtFiles() {
        assertThat(ops.call("create_directory", "{\"path\":\"/ws/x/y/z\"}"))
                .isEqualTo("Created '/ws/x/y/z' (and 2 missing parent directories).");
        assertThat(ops.call("create_directory", "{\"path\":\"/ws/x/y/z\"}"))
                .isEqualTo("'/ws/x/y/z' already exists; nothing was created.");
        assertThat(ops.call("create_directory", "{\"path\":\"/ws\"}")).isEqualTo("'/ws' already exists; nothing was "
                + "created.");
        assertThat(modelText("create_directory", "{\"path\":\"/ws/notes.txt/sub\"}")).startsWith("Error: ");
        assertThat(modelText("create_directory", "{\"path\":\"/docs/new\"}")).startsWith("Denied: ");
        assertThat(w.docs.resolve("new")).doesNotExist();
    }

    @Test
    void deleteDirectoryEmptyRecursiveAndRefusals() throws IOException {
        Files.createDirectories(w.ws.resolve("empty"));
        assertThat(ops.call("delete_directory", "{\"path\":\"/ws/empty\"}"))
                .isEqualTo("Deleted the empty directory '/ws/empty'.");
        Files.createDirectories(w.ws.resolve("full/sub"));
        Files.writeString(w.ws.resolve("full/sub/f.txt"), "f");
        Files.createSymbolicLink(w.ws.resolve("full/escape"), w.outside);
        List<String> before = w.snapshot();
        assertThat(modelText("delete_directory", "{\"path\":\"/ws/full\"}"))
                .isEqualTo("Error: '/ws/full' is not empty; set recursive to true to delete it with everything "
                        + "inside.");
        assertThat(modelText("delete_directory", "{\"path\":\"/ws\",\"recursive\":true}"))
                .startsWith("Denied: Path '/ws' is a mount");
        assertThat(modelText("delete_directory", "{\"path\":\"/ws/notes.txt\"}")).startsWith("Error: '/ws/notes.txt' "
                + "is not a directory");
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(ops.call("delete_directory", "{\"path\":\"/ws/full\",\"recursive\":true}"))
                .isEqualTo("Deleted '/ws/full' and the 3 entries inside it.");
        assertThat(w.ws.resolve("full")).doesNotExist();
        assertThat(w.outside.resolve("secret.txt")).hasContent("top secret");
        assertThat(ops.call("delete_directory", "{\"path\":\"/ws/full\"}")).contains("already absent");
    }

    @Test
    void recursiveDeleteRefusesATreeHoldingAMountOrAProtectedEntry() throws IOException {
        Path nested = Files.createDirectories(w.ws.resolve("project/keep"));
        Files.writeString(nested.resolve("k.txt"), "k");
        MeroOperations withNested = MeroOperations.forContext(w.contextBuilder()
                .path(PathEntry.builder().path(nested).slug("keep").allow(Permission.READ).build()).build());
        List<String> before = w.snapshot();
        assertThatThrownBy(() -> withNested.call("delete_directory", "{\"path\":\"/ws/project\",\"recursive\":true}"))
                .isInstanceOf(PathAccessDeniedException.class).hasMessageContaining("contains the mount '/keep'");
        MeroOperations small = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxScanEntries(1).build()).build();
        assertThatThrownBy(() -> small.call("delete_directory", "{\"path\":\"/ws/project\",\"recursive\":true}"))
                .isInstanceOf(OperationFailedException.class).hasMessageContaining("nothing was deleted");
        assertThat(w.snapshot()).isEqualTo(before);
    }
}
