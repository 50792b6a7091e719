package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.mero.core.Fifos;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A FIFO where a directory is expected, or on the way to a file, is refused by every tool without being opened:
 * each call ends in {@code Error:} well within its bound (an {@code open} of the FIFO would block for good, with no
 * writer ever coming) and changes nothing.
 */
class FifoTargetsTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path temp;

    private OpsWorkspace w;
    private MeroOperations ops;

    @BeforeEach
    void setUp() throws Exception {
        w = new OpsWorkspace(temp);
        Fifos.mkfifo(w.ws.resolve("pipe"));
        Files.createDirectories(w.ws.resolve("dir"));
        Files.writeString(w.ws.resolve("dir/a.txt"), "needle\n");
        Fifos.mkfifo(w.ws.resolve("dir/inner-pipe"));
        ops = w.ops();
    }

    static Stream<Arguments> callsThroughAPipe() {
        return Stream.of(
                Arguments.of("list_directory", "{\"path\":\"/ws/pipe\"}"),
                Arguments.of("directory_tree", "{\"path\":\"/ws/pipe\"}"),
                Arguments.of("find_files", "{\"path\":\"/ws/pipe\",\"pattern\":\"*\"}"),
                Arguments.of("search_text", "{\"path\":\"/ws/pipe\",\"pattern\":\"needle\"}"),
                Arguments.of("sync_directory", "{\"source\":\"/ws/pipe\",\"destination\":\"/ws/copy\"}"),
                Arguments.of("sync_directory", "{\"source\":\"/ws/dir\",\"destination\":\"/ws/pipe\"}"),
                Arguments.of("read_file", "{\"path\":\"/ws/pipe/x.txt\"}"),
                Arguments.of("read_file", "{\"path\":\"/ws/pipe\"}"),
                Arguments.of("file_info", "{\"path\":\"/ws/pipe/x.txt\"}"),
                Arguments.of("edit_file", "{\"path\":\"/ws/pipe/x.txt\",\"old_text\":\"a\",\"new_text\":\"b\"}"),
                Arguments.of("edit_file", "{\"path\":\"/ws/pipe\",\"old_text\":\"a\",\"new_text\":\"b\"}"),
                Arguments.of("copy_file", "{\"source\":\"/ws/pipe/x.txt\",\"destination\":\"/ws/y.txt\"}"),
                Arguments.of("copy_file", "{\"source\":\"/ws/pipe\",\"destination\":\"/ws/y.txt\"}"),
                Arguments.of("copy_file", "{\"source\":\"/ws/notes.txt\",\"destination\":\"/ws/pipe/y.txt\"}"),
                Arguments.of("delete_file", "{\"path\":\"/ws/pipe/x.txt\"}"),
                Arguments.of("write_file", "{\"path\":\"/ws/pipe/x.txt\",\"content\":\"x\"}"),
                Arguments.of("append_file", "{\"path\":\"/ws/pipe\",\"content\":\"x\"}"),
                Arguments.of("append_file", "{\"path\":\"/ws/pipe/x.txt\",\"content\":\"x\"}"),
                Arguments.of("create_directory", "{\"path\":\"/ws/pipe/sub\"}"),
                Arguments.of("move_file", "{\"source\":\"/ws/notes.txt\",\"destination\":\"/ws/pipe/n.txt\"}"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("callsThroughAPipe")
    void aPipeWhereADirectoryOrFileIsExpectedIsRefusedWithoutBlocking(String tool, String json) {
        List<String> before = w.snapshot();

        String text = assertTimeoutPreemptively(BOUND, () -> OpsWorkspace.modelText(ops, tool, json));

        assertThat(text).as(text).startsWith("Error: ");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void aPipeWhereADirectoryIsExpectedIsNamedAsNoDirectory() {
        String text = assertTimeoutPreemptively(BOUND,
                () -> OpsWorkspace.modelText(ops, "list_directory", "{\"path\":\"/ws/pipe\"}"));

        assertThat(text).isEqualTo("Error: '/ws/pipe' is not a directory or does not exist.");
    }

    @Test
    void walksListPipesButNeverOpenThem() {
        assertTimeoutPreemptively(BOUND, () -> {
            assertThat(ops.call("list_directory", "{\"path\":\"/ws/dir\"}")).contains("a.txt", "inner-pipe");
            assertThat(ops.call("directory_tree", "{\"path\":\"/ws\"}")).contains("pipe", "inner-pipe");
            assertThat(ops.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"**/*pipe\"}"))
                    .contains("/ws/pipe", "/ws/dir/inner-pipe");
            assertThat(ops.call("search_text", "{\"path\":\"/ws\",\"pattern\":\"needle\"}"))
                    .contains("/ws/dir/a.txt:1: needle");
            assertThat(ops.call("file_info", "{\"path\":\"/ws/pipe\"}")).isNotBlank();
            assertThat(ops.call("sync_directory", "{\"source\":\"/ws/dir\",\"destination\":\"/ws/copy\"}"))
                    .contains("skipped 1 symbolic links or special files");
        });
        assertThat(w.ws.resolve("copy/a.txt")).hasContent("needle");
        assertThat(w.ws.resolve("copy/inner-pipe")).doesNotExist();
    }

    @Test
    void deletingAPipeRemovesItWithoutOpeningIt() {
        String text = assertTimeoutPreemptively(BOUND,
                () -> OpsWorkspace.modelText(ops, "delete_file", "{\"path\":\"/ws/pipe\"}"));

        assertThat(text).doesNotStartWith("Error: ").doesNotStartWith("Denied: ");
        assertThat(w.ws.resolve("pipe")).doesNotExist();
    }
}
