package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The write size limit of write_file, append_file and edit_file, and what each leaves on disk. */
class WriteLimitsTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    MeroOperations five;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        five = w.ops(OperationLimits.builder().maxWriteBytes(5));
        Files.writeString(w.ws.resolve("abc.txt"), "abc");
    }

    private String call(String tool, String json) {
        return OpsWorkspace.modelText(five, tool, json);
    }

    @Test
    void contentUpToTheLimitIsWrittenAndOneByteMoreIsRefusedUntouched() {
        assertThat(call("write_file", "{\"path\":\"/ws/new.txt\",\"content\":\"12345\"}"))
                .isEqualTo("Wrote 5 bytes to '/ws/new.txt' (created the file).");
        List<String> before = w.snapshot();
        assertThat(call("write_file", "{\"path\":\"/ws/new.txt\",\"content\":\"123456\"}"))
                .isEqualTo("Error: The content is 6 bytes of UTF-8; write_file writes at most 5 bytes at once. "
                        + "Write a shorter text.");
        assertThat(call("append_file", "{\"path\":\"/ws/abc.txt\",\"content\":\"123456\"}"))
                .isEqualTo("Error: The content is 6 bytes of UTF-8; append_file writes at most 5 bytes at once. "
                        + "Write a shorter text.");
        assertThat(call("edit_file", "{\"path\":\"/ws/abc.txt\",\"old_text\":\"c\",\"new_text\":\"cdef\"}"))
                .isEqualTo("Error: The content is 6 bytes of UTF-8; edit_file writes at most 5 bytes at once. "
                        + "Write a shorter text.");
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(call("edit_file", "{\"path\":\"/ws/abc.txt\",\"old_text\":\"c\",\"new_text\":\"cde\"}"))
                .startsWith("Edited '/ws/abc.txt' (1 replacement):");
        assertThat(w.ws.resolve("abc.txt")).hasContent("abcde");
    }

    @Test
    void newContentOfTheSameSizeReplacesTheOldAndEqualContentIsLeftAlone() {
        assertThat(call("write_file", "{\"path\":\"/ws/abc.txt\",\"content\":\"xyz\"}"))
                .isEqualTo("Wrote 3 bytes to '/ws/abc.txt' (replaced its previous contents).");
        assertThat(w.ws.resolve("abc.txt")).hasContent("xyz");
        assertThat(call("write_file", "{\"path\":\"/ws/abc.txt\",\"content\":\"xyz\"}"))
                .isEqualTo("'/ws/abc.txt' already holds exactly this content (3 bytes); unchanged.");
    }

    @Test
    void appendingToAFileWithAnotherHardLinkIsRefusedAndSaysHowManyLinks() throws IOException {
        Files.createLink(w.outside.resolve("twin.txt"), w.ws.resolve("abc.txt"));
        Files.createLink(w.outside.resolve("triplet.txt"), w.ws.resolve("abc.txt"));
        List<String> before = w.snapshot();
        assertThat(call("append_file", "{\"path\":\"/ws/abc.txt\",\"content\":\"d\"}"))
                .startsWith("Denied: Path '/ws/abc.txt' has 2 other hard link(s), which may lie outside the mounts;");
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(call("append_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"d\"}"))
                .isEqualTo("Appended 1 byte to '/ws/notes.txt' (now 13 bytes).");
    }
}
