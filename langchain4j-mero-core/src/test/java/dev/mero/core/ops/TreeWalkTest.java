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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bounded walk under directory_tree, find_files, search_text and sync_directory, and what those tools show of it. */
class TreeWalkTest {

    @TempDir
    Path temp;
    OpsWorkspace w;
    SecurityContext context;
    final List<String> visited = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        Files.createDirectories(w.ws.resolve("a/b/c"));
        Files.writeString(w.ws.resolve("a/b/file.txt"), "f");
        Files.writeString(w.ws.resolve("a/z.txt"), "z");
        context = w.contextBuilder().build();
    }

    private TreeWalk.Outcome walk(int maxDepth, int maxEntries, long deadline, int stopAfter) throws IOException {
        return TreeWalk.walk(context, context.checkPathAccess("/ws", Permission.READ), maxDepth, maxEntries, deadline,
                Permission.READ, (relative, depth, attributes, parent, name) -> {
                    visited.add(depth + ":" + relative);
                    return visited.size() != stopAfter;
                });
    }

    @Test
    void visitsEveryEntryDepthFirstInNameOrderWithItsDepth() throws IOException {
        TreeWalk.Outcome outcome = walk(64, 100, Long.MAX_VALUE, -1);
        assertThat(visited).containsExactly("1:a", "2:a/b", "3:a/b/c", "3:a/b/file.txt", "2:a/z.txt", "1:notes.txt");
        assertThat(outcome.entries).isEqualTo(6);
        assertThat(outcome.complete()).isTrue();
        assertThat(outcome.notEntered).isZero();
        assertThat(outcome.deniedDirectories).isZero();
    }

    @Test
    void directoriesAtTheDepthLimitAreCountedAsNotEntered() throws IOException {
        TreeWalk.Outcome outcome = walk(2, 100, Long.MAX_VALUE, -1);
        assertThat(visited).containsExactly("1:a", "2:a/b", "2:a/z.txt", "1:notes.txt");
        assertThat(outcome.notEntered).isEqualTo(1);
        assertThat(outcome.complete()).isTrue();
    }

    @Test
    void theEntryLimitCutsTheWalkExactlyThere() throws IOException {
        TreeWalk.Outcome outcome = walk(64, 3, Long.MAX_VALUE, -1);
        assertThat(visited).containsExactly("1:a", "2:a/b", "3:a/b/c");
        assertThat(outcome.entries).isEqualTo(3);
        assertThat(outcome.cutByEntries).isTrue();
        assertThat(outcome.complete()).isFalse();
        visited.clear();
        TreeWalk.Outcome all = walk(64, 6, Long.MAX_VALUE, -1);
        assertThat(visited).hasSize(6);
        assertThat(all.cutByEntries).isFalse();
        assertThat(all.complete()).isTrue();
    }

    @Test
    void aVisitorThatSaysStopEndsTheWalk() throws IOException {
        TreeWalk.Outcome outcome = walk(64, 100, Long.MAX_VALUE, 2);
        assertThat(visited).containsExactly("1:a", "2:a/b");
        assertThat(outcome.stopped).isTrue();
        assertThat(outcome.cutByEntries).isFalse();
        assertThat(outcome.complete()).isFalse();
        visited.clear();
        TreeWalk.Outcome deep = walk(64, 100, Long.MAX_VALUE, 3);
        assertThat(visited).containsExactly("1:a", "2:a/b", "3:a/b/c");
        assertThat(deep.stopped).isTrue();
    }

    @Test
    void aDeadlineAlreadyPassedStopsBeforeTheFirstEntry() throws IOException {
        TreeWalk.Outcome outcome = walk(64, 100, System.nanoTime() - 1_000_000_000L, -1);
        assertThat(visited).isEmpty();
        assertThat(outcome.cutByTime).isTrue();
        assertThat(outcome.complete()).isFalse();
        assertThat(outcome.entries).isZero();
    }

    @Test
    void aDirectoryOfANestedMountWithoutThePermissionIsReportedAndNotEntered() throws IOException {
        context = w.contextBuilder()
                .path(PathEntry.builder().path(w.ws.resolve("a/b")).slug("b").allow(Permission.WRITE).build()).build();
        List<String> denied = new ArrayList<>();
        TreeWalk.Outcome outcome = TreeWalk.walk(context, context.checkPathAccess("/ws", Permission.READ), 64, 100,
                Long.MAX_VALUE, Permission.READ, new TreeWalk.Visitor() {
                    @Override
                    public boolean visit(String relative, int depth, java.nio.file.attribute.BasicFileAttributes a,
                                         SecureDirectory parent, String name) {
                        visited.add(relative);
                        return true;
                    }

                    @Override
                    public void denied(String relative) {
                        denied.add(relative);
                    }
                });
        assertThat(visited).containsExactly("a", "a/b", "a/z.txt", "notes.txt");
        assertThat(denied).containsExactly("a/b");
        assertThat(outcome.deniedDirectories).isEqualTo(1);
        assertThat(outcome.complete()).isTrue();

        MeroOperations ops = MeroOperations.forContext(context);
        assertThat(ops.call("directory_tree", "{\"path\":\"/ws\"}"))
                .isEqualTo("Tree of '/ws' (depth 3; directories end with '/', symbolic links with '@'):\n"
                        + "a/\n  b/ (no access)\n  z.txt\nnotes.txt");
        assertThat(ops.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"*.txt\"}"))
                .isEqualTo("2 paths below '/ws' match '*.txt' (directories end with '/', symbolic links with '@'):\n"
                        + "/ws/a/z.txt\n/ws/notes.txt\n[1 directory was not searched: no READ permission there.]");
    }

    @Test
    void findFilesNotesEachBoundItMeets() throws IOException {
        MeroOperations two = MeroOperations.builder(context)
                .limits(OperationLimits.builder().maxFindResults(2).build()).build();
        assertThat(two.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"*.txt\"}"))
                .isEqualTo("2 paths below '/ws' match '*.txt' (directories end with '/', symbolic links with '@'):\n"
                        + "/ws/a/b/file.txt\n/ws/a/z.txt\n[Truncated: showing the first 2 matches; use a narrower "
                        + "pattern or directory.]");
        assertThat(two.call("find_files", "{\"path\":\"/ws/a\",\"pattern\":\"*.txt\"}"))
                .isEqualTo("2 paths below '/ws/a' match '*.txt' (directories end with '/', symbolic links with '@'):\n"
                        + "/ws/a/b/file.txt\n/ws/a/z.txt");
        MeroOperations scan = MeroOperations.builder(context)
                .limits(OperationLimits.builder().maxScanEntries(3).build()).build();
        assertThat(scan.call("find_files", "{\"path\":\"/ws\",\"pattern\":\"c\"}"))
                .isEqualTo("1 path below '/ws' match 'c' (directories end with '/', symbolic links with '@'):\n"
                        + "/ws/a/b/c/\n[Incomplete: stopped after 3 entries; search a smaller directory.]");
        Files.writeString(w.ws.resolve("a/bad\u0007name.txt"), "x");
        assertThat(MeroOperations.forContext(context).call("find_files", "{\"path\":\"/ws\",\"pattern\":\"bad*\"}"))
                .endsWith(":\n'/ws/a/bad\\x07name.txt'");
    }

    @Test
    void directoryTreeBoundsItsDepthAndNamesAnEmptyDirectory() throws IOException {
        MeroOperations ops = MeroOperations.forContext(context);
        Files.createDirectories(w.ws.resolve("empty"));
        assertThat(ops.call("directory_tree", "{\"path\":\"/ws/empty\"}")).isEqualTo("'/ws/empty' is an empty directory.");
        assertThat(ops.call("directory_tree", "{\"path\":\"/ws/a\",\"max_depth\":10}"))
                .isEqualTo("Tree of '/ws/a' (depth 10; directories end with '/', symbolic links with '@'):\n"
                        + "b/\n  c/\n  file.txt\nz.txt");
        assertThat(OpsWorkspace.modelText(ops, "directory_tree", "{\"path\":\"/ws\",\"max_depth\":11}"))
                .startsWith("Error: Invalid input: 'max_depth' is 11; it must be between 1 and 10. Expected ");
    }
}
