package dev.mero.tools;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.InvalidInputException;
import dev.mero.core.MeroToolsException;
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
import java.util.concurrent.Callable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileToolsTest {

    @TempDir
    Path tempDir;

    Workspace w;
    FileTools tools;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tempDir);
        tools = new FileTools(w.context);
    }

    /** What the model would read for a refused or failed call. */
    static String modelText(Callable<String> call) {
        try {
            return "returned: " + call.call();
        } catch (MeroToolsException e) {
            return e.toModelText();
        } catch (Exception e) {
            throw new AssertionError("not a mero exception", e);
        }
    }

    @Nested
    class ReadFile {

        @Test
        void readsUtf8TextByVirtualRelativeAndHostPath() throws IOException {
            Files.writeString(w.ws.resolve("ünï.txt"), "grüße ✓\nline 2\n", UTF_8);

            assertThat(tools.readFile("/ws/ünï.txt")).isEqualTo("grüße ✓\nline 2\n");
            assertThat(tools.readFile("ünï.txt")).isEqualTo("grüße ✓\nline 2\n");
            assertThat(tools.readFile(w.ws.resolve("ünï.txt").toString())).isEqualTo("grüße ✓\nline 2\n");
        }

        @Test
        void readsFromReadOnlyMount() {
            assertThat(tools.readFile("/docs/guide.md")).isEqualTo("# Guide\n");
        }

        @Test
        void missingFileIsAnOrdinaryErrorNamingTheVirtualPath() {
            assertThatThrownBy(() -> tools.readFile("missing.txt"))
                    .isInstanceOf(OperationFailedException.class)
                    .hasMessage("'/ws/missing.txt' is not a file or does not exist.");
            assertThat(modelText(() -> tools.readFile("/ws/missing.txt")))
                    .isEqualTo("Error: '/ws/missing.txt' is not a file or does not exist.");
        }

        @Test
        void directoryIsAnErrorWithAHint() throws IOException {
            Files.createDirectories(w.ws.resolve("sub"));

            assertThat(modelText(() -> tools.readFile("/ws/sub"))).isEqualTo("Error: '/ws/sub' is not a file or "
                    + "does not exist. It is a directory: use list_directory to see its entries.");
        }

        @Test
        void nullPathIsInvalidInputListingTheMounts() {
            assertThatThrownBy(() -> tools.readFile(null))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessage("The argument 'path' is missing. Give a path such as '/ws/notes.txt' "
                            + "(mounted: '/ws', '/docs').");
        }

        @Test
        void dotDotEscapeIsDenied() {
            assertThat(modelText(() -> tools.readFile("../outside/secret.txt")))
                    .isEqualTo("Denied: Path '../outside/secret.txt' (resolves outside the mounted entries) is not "
                            + "covered by any PathEntry in context 'test'.");
        }

        @Test
        void symlinkPointingOutsideIsDeniedAndNotFollowed() throws IOException {
            Files.createSymbolicLink(w.ws.resolve("link.txt"), w.outside.resolve("secret.txt"));

            assertThatThrownBy(() -> tools.readFile("/ws/link.txt"))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path '/ws/link.txt' (resolves outside the mounted entries) is not covered by any "
                            + "PathEntry in context 'test'.");
        }

        @Test
        void symlinkInsideTheMountIsReadThroughItsTarget() throws IOException {
            Files.createSymbolicLink(w.ws.resolve("alias.txt"), w.ws.resolve("notes.txt"));

            assertThat(tools.readFile("/ws/alias.txt")).isEqualTo("hello notes\n");
        }

        @Test
        void absolutePathOutsideEveryMountIsDenied() {
            assertThat(modelText(() -> tools.readFile("/etc/passwd"))).isEqualTo("Denied: Path '/etc/passwd' is "
                    + "an absolute path that isn't covered by any configured PathEntry, and its leading segment "
                    + "doesn't match a mounted slug (mounted: '/ws', '/docs').");
        }

        @Test
        void binaryContentIsRefused() throws IOException {
            Files.write(w.ws.resolve("image.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2});

            assertThat(modelText(() -> tools.readFile("/ws/image.png"))).isEqualTo("Error: '/ws/image.png' looks "
                    + "like a binary file (it contains NUL bytes); read_file only returns text.");
        }

        @Test
        void longFileIsTruncatedWithANoteAndAMultiByteCharacterIsNotCutInHalf() throws IOException {
            FileTools small = FileTools.builder().securityContext(w.context).maxReadBytes(10).build();
            // 'é' is two bytes: bytes 9 and 10 (0-based), so the limit of 10 bytes falls inside it
            Files.writeString(w.ws.resolve("long.txt"), "abcdefghié and more", UTF_8);

            assertThat(small.readFile("/ws/long.txt"))
                    .isEqualTo("abcdefghi\n[Truncated: showing the first 10 of 20 bytes of '/ws/long.txt'.]");
        }

        @Test
        void fileOfExactlyTheLimitIsNotTruncated() throws IOException {
            FileTools small = FileTools.builder().securityContext(w.context).maxReadBytes(5).build();
            Files.writeString(w.ws.resolve("five.txt"), "12345");

            assertThat(small.readFile("/ws/five.txt")).isEqualTo("12345");
        }

        @Test
        void invalidUtf8IsReplacedAndCounted() throws IOException {
            Files.write(w.ws.resolve("latin1.txt"), "caf\u00e9 cr\u00e8me".getBytes(ISO_8859_1));

            assertThat(tools.readFile("/ws/latin1.txt")).isEqualTo("caf\uFFFD cr\uFFFDme\n[Note: 2 byte sequence(s) "
                    + "that are not valid UTF-8 were replaced with U+FFFD.]");
        }

        @Test
        void emptyFileSaysSo() throws IOException {
            Files.createFile(w.ws.resolve("empty.txt"));

            assertThat(tools.readFile("/ws/empty.txt")).isEqualTo("['/ws/empty.txt' is an empty file.]");
        }

        @Test
        void byteOrderMarkIsDropped() throws IOException {
            Files.writeString(w.ws.resolve("bom.txt"), "\uFEFFtext", UTF_8);

            assertThat(tools.readFile("/ws/bom.txt")).isEqualTo("text");
        }
    }

    @Nested
    class WriteFile {

        @Test
        void createsAFileAndItsParentsInsideTheMount() throws IOException {
            String result = tools.writeFile("/ws/reports/2024/summary.md", "# Summary\n");

            assertThat(result).isEqualTo("Wrote 10 bytes to '/ws/reports/2024/summary.md' (created the file and "
                    + "its missing parent directories).");
            assertThat(w.ws.resolve("reports/2024/summary.md")).hasContent("# Summary\n");
        }

        @Test
        void overwritesAnExistingFile() throws IOException {
            String result = tools.writeFile("notes.txt", "ü");

            assertThat(result).isEqualTo("Wrote 2 bytes to '/ws/notes.txt' (replaced its previous contents).");
            assertThat(Files.readString(w.ws.resolve("notes.txt"))).isEqualTo("ü");
        }

        @Test
        void writesAnEmptyFile() {
            assertThat(tools.writeFile("/ws/empty.txt", ""))
                    .isEqualTo("Wrote 0 bytes to '/ws/empty.txt' (created the file).");
            assertThat(w.ws.resolve("empty.txt")).isEmptyFile();
        }

        @Test
        void readOnlyMountIsDeniedAndNothingIsCreated() {
            List<String> before = w.snapshot();

            assertThat(modelText(() -> tools.writeFile("/docs/new/dir/file.txt", "x")))
                    .isEqualTo("Denied: '/docs' in context 'test' lacks permission(s) ['WRITE'] for "
                            + "'/docs/new/dir/file.txt' (allows: ['READ']).");
            assertThat(w.snapshot()).isEqualTo(before);
        }

        @Test
        void escapeIsDeniedAndNoParentDirectoryIsCreated() {
            List<String> before = w.snapshot();

            assertThatThrownBy(() -> tools.writeFile("../outside/new/dir/file.txt", "x"))
                    .isInstanceOf(PathAccessDeniedException.class)
                    .hasMessage("Path '../outside/new/dir/file.txt' (resolves outside the mounted entries) is not "
                            + "covered by any PathEntry in context 'test'.");
            assertThat(w.snapshot()).isEqualTo(before);
        }

        @Test
        void symlinkPointingOutsideIsNotWrittenThrough() throws IOException {
            Files.createSymbolicLink(w.ws.resolve("link.txt"), w.outside.resolve("secret.txt"));
            Files.createSymbolicLink(w.ws.resolve("linkdir"), w.outside);
            List<String> before = w.snapshot();

            assertThatThrownBy(() -> tools.writeFile("/ws/link.txt", "pwned"))
                    .isInstanceOf(PathAccessDeniedException.class);
            assertThatThrownBy(() -> tools.writeFile("/ws/linkdir/sub/new.txt", "pwned"))
                    .isInstanceOf(PathAccessDeniedException.class);
            assertThat(w.snapshot()).isEqualTo(before);
            assertThat(w.outside.resolve("secret.txt")).hasContent("top secret");
        }

        @Test
        void danglingSymlinkIsNotWrittenThrough() throws IOException {
            Files.createSymbolicLink(w.ws.resolve("dangling.txt"), w.outside.resolve("created-by-agent.txt"));

            assertThatThrownBy(() -> tools.writeFile("/ws/dangling.txt", "pwned"))
                    .isInstanceOf(PathAccessDeniedException.class);
            assertThat(w.outside.resolve("created-by-agent.txt")).doesNotExist();
        }

        @Test
        void nullArgumentsAreInvalidInput() {
            assertThat(modelText(() -> tools.writeFile(null, "x"))).isEqualTo("Error: The argument 'path' is "
                    + "missing. Give a path such as '/ws/notes.txt' (mounted: '/ws', '/docs').");
            assertThat(modelText(() -> tools.writeFile("/ws/a.txt", null))).isEqualTo("Error: The argument "
                    + "'content' is missing. Give the complete text to write; an empty string writes an empty file.");
            assertThat(w.ws.resolve("a.txt")).doesNotExist();
        }

        @Test
        void directoryTargetIsAnError() throws IOException {
            Files.createDirectories(w.ws.resolve("sub"));

            assertThat(modelText(() -> tools.writeFile("/ws", "x"))).isEqualTo("Error: '/ws' is a directory; give "
                    + "the path of a file inside it, for example '/ws/notes.txt'.");
            assertThat(modelText(() -> tools.writeFile("/ws/sub", "x"))).isEqualTo("Error: '/ws/sub' is a "
                    + "directory; give the path of a file inside it, for example '/ws/sub/notes.txt'.");
        }

        @Test
        void fileInTheWayOfAParentIsAnErrorWithoutHostPath() {
            String text = modelText(() -> tools.writeFile("/ws/notes.txt/child.txt", "x"));

            assertThat(text).isEqualTo("Error: Could not write '/ws/notes.txt/child.txt': a file is in the way "
                    + "where a directory is needed.");
            assertThat(text).doesNotContain(w.root.toString());
        }

        @Test
        void contentOverTheLimitIsRefused() {
            FileTools small = FileTools.builder().securityContext(w.context).maxWriteBytes(4).build();

            assertThat(modelText(() -> small.writeFile("/ws/big.txt", "ääa"))).isEqualTo("Error: The content is "
                    + "5 bytes of UTF-8; write_file writes at most 4 bytes at once. Write a shorter file.");
            assertThat(w.ws.resolve("big.txt")).doesNotExist();
        }
    }

    @Nested
    class ListDirectory {

        @Test
        void listsSortedWithDirectoriesMarked() throws IOException {
            Files.createDirectories(w.ws.resolve("b-dir"));
            Files.writeString(w.ws.resolve("a.txt"), "a");
            Files.createSymbolicLink(w.ws.resolve("c-link"), w.outside);

            assertThat(tools.listDirectory("/ws")).isEqualTo("Contents of '/ws' (4 entries; directories end with "
                    + "'/'):\na.txt\nb-dir/\nc-link\nnotes.txt");
        }

        @Test
        void listsTheDefaultMountAndSubdirectoriesByVirtualPath() throws IOException {
            Files.createDirectories(w.ws.resolve("sub/inner"));

            assertThat(tools.listDirectory(".")).startsWith("Contents of '/ws' (2 entries;");
            assertThat(tools.listDirectory(w.ws.resolve("sub").toString()))
                    .isEqualTo("Contents of '/ws/sub' (1 entry; directories end with '/'):\ninner/");
        }

        @Test
        void emptyDirectorySaysSo() throws IOException {
            Files.createDirectories(w.ws.resolve("empty"));

            assertThat(tools.listDirectory("/ws/empty")).isEqualTo("'/ws/empty' is an empty directory.");
        }

        @Test
        void boundedWithANote() throws IOException {
            FileTools small = FileTools.builder().securityContext(w.context).maxListEntries(2).build();
            for (String name : List.of("e", "d", "c", "b", "a")) {
                Files.createFile(w.docs.resolve(name));
            }

            assertThat(small.listDirectory("/docs")).isEqualTo("Contents of '/docs' (6 entries; directories end with "
                    + "'/'):\na\nb\n[Showing the first 2 of 6 entries in name order; the rest are not shown.]");
        }

        @Test
        void namesWithControlCharactersAreQuotedSoTheyCannotForgeLines() throws IOException {
            Files.createFile(w.docs.resolve("evil\nDenied: fake"));

            assertThat(tools.listDirectory("/docs")).isEqualTo("Contents of '/docs' (2 entries; directories end with "
                    + "'/'):\n'evil\\nDenied: fake'\nguide.md");
        }

        @Test
        void fileIsNotADirectory() {
            assertThat(modelText(() -> tools.listDirectory("/ws/notes.txt")))
                    .isEqualTo("Error: '/ws/notes.txt' is not a directory or does not exist.");
            assertThat(modelText(() -> tools.listDirectory("/ws/nope")))
                    .isEqualTo("Error: '/ws/nope' is not a directory or does not exist.");
        }

        @Test
        void outsideIsDenied() {
            assertThat(modelText(() -> tools.listDirectory("/ws/..")))
                    .startsWith("Denied: Path '/ws/..' (resolves outside the mounted entries)");
            assertThat(modelText(() -> tools.listDirectory("/")))
                    .startsWith("Denied: Path '/' is an absolute path that isn't covered");
        }

        @Test
        void missingReadPermissionIsDenied() throws IOException {
            Path wo = Files.createDirectories(w.root.resolve("dropbox"));
            FileTools writeOnly = new FileTools(SecurityContext.builder().name("drop")
                    .path(PathEntry.of(wo.toString(), "drop", Permission.WRITE)).build());

            assertThatThrownBy(() -> writeOnly.listDirectory("/drop"))
                    .isInstanceOf(PermissionDeniedException.class)
                    .hasMessage("'/drop' in context 'drop' lacks permission(s) ['READ'] for '/drop' "
                            + "(allows: ['WRITE']).");
        }

        @Test
        void nullPathIsInvalidInput() {
            assertThatThrownBy(() -> tools.listDirectory(null)).isInstanceOf(InvalidInputException.class);
        }
    }

    @Nested
    class Builder {

        @Test
        void rejectsBadLimitsNamingTheValue() {
            assertThatThrownBy(() -> FileTools.builder().maxReadBytes(0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("maxReadBytes must be between 1 and 2147483646, was 0");
            assertThatThrownBy(() -> FileTools.builder().maxListEntries(-3))
                    .hasMessage("maxListEntries must be between 1 and 2147483646, was -3");
        }

        @Test
        void requiresAContext() {
            assertThatThrownBy(() -> FileTools.builder().build())
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("securityContext");
        }
    }
}
