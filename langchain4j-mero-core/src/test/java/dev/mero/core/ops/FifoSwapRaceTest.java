package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.mero.core.Fifos;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import com.google.re2j.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An entry swapped for a FIFO after its type was checked and before it is opened (the window no check can close,
 * made certain by {@link SecureDirectory#beforeOpen}): the open blocks in the kernel, and the call still ends in a
 * refusal within its bound, never a hang. A FIFO still at its name is released at once; one that cannot be found
 * any more (its directory renamed) cannot be, and the caller gives up after
 * {@link BoundedOpen#GIVE_UP_AFTER_NANOS}.
 */
class FifoSwapRaceTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path temp;

    private OpsWorkspace w;
    private MeroOperations ops;
    /** FIFOs a test left that a blocked opener may still wait on: opened for writing at the end to free it. */
    private final List<Path> unreleasable = new ArrayList<>();

    private ConfinedCalls confined;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        ops = w.ops();
        // the window between a type check and an open is the JDK's path's; openat2 (Java 25) has none, so the
        // swaps here are made on the JDK's path, where that layer falls back to (ConfinedCallsTest)
        confined = ConfinedCalls.Selected.calls;
        ConfinedCalls.Selected.calls = ConfinedCalls.NONE;
    }

    @AfterEach
    void tearDown() {
        ConfinedCalls.Selected.calls = confined;
        SecureDirectory.beforeOpen = name -> { };
        for (Path fifo : unreleasable) {
            try {
                // read and write: never blocks on Linux, and lets a blocked reader go
                FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE).close();
            } catch (IOException e) {
                // the FIFO is gone: nothing waits on it
            }
        }
    }

    /** Swaps the entry named {@code name} in {@code directory} for a FIFO right before its open. */
    private Consumer<String> swapForFifo(Path directory, String name) {
        return swapForFifo(directory, name, null);
    }

    /**
     * Swaps the entry named {@code name} in {@code directory} for a FIFO right before its open, then, if
     * {@code movedTo} is given, renames the directory there: the open (through the directory's open handle) still
     * reaches the FIFO, but nothing can find it by its path any more to release it, so the open blocks for good,
     * whoever this process runs as.
     */
    private Consumer<String> swapForFifo(Path directory, String name, Path movedTo) {
        return opened -> {
            if (!opened.equals(name)) {
                return;
            }
            try {
                Path entry = directory.resolve(name);
                if (Files.isDirectory(entry)) {
                    try (var children = Files.list(entry)) {
                        for (Path child : (Iterable<Path>) children::iterator) {
                            Files.delete(child);
                        }
                    }
                }
                Files.delete(entry);
                Fifos.mkfifo(entry);
                if (movedTo != null) {
                    Files.move(directory, movedTo);
                    unreleasable.add(movedTo.resolve(name));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        };
    }

    /** A call through the operations, bounded: a regression fails instead of hanging the suite. */
    private String call(String tool, String json) {
        return assertTimeoutPreemptively(BOUND, () -> OpsWorkspace.modelText(ops, tool, json));
    }

    @Test
    void aFileSwappedForAPipeBeforeItsOpenIsRefused() {
        SecureDirectory.beforeOpen = swapForFifo(w.ws, "notes.txt");

        String text = call("read_file", "{\"path\":\"/ws/notes.txt\"}");

        assertThat(text).isEqualTo("Error: Could not read '/ws/notes.txt': it is a pipe, device or socket, not a "
                + "regular file or directory.");
    }

    @Test
    void aFileSwappedForAPipeBeforeAnAppendIsRefusedAndNothingIsWritten() throws IOException {
        SecureDirectory.beforeOpen = swapForFifo(w.ws, "notes.txt");

        String text = call("append_file", "{\"path\":\"/ws/notes.txt\",\"content\":\"more\"}");

        assertThat(text).isEqualTo("Error: Could not append to '/ws/notes.txt': it is a pipe, device or socket, not "
                + "a regular file or directory.");
        assertThat(Files.isRegularFile(w.ws.resolve("notes.txt"))).isFalse();
    }

    @Test
    void aDirectorySwappedForAPipeBeforeItsOpenIsRefused() throws IOException {
        Files.createDirectories(w.ws.resolve("dir"));
        SecureDirectory.beforeOpen = swapForFifo(w.ws, "dir");

        String text = call("list_directory", "{\"path\":\"/ws/dir\"}");

        assertThat(text).isEqualTo("Error: '/ws/dir' is not a directory or does not exist.");
    }

    @Test
    void aPipeThatCannotBeReleasedEndsInARefusalAfterTheBound() throws IOException {
        Files.createDirectories(w.ws.resolve("sub"));
        Files.writeString(w.ws.resolve("sub/a.txt"), "a\n");
        SecureDirectory.beforeOpen = swapForFifo(w.ws.resolve("sub"), "a.txt", w.ws.resolve("moved"));

        String text = call("read_file", "{\"path\":\"/ws/sub/a.txt\"}");

        assertThat(text).isEqualTo("Error: Could not read '/ws/sub/a.txt': it did not open within 2000 ms; it is "
                + "not a regular file or directory (a pipe or device in its place?).");
    }

    @Test
    void aDirectoryOnTheWaySwappedForAPipeThatCannotBeReleasedEndsInARefusal() throws IOException {
        Files.createDirectories(w.ws.resolve("d1/d2"));
        Files.writeString(w.ws.resolve("d1/d2/a.txt"), "a\n");
        SecureDirectory.beforeOpen = swapForFifo(w.ws.resolve("d1"), "d2", w.ws.resolve("moved"));

        String text = call("read_file", "{\"path\":\"/ws/d1/d2/a.txt\"}");

        assertThat(text).startsWith("Error: Could not read '/ws/d1/d2/a.txt': it did not open within 2000 ms");
    }

    @Test
    void aDirectorySwappedForAPipeInTheMiddleOfAWalkIsRefusedByEveryWalkingTool() throws IOException {
        for (String tool : List.of("find_files", "directory_tree", "search_text")) {
            Path tree = Files.createDirectories(w.ws.resolve(tool + "/a/b"));
            Files.writeString(tree.resolve("x.txt"), "needle\n");
            SecureDirectory.beforeOpen = swapForFifo(tree.getParent(), "b");

            String text = call(tool, "{\"path\":\"/ws/" + tool + "\""
                    + (tool.equals("directory_tree") ? "}" : tool.equals("find_files") ? ",\"pattern\":\"*.txt\"}"
                    : ",\"pattern\":\"needle\"}"));

            assertThat(text).as(tool).startsWith("Error: ").contains("/ws/" + tool).doesNotContain("x.txt");
            assertThat(Files.isDirectory(tree)).isFalse();
        }
    }

    @Test
    void aWalkStuckOnAPipeThatCannotBeReleasedIsGivenUpWithTheOpensRefusal() throws IOException {
        for (String tool : List.of("find_files", "search_text")) {
            Path a = Files.createDirectories(w.ws.resolve(tool + "/a"));
            Files.writeString(Files.createDirectories(a.resolve("b")).resolve("x.txt"), "x\n");
            SecureDirectory.beforeOpen = swapForFifo(a, "b", w.ws.resolve(tool + "-moved"));

            String text = call(tool, "{\"path\":\"/ws/" + tool + "\",\"pattern\":\"x\"}");

            assertThat(text).as(tool).startsWith("Error: ").contains("/ws/" + tool)
                    .contains("it did not open within 2000 ms; it is not a regular file or directory");
        }
    }

    /**
     * More walks stuck on pipes that cannot be released than there are threads to walk aside: each walk ends in the
     * refusal within its bound (the walks past the bound walk on their callers, each open on an opener thread), and a
     * walk after them still answers.
     */
    @Test
    void moreWalksStuckOnPipesThanWalkThreadsAllEndAndTheNextWalkAnswers() throws Exception {
        int walks = BoundedOpen.MAX_THREADS + 2;
        List<Consumer<String>> swaps = new ArrayList<>();
        for (int i = 0; i < walks; i++) {
            Path a = Files.createDirectories(w.ws.resolve("t" + i + "/a"));
            Files.createDirectories(a.resolve("b" + i));
            swaps.add(swapForFifo(a, "b" + i, w.ws.resolve("moved" + i)));
        }
        Files.writeString(w.ws.resolve("free.txt"), "free\n");
        SecureDirectory.beforeOpen = name -> {
            synchronized (unreleasable) {
                swaps.forEach(swap -> swap.accept(name));
            }
        };
        ExecutorService callers = Executors.newFixedThreadPool(walks);
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < walks; i++) {
                String json = "{\"path\":\"/ws/t" + i + "\",\"pattern\":\"*\"}";
                answers.add(callers.submit(() -> OpsWorkspace.modelText(ops, "find_files", json)));
            }
            for (Future<String> answer : answers) {
                assertThat(answer.get(BOUND.toSeconds(), TimeUnit.SECONDS))
                        .startsWith("Error: ").contains("it did not open within 2000 ms");
            }
        } finally {
            callers.shutdownNow();
        }
        SecureDirectory.beforeOpen = name -> { };

        assertThat(call("find_files", "{\"path\":\"/ws\",\"pattern\":\"free.*\"}")).contains("/ws/free.txt");
    }

    @Test
    void searchTextSkipsAFileSwappedForAPipeBetweenListingAndReading() throws IOException {
        Files.writeString(w.ws.resolve("a.txt"), "needle one\n");
        Files.writeString(w.ws.resolve("b.txt"), "needle two\n");
        SecureDirectory.beforeOpen = swapForFifo(w.ws, "a.txt");

        String text = call("search_text", "{\"path\":\"/ws\",\"pattern\":\"needle\"}");

        assertThat(text).contains("/ws/b.txt:1: needle two").doesNotContain("a.txt").doesNotContain("Incomplete");
    }

    @Test
    void searchTextEndsAtItsDeadlineWhenAWorkerWaitsOnAPipeForGood() throws IOException {
        Files.createDirectories(w.ws.resolve("sub"));
        Files.writeString(w.ws.resolve("sub/a.txt"), "needle one\n");
        SecureDirectory.beforeOpen = swapForFifo(w.ws.resolve("sub"), "a.txt", w.ws.resolve("moved"));
        MeroOperations shortSearch = w.ops(OperationLimits.builder().searchTimeoutMillis(1_000));

        String text = assertTimeoutPreemptively(BOUND, () -> OpsWorkspace.modelText(shortSearch, "search_text",
                "{\"path\":\"/ws/sub\",\"pattern\":\"needle\"}"));

        assertThat(text).contains("[Incomplete: the search reached its time limit of 1000 ms");
    }

    @Test
    void aBatchGivesUpOnABlockedWorkerAndKeepsItsDirectoryOpenForIt() throws IOException {
        Path sub = Files.createDirectories(w.ws.resolve("sub"));
        Files.writeString(sub.resolve("a.txt"), "needle\n");
        PathEntry entry = PathEntry.of(w.ws.toString(), "ws", Permission.READ);
        SecureDirectory.beforeOpen = swapForFifo(sub, "a.txt", w.ws.resolve("moved"));
        Pattern pattern = Pattern.compile("needle");

        assertTimeoutPreemptively(BOUND, () -> {
            List<SearchBatch.Searched> searched;
            SecureDirectory directory = SecureDirectory.open(entry, sub.toRealPath());
            try (SearchBatch batch = new SearchBatch(() -> new FileScanner(pattern, null, 1 << 16, 10), 1,
                    System.nanoTime() + Duration.ofMillis(500).toNanos())) {
                batch.add(new SearchBatch.Pending(directory, "a.txt", 7, () -> "/ws/a.txt"));
                searched = batch.search();
                // the walk closes the directory while the worker still waits in it: this must not wait for it
                directory.close();
                assertThat(batch.search()).isEmpty();
            }
            assertThat(searched).hasSize(1);
            assertThat(searched.get(0).found().searched).isFalse();
            assertThat(searched.get(0).found().timedOut).isTrue();
        });
    }
}
