package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** list_directory at its entry limit, and the listing scope at the root of the mounts. */
class ListingLimitsTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    MeroOperations two;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        two = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxListEntries(2).build()).build();
    }

    @Test
    void theFirstEntriesInNameOrderAreShownUpToTheLimit() throws IOException {
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
