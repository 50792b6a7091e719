package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Targets are opened from kept mount-root handles ({@link MountRoots}): the handles are bounded, a kept handle is
 * never consumed by a listing, and a handle never outlives the mount it was bound to.
 */
class MountRootsTest {

    @TempDir
    Path temp;

    private static MeroOperations operations(Path directory, String slug) throws IOException {
        return MeroOperations.forContext(SecurityContext.builder().name("roots")
                .path(PathEntry.of(directory.toString(), slug, Permission.READ, Permission.WRITE)).build());
    }

    @Test
    void manyMountsKeepAtMostTheBoundOfHandlesOpenAndEveryReadStillWorks() throws IOException {
        for (int i = 0; i < MountRoots.MAX_OPEN + 40; i++) {
            Path directory = Files.createDirectories(temp.resolve("m" + i));
            Files.writeString(directory.resolve("f.txt"), "content " + i + "\n");
            assertThat(operations(directory, "m" + i).call("read_file", "{\"path\":\"/m" + i + "/f.txt\"}"))
                    .isEqualTo("content " + i + "\n");
            assertThat(MountRoots.openCount()).isLessThanOrEqualTo(MountRoots.MAX_OPEN);
        }
    }

    @Test
    void theMountRootCanBeListedAgainAndAgainThroughItsKeptHandle() throws IOException {
        Path ws = Files.createDirectories(temp.resolve("ws"));
        Files.writeString(ws.resolve("a.txt"), "a");
        Files.createDirectories(ws.resolve("sub"));
        MeroOperations ops = operations(ws, "ws");
        String first = ops.call("list_directory", "{\"path\":\"/ws\"}");
        assertThat(first).contains("a.txt").contains("sub");
        assertThat(ops.call("list_directory", "{\"path\":\"/ws\"}")).isEqualTo(first);
        assertThat(ops.call("read_file", "{\"path\":\"/ws/a.txt\"}")).isEqualTo("a");
    }

    @Test
    void aMountRootReplacedByAnotherDirectoryIsRefusedNotReadThroughTheOldHandle() throws IOException {
        Path ws = Files.createDirectories(temp.resolve("ws"));
        Files.writeString(ws.resolve("f.txt"), "mounted\n");
        MeroOperations ops = operations(ws, "ws");
        assertThat(ops.call("read_file", "{\"path\":\"/ws/f.txt\"}")).isEqualTo("mounted\n");
        Files.move(ws, temp.resolve("moved-away"));
        Files.createDirectories(ws);
        Files.writeString(ws.resolve("f.txt"), "impostor\n");
        assertThat(OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/f.txt\"}"))
                .startsWith("Denied: ").contains("no longer the directory it was");
        // a context built for the new directory reads the new directory, through a handle of its own
        assertThat(operations(ws, "ws").call("read_file", "{\"path\":\"/ws/f.txt\"}")).isEqualTo("impostor\n");
    }

    @Test
    void aDirectoryBelowTheMountSwappedForALinkIsNeverFollowed() throws IOException {
        Path ws = Files.createDirectories(temp.resolve("ws"));
        Path outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret\n");
        Files.createDirectories(ws.resolve("sub"));
        Files.writeString(ws.resolve("sub/secret.txt"), "inside\n");
        MeroOperations ops = operations(ws, "ws");
        assertThat(ops.call("read_file", "{\"path\":\"/ws/sub/secret.txt\"}")).isEqualTo("inside\n");
        Files.delete(ws.resolve("sub/secret.txt"));
        Files.delete(ws.resolve("sub"));
        Files.createSymbolicLink(ws.resolve("sub"), outside);
        String text = OpsWorkspace.modelText(ops, "read_file", "{\"path\":\"/ws/sub/secret.txt\"}");
        assertThat(text).startsWith("Denied: ").doesNotContain("secret\n").doesNotContain(outside.toString());
    }

    @Test
    void concurrentReadsShareOneHandleCorrectly() throws Exception {
        Path ws = Files.createDirectories(temp.resolve("ws"));
        for (int i = 0; i < 16; i++) {
            Files.writeString(ws.resolve("f" + i + ".txt"), "file " + i + "\n");
        }
        MeroOperations ops = operations(ws, "ws");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < 16; i++) {
                    String tool = i % 4 == 0 ? "list_directory" : "read_file";
                    String json = i % 4 == 0 ? "{\"path\":\"/ws\"}" : "{\"path\":\"/ws/f" + i + ".txt\"}";
                    results.add(pool.submit(() -> ops.call(tool, json)));
                }
            }
            for (int k = 0; k < results.size(); k++) {
                int i = k % 16;
                String expected = i % 4 == 0 ? "f15.txt" : "file " + i + "\n";
                assertThat(results.get(k).get()).contains(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
