package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.InvalidInputException;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PermissionDeniedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadWriteListTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    MeroOperations ops;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        ops = w.ops();
    }

    private String call(String tool, String json) {
        return ops.call(tool, json);
    }

    private String modelText(String tool, String json) {
        return OpsWorkspace.modelText(ops, tool, json);
    }

    @Test
    void readsAWholeSmallFileExactly() {
        assertThat(call("read_file", "{\"path\":\"/ws/notes.txt\"}")).isEqualTo("hello notes\n");
        assertThat(call("read_file", "{\"path\":\"notes.txt\"}")).isEqualTo("hello notes\n");
        assertThat(call("read_file", "{\"path\":\"/docs/guide.md\"}")).isEqualTo("# Guide\n");
    }

    @Test
    void readsAWindowOfLinesAndSaysHowToReadOn() throws IOException {
        Files.writeString(w.ws.resolve("lines.txt"), "l1\nl2\nl3\nl4\nl5\n");
        assertThat(call("read_file", "{\"path\":\"/ws/lines.txt\",\"offset\":2,\"limit\":2}"))
                .isEqualTo("l2\nl3\n\n[Truncated: showing lines 2-3 of 5 of '/ws/lines.txt'; call read_file with "
                        + "offset=4 to read on.]");
        assertThat(call("read_file", "{\"path\":\"/ws/lines.txt\",\"offset\":4}"))
                .isEqualTo("l4\nl5\n\n[Showing lines 4-5 of 5 of '/ws/lines.txt' (to the end).]");
        assertThat(modelText("read_file", "{\"path\":\"/ws/lines.txt\",\"offset\":9}"))
                .startsWith("Error: Invalid input: 'offset' is 9 but '/ws/lines.txt' has 5 lines. Expected ");
        assertThat(modelText("read_file", "{\"path\":\"/ws/lines.txt\",\"offset\":0}"))
                .startsWith("Error: Invalid input: 'offset' is 0");
    }

    @Test
    void cutsAtALineBoundaryWithinTheByteLimit() throws IOException {
        MeroOperations small = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxReadBytes(10).build()).build();
        Files.writeString(w.ws.resolve("long.txt"), "abcd\nefgh\nijkl\n");
        assertThat(small.call("read_file", "{\"path\":\"/ws/long.txt\"}"))
                .isEqualTo("abcd\nefgh\n\n[Truncated: showing lines 1-2 of 3 of '/ws/long.txt'; call read_file "
                        + "with offset=3 to read on.]");
        Files.writeString(w.ws.resolve("oneline.txt"), "x".repeat(25));
        assertThat(small.call("read_file", "{\"path\":\"/ws/oneline.txt\"}"))
                .isEqualTo("xxxxxxxxxx\n[Truncated: line 1 of 1 of '/ws/oneline.txt' is longer than 10 bytes; "
                        + "only its start is shown.]");
    }

    @Test
    void aNulByteAnywhereInASmallWholeFileMakesItBinary() throws IOException {
        // a whole small file is checked for NUL in its decoded text: every place and neighbour a NUL can have
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] invalid = {(byte) 0xC3, (byte) 0x28, (byte) 0xFF};
        List<byte[]> contents = List.of(new byte[] {0}, new byte[] {0, '\n'}, new byte[] {'a', '\n', 0},
                concat(bom, new byte[] {0}), concat(invalid, new byte[] {0}), concat(new byte[] {0}, invalid),
                concat("\u00e9\u20ac".getBytes(StandardCharsets.UTF_8), new byte[] {0, (byte) 0xE2}),
                concat("x".repeat(8190).getBytes(StandardCharsets.UTF_8), new byte[] {0}),
                concat("\uFFFD line\n".getBytes(StandardCharsets.UTF_8), new byte[] {0}));
        for (byte[] content : contents) {
            Files.write(w.ws.resolve("nul.bin"), content);
            assertThat(modelText("read_file", "{\"path\":\"/ws/nul.bin\"}")).as("%d bytes", content.length)
                    .isEqualTo("Error: '/ws/nul.bin' looks like a binary file (it contains NUL bytes); read_file "
                            + "only returns text.");
        }
        // U+FFFD written in the file is text, not a NUL
        Files.write(w.ws.resolve("text.txt"), "\uFFFD ok\n".getBytes(StandardCharsets.UTF_8));
        assertThat(call("read_file", "{\"path\":\"/ws/text.txt\"}")).isEqualTo("\uFFFD ok\n");
    }

    @Test
    void smallWholeFilesReadOneAfterAnotherAndOnManyThreadsKeepTheirOwnBytes() throws Exception {
        // a small whole file is read into its thread's buffer: the next read, shorter or on another thread,
        // never shows another file's bytes
        int files = 16;
        for (int i = 0; i < files; i++) {
            Files.writeString(w.ws.resolve("f" + i + ".txt"), ("line " + i + "\n").repeat(files - i));
        }
        for (int i = 0; i < files; i++) {
            assertThat(call("read_file", "{\"path\":\"/ws/f" + i + ".txt\"}"))
                    .isEqualTo(("line " + i + "\n").repeat(files - i));
        }
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            List<java.util.concurrent.Future<Boolean>> results = new java.util.ArrayList<>();
            for (int round = 0; round < 200; round++) {
                int i = round % files;
                results.add(pool.submit(() -> call("read_file", "{\"path\":\"/ws/f" + i + ".txt\"}")
                        .equals(("line " + i + "\n").repeat(files - i))));
            }
            for (java.util.concurrent.Future<Boolean> result : results) {
                assertThat(result.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    @Test
    void refusesDirectoriesBinaryFilesAndPipesWithoutHanging() throws Exception {
        Files.createDirectories(w.ws.resolve("sub"));
        assertThat(modelText("read_file", "{\"path\":\"/ws/sub\"}"))
                .isEqualTo("Error: '/ws/sub' is a directory, not a regular file; read_file works on regular files "
                        + "only. Use list_directory to see its entries.");
        assertThat(modelText("read_file", "{\"path\":\"/ws\"}")).startsWith("Error: '/ws' is a directory");
        Files.write(w.ws.resolve("image.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 1});
        assertThat(modelText("read_file", "{\"path\":\"/ws/image.png\"}")).isEqualTo("Error: '/ws/image.png' "
                + "looks like a binary file (it contains NUL bytes); read_file only returns text.");
        Path fifo = w.ws.resolve("pipe");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        assertThat(modelText("read_file", "{\"path\":\"/ws/pipe\"}"))
                .isEqualTo("Error: '/ws/pipe' is a device, pipe or socket, not a regular file; read_file works on "
                        + "regular files only.");
        assertThat(modelText("write_file", "{\"path\":\"/ws/pipe\",\"content\":\"x\"}"))
                .startsWith("Error: '/ws/pipe' is a device, pipe or socket");
        assertThat(modelText("read_file", "{\"path\":\"/ws/missing.txt\"}"))
                .isEqualTo("Error: '/ws/missing.txt' is not a file or does not exist.");
    }

    @Test
    void emptyAndInvalidUtf8Files() throws IOException {
        Files.writeString(w.ws.resolve("empty.txt"), "");
        assertThat(call("read_file", "{\"path\":\"/ws/empty.txt\"}")).isEqualTo("['/ws/empty.txt' is an empty file.]");
        Files.write(w.ws.resolve("latin1.txt"), "caf\u00e9".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(call("read_file", "{\"path\":\"/ws/latin1.txt\"}")).isEqualTo("caf\uFFFD\n[Note: 1 byte "
                + "sequence(s) that are not valid UTF-8 were replaced with U+FFFD.]");
    }

    @Test
    void readDeniedOutsideTheMountsLeavesNothing() {
        assertThat(modelText("read_file", "{\"path\":\"/ws/../outside/secret.txt\"}")).startsWith("Denied: ");
        assertThatThrownBy(() -> call("read_file", "{\"path\":\"/etc/passwd\"}"))
                .isInstanceOf(PathAccessDeniedException.class);
    }

    @Test
    void writesAtomicallyCreatesParentsAndReportsUnchanged() throws IOException {
        assertThat(call("write_file", "{\"path\":\"/ws/reports/2024/summary.md\",\"content\":\"# Summary\\n\"}"))
                .isEqualTo("Wrote 10 bytes to '/ws/reports/2024/summary.md' (created the file and its missing "
                        + "parent directories).");
        assertThat(Files.readString(w.ws.resolve("reports/2024/summary.md"))).isEqualTo("# Summary\n");
        assertThat(call("write_file", "{\"path\":\"/ws/reports/2024/summary.md\",\"content\":\"# Summary\\n\"}"))
                .isEqualTo("'/ws/reports/2024/summary.md' already holds exactly this content (10 bytes); unchanged.");
        assertThat(call("write_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"\u00fc\"}"))
                .isEqualTo("Wrote 2 bytes to '/ws/notes.txt' (replaced its previous contents).");
        assertThat(Files.readString(w.ws.resolve("notes.txt"))).isEqualTo("\u00fc");
        try (var files = Files.list(w.ws)) {
            assertThat(files.map(p -> p.getFileName().toString())).doesNotContain(".notes.txt.tmp")
                    .allMatch(name -> !name.contains(".mero-"));
        }
    }

    @Test
    void writeNeverFollowsALinkSwappedInAtTheTarget() throws IOException {
        Path link = w.ws.resolve("out.txt");
        Files.createSymbolicLink(link, w.outside.resolve("secret.txt"));
        List<String> before = w.snapshot();
        assertThatThrownBy(() -> call("write_file", "{\"path\":\"/ws/out.txt\",\"content\":\"pwned\"}"))
                .isInstanceOf(PathAccessDeniedException.class);
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(Files.readString(w.outside.resolve("secret.txt"))).isEqualTo("top secret\n");
    }

    @Test
    void writeRefusalsLeaveTheFileSystemUnchanged() throws IOException {
        List<String> before = w.snapshot();
        assertThat(modelText("write_file", "{\"path\":\"/docs/new/x.md\",\"content\":\"x\"}"))
                .isEqualTo("Denied: '/docs' in context 'test' lacks permission(s) ['WRITE'] for '/docs/new/x.md' "
                        + "(allows: ['READ']).");
        assertThatThrownBy(() -> call("write_file", "{\"path\":\"/ws/a/../../outside/x\",\"content\":\"x\"}"))
                .isInstanceOf(PathAccessDeniedException.class);
        assertThatThrownBy(() -> call("write_file", "{\"path\":\"/ws\",\"content\":\"x\"}"))
                .isInstanceOf(OperationFailedException.class);
        assertThatThrownBy(() -> call("write_file", "{\"path\":\"/ws/notes.txt/child\",\"content\":\"x\"}"))
                .isInstanceOf(OperationFailedException.class).hasMessageContaining("is not a directory");
        MeroOperations small = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxWriteBytes(3).build()).build();
        assertThatThrownBy(() -> small.call("write_file", "{\"path\":\"/ws/big\",\"content\":\"\u00e4\u00e4a\"}"))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("5 bytes");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void parentDirectoriesNeedTheDirectoryCreateScope() throws IOException {
        MeroOperations scoped = MeroOperations.forContext(w.contextBuilder().scopes("files:file:*").build());
        List<String> before = w.snapshot();
        assertThat(scoped.call("write_file", "{\"path\":\"/ws/flat.txt\",\"content\":\"x\"}")).startsWith("Wrote 1 byte");
        assertThatThrownBy(() -> scoped.call("write_file", "{\"path\":\"/ws/deep/x.txt\",\"content\":\"x\"}"))
                .hasMessageContaining("files:directory:create");
        assertThat(Files.exists(w.ws.resolve("deep"))).isFalse();
        assertThat(w.snapshot()).hasSize(before.size() + 1);
    }

    @Test
    void listsDirectoriesAndTheMountsAtSlash() throws IOException {
        Files.createDirectories(w.ws.resolve("sub/inner"));
        assertThat(call("list_directory", "{\"path\":\"/ws\"}"))
                .isEqualTo("Contents of '/ws' (2 entries; directories end with '/'):\nnotes.txt\nsub/");
        assertThat(call("list_directory", "{\"path\":\"/\"}")).isEqualTo(call("list_roots", "{}"))
                .isEqualTo("Mounts (address files as '/<mount>/<path inside it>'; the first is also the default "
                        + "for relative paths):\n/ws: may ['READ', 'WRITE', 'DELETE']\n/docs: may ['READ']");
        assertThat(modelText("list_directory", "{\"path\":\"/ws/notes.txt\"}"))
                .isEqualTo("Error: '/ws/notes.txt' is not a directory or does not exist.");
        assertThat(modelText("list_directory", "{\"path\":\"/ws/nope\"}"))
                .isEqualTo("Error: '/ws/nope' is not a directory or does not exist.");
    }

    @Test
    void unknownToolsAreInvalidInput() {
        assertThatThrownBy(() -> call("rm_rf", "{}")).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("Invalid input: there is no tool 'rm_rf'. Expected one of: read_file, ");
    }

    @Test
    void aLimitOfOneLineIsTheSmallestWindow() throws IOException {
        Files.writeString(w.ws.resolve("two.txt"), "one\ntwo\n");
        assertThat(modelText("read_file", "{\"path\":\"/ws/two.txt\",\"limit\":1}"))
                .isEqualTo("one\n\n[Truncated: showing lines 1-1 of 2 of '/ws/two.txt'; call read_file with offset=2 "
                        + "to read on.]");
        assertThat(modelText("read_file", "{\"path\":\"/ws/two.txt\",\"limit\":0}"))
                .startsWith("Error: Invalid input: 'limit' is 0; give at least 1 line. Expected ");
        assertThat(modelText("read_file", "{\"path\":\"/ws/two.txt\",\"offset\":3}"))
                .startsWith("Error: Invalid input: 'offset' is 3 but '/ws/two.txt' has 2 lines. Expected an offset "
                        + "between 1 and 2.");
    }

    @Test
    void aBrokenCharacterAtTheRealEndOfALaterWindowIsShownReplaced() throws IOException {
        Files.write(w.ws.resolve("tail.txt"), new byte[] {'a', '\n', 'b', (byte) 0xC3});
        assertThat(modelText("read_file", "{\"path\":\"/ws/tail.txt\",\"offset\":2}"))
                .isEqualTo("b\uFFFD\n[Note: 1 byte sequence(s) that are not valid UTF-8 were replaced with U+FFFD.]\n"
                        + "[Showing lines 2-2 of 2 of '/ws/tail.txt' (to the end).]");
    }

    @Test
    void aCharacterCutByTheByteLimitInsideALongLineIsDroppedNotReplaced() throws IOException {
        MeroOperations four = w.ops(OperationLimits.builder().maxReadBytes(4));
        Files.write(w.ws.resolve("long.txt"), "abc\u00fcdef\n".getBytes(StandardCharsets.UTF_8));
        assertThat(OpsWorkspace.modelText(four, "read_file", "{\"path\":\"/ws/long.txt\"}"))
                .isEqualTo("abc\n[Truncated: line 1 of 1 of '/ws/long.txt' is longer than 4 bytes; only its start "
                        + "is shown.]");
    }

    @Test
    void theFirstEntriesInNameOrderAreShownUpToTheLimit() throws IOException {
        MeroOperations two = w.ops(OperationLimits.builder().maxListEntries(2));
        assertThat(two.call("list_directory", "{\"path\":\"/ws\"}"))
                .isEqualTo("Contents of '/ws' (1 entry; directories end with '/'):\nnotes.txt");
        Files.writeString(w.ws.resolve("a.txt"), "a");
        assertThat(two.call("list_directory", "{\"path\":\"/ws\"}"))
                .isEqualTo("Contents of '/ws' (2 entries; directories end with '/'):\na.txt\nnotes.txt");
        Files.createDirectories(w.ws.resolve("b"));
        assertThat(two.call("list_directory", "{\"path\":\"/ws\"}"))
                .isEqualTo("Contents of '/ws' (3 entries; directories end with '/'):\na.txt\nb/\n"
                        + "[Showing the first 2 of 3 entries in name order; the rest are not shown.]");
        Files.createDirectories(w.ws.resolve("empty"));
        assertThat(two.call("list_directory", "{\"path\":\"/ws/empty\"}")).isEqualTo("'/ws/empty' is an empty directory.");
    }

    @Test
    void listingTheMountsNeedsTheListingScope() {
        MeroOperations readOnly = MeroOperations.forContext(w.contextBuilder().scopes("files:file:read").build());
        assertThat(OpsWorkspace.modelText(readOnly, "list_directory", "{\"path\":\"/\"}"))
                .startsWith("Denied: ").contains("files:directory:list");
    }
}
