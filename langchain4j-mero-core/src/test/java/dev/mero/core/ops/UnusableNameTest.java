package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mero.core.path.FileNameEncoding;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A name whose bytes are not valid in the JVM's file-name encoding (here: Latin-1 {@code caf\xE9.txt} under UTF-8)
 * is shown by its bytes in a listing and skipped, with a note, by a walk; the other entries are unaffected.
 */
class UnusableNameTest {

    @TempDir
    Path temp;

    private OpsWorkspace w;

    @BeforeEach
    void setUp() throws IOException, InterruptedException {
        assumeTrue(FileNameEncoding.isUtf8(), "the name must be invalid in the JVM's encoding");
        w = new OpsWorkspace(temp);
        Files.writeString(w.ws.resolve("plain.txt"), "needle\n");
        // Java cannot write these bytes in a UTF-8 JVM: a helper process does
        Process python;
        try {
            python = new ProcessBuilder("python3", "-c",
                    "import os,sys; open(os.fsencode(sys.argv[1]) + b'/caf\\xe9 \\\\x.txt', 'w').write('needle')",
                    w.ws.toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "python3 is not installed");
            return;
        }
        assertThat(python.waitFor()).isZero();
    }

    @Test
    void aListingShowsTheNameByItsBytes() {
        String listing = w.ops().call("list_directory", "{\"path\":\"/ws\"}");

        assertThat(listing).startsWith("Contents of '/ws' (3 entries")
                .contains("\nnotes.txt\nplain.txt\ncaf\\xE9 \\x5Cx.txt [name not readable: its bytes are not valid "
                        + "UTF-8, the JVM's file-name encoding, so it cannot be read; rename it]");
    }

    @Test
    void aWalkSkipsTheNameAndSaysSo() {
        String found = w.ops().call("find_files", "{\"path\":\"/ws\",\"pattern\":\"*.txt\"}");

        assertThat(found).contains("/ws/plain.txt", "/ws/notes.txt")
                .endsWith("\n[1 name was skipped: its bytes are not valid UTF-8, the JVM's file-name encoding, so it "
                        + "cannot be read; rename it.]");
    }

    @Test
    void aSearchSkipsTheNameAndSaysSo() {
        String found = w.ops().call("search_text", "{\"path\":\"/ws\",\"pattern\":\"needle\"}");

        assertThat(found).startsWith("1 matching line for 'needle' in '/ws' (searched 2 files):\n/ws/plain.txt:1: needle")
                .endsWith("\n[1 name was skipped: its bytes are not valid UTF-8, the JVM's file-name encoding, so it "
                        + "cannot be read; rename it.]");
    }

    @Test
    void aListingCutToItsLimitCountsTheName() {
        String listing = w.ops(OperationLimits.builder().maxListEntries(2)).call("list_directory",
                "{\"path\":\"/ws\"}");

        assertThat(listing).contains("\nnotes.txt\nplain.txt\n[Showing the first 2 of 3 entries")
                .doesNotContain("caf");
    }
}
