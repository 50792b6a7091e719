package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** read_file at the edges of its window: limits of one line, broken UTF-8 at a window's end, cut characters. */
class ReadFileWindowTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    MeroOperations ops;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        ops = w.ops();
    }

    private String read(MeroOperations operations, String json) {
        return OpsWorkspace.modelText(operations, "read_file", json);
    }

    @Test
    void aLimitOfOneLineIsTheSmallestWindow() throws IOException {
        Files.writeString(w.ws.resolve("two.txt"), "one\ntwo\n");
        assertThat(read(ops, "{\"path\":\"/ws/two.txt\",\"limit\":1}"))
                .isEqualTo("one\n\n[Truncated: showing lines 1-1 of 2 of '/ws/two.txt'; call read_file with offset=2 "
                        + "to read on.]");
        assertThat(read(ops, "{\"path\":\"/ws/two.txt\",\"limit\":0}"))
                .startsWith("Error: Invalid input: 'limit' is 0; give at least 1 line. Expected ");
        assertThat(read(ops, "{\"path\":\"/ws/two.txt\",\"offset\":3}"))
                .startsWith("Error: Invalid input: 'offset' is 3 but '/ws/two.txt' has 2 lines. Expected an offset "
                        + "between 1 and 2.");
    }

    @Test
    void aBrokenCharacterAtTheRealEndOfALaterWindowIsShownReplaced() throws IOException {
        Files.write(w.ws.resolve("tail.txt"), new byte[] {'a', '\n', 'b', (byte) 0xC3});
        assertThat(read(ops, "{\"path\":\"/ws/tail.txt\",\"offset\":2}"))
                .isEqualTo("b\uFFFD\n[Note: 1 byte sequence(s) that are not valid UTF-8 were replaced with U+FFFD.]\n"
                        + "[Showing lines 2-2 of 2 of '/ws/tail.txt' (to the end).]");
    }

    @Test
    void aCharacterCutByTheByteLimitInsideALongLineIsDroppedNotReplaced() throws IOException {
        MeroOperations four = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxReadBytes(4).build()).build();
        Files.write(w.ws.resolve("long.txt"), "abc\u00fcdef\n".getBytes(StandardCharsets.UTF_8));
        assertThat(read(four, "{\"path\":\"/ws/long.txt\"}"))
                .isEqualTo("abc\n[Truncated: line 1 of 1 of '/ws/long.txt' is longer than 4 bytes; only its start "
                        + "is shown.]");
    }
}
