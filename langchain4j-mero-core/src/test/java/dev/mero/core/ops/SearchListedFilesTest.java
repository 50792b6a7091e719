package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.mero.core.Fifos;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code search_text}'s confined opens of listed files ({@link ListedFiles}, Java 22+ on Linux; the core's
 * {@code java25-paths} run): a file is read only when the kernel opened it, confined and non-blocking, as a regular
 * file; anything else (a pipe swapped in, a link, a directory, a name it cannot be given, a directory that is no
 * longer the walk's) is left to the JDK's path, which answers as it always has. The answers equal the JDK's path's;
 * on Java 17 the layer serves no walks ({@link ConfinedCalls#walks}) and the same answers come from the JDK's path alone.
 */
class SearchListedFilesTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    @TempDir
    Path temp;

    private OpsWorkspace w;
    private ConfinedCalls selected;
    private PathEntry entry;
    /** FIFOs a blocked opener may still wait on: opened for reading and writing at the end to free it. */
    private final List<Path> unreleasable = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        selected = ConfinedCalls.Selected.calls;
        w = new OpsWorkspace(temp);
        entry = PathEntry.of(w.ws.toString(), "ws", Permission.READ);
    }

    @AfterEach
    void tearDown() {
        ConfinedCalls.Selected.calls = selected;
        SecureDirectory.beforeOpen = name -> { };
        for (Path fifo : unreleasable) {
            try {
                FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE).close();
            } catch (IOException e) {
                // gone: nothing waits on it
            }
        }
    }

    @Test
    void aPipeSwappedInForAListedFileIsSkippedAndNothingBlocks() throws IOException {
        Files.writeString(w.ws.resolve("a.txt"), "needle one\n");
        Files.writeString(w.ws.resolve("b.txt"), "needle two\n");
        SecureDirectory.beforeOpen = once("a.txt", () -> swapForFifo(w.ws.resolve("a.txt")));

        String text = assertTimeoutPreemptively(BOUND, () -> OpsWorkspace.modelText(w.ops(), "search_text",
                "{\"path\":\"/ws\",\"pattern\":\"needle\"}"));

        assertThat(text).contains("/ws/b.txt:1: needle two").doesNotContain("a.txt").doesNotContain("Incomplete");
    }

    @Test
    void aPipeSwappedInWhoseDirectoryMovedEndsTheSearchAtItsDeadline() throws IOException {
        Path sub = Files.createDirectories(w.ws.resolve("sub"));
        Files.writeString(sub.resolve("a.txt"), "needle one\n");
        Path moved = w.ws.resolve("moved");
        SecureDirectory.beforeOpen = once("a.txt", () -> {
            swapForFifo(sub.resolve("a.txt"));
            try {
                Files.move(sub, moved);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            unreleasable.add(moved.resolve("a.txt"));
        });
        MeroOperations shortSearch = w.ops(OperationLimits.builder().searchTimeoutMillis(1_000));

        String text = assertTimeoutPreemptively(BOUND, () -> OpsWorkspace.modelText(shortSearch, "search_text",
                "{\"path\":\"/ws/sub\",\"pattern\":\"needle\"}"));

        if (Boolean.getBoolean("mero.expectPortableDirectories")) {
            // the portable layer (java25-portable) opens without blocking: the pipe is refused at once
            assertThat(text).doesNotContain("needle one").doesNotContain("Incomplete");
        } else {
            assertThat(text).contains("[Incomplete: the search reached its time limit of 1000 ms");
        }
    }

    @Test
    void namesBeyondAsciiAndFilesLargerThanEveryBufferAnswerAsOnTheJdkPath() throws IOException {
        Files.writeString(w.ws.resolve("caf\u00e9.txt"), "needle caf\u00e9\n");
        Files.writeString(w.ws.resolve("\u65e5\u672c.md"), "x\nneedle \u65e5\u672c\n");
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 5_000; i++) {
            big.append("line ").append(i).append(" of a file larger than the native and the first read buffer\n");
        }
        Files.writeString(w.ws.resolve("big.txt"), big + "needle at the end\n");
        Files.writeString(w.ws.resolve("cut.txt"), big.substring(0, 150_000) + "needle past the limit\n");
        Files.writeString(w.ws.resolve("crlf.txt"), "needle\r\nnone\r\n");
        Files.write(w.ws.resolve("binary.bin"), new byte[] {'n', 'e', 'e', 'd', 'l', 'e', 0, '\n'});
        Files.writeString(w.ws.resolve("empty.txt"), "");
        MeroOperations ops = w.ops(OperationLimits.builder().maxSearchFileBytes(400_000));
        String search = "{\"path\":\"/ws\",\"pattern\":\"needle\"}";

        String text = sameAnswers(() -> OpsWorkspace.modelText(ops, "search_text", search));

        assertThat(text).startsWith("5 matching lines for 'needle' in '/ws' (searched 7 files):")
                .contains("/ws/caf\u00e9.txt:1: needle caf\u00e9", "/ws/\u65e5\u672c.md:2: needle \u65e5\u672c",
                        "/ws/big.txt:5001: needle at the end", "/ws/crlf.txt:1: needle",
                        "/ws/cut.txt:", "needle past the limit")
                .doesNotContain("binary.bin");
        MeroOperations small = w.ops(OperationLimits.builder().maxSearchFileBytes(100_000));
        assertThat(sameAnswers(() -> OpsWorkspace.modelText(small, "search_text", search)))
                .doesNotContain("needle at the end", "needle past the limit")
                .endsWith("[2 files were searched only in its first 100000 bytes.]");
    }

    @Test
    void aFileThatShrinksBeforeItsOpenIsSearchedAsItIsThen() throws IOException {
        Path a = w.ws.resolve("a.txt");
        Files.writeString(a, "x".repeat(100_000) + "\nneedle gone\n");
        SecureDirectory.beforeOpen = once("a.txt", () -> write(a, "needle short\n"));

        String text = assertTimeoutPreemptively(BOUND, () -> OpsWorkspace.modelText(w.ops(), "search_text",
                "{\"path\":\"/ws\",\"pattern\":\"needle\"}"));

        assertThat(text).isEqualTo("1 matching line for 'needle' in '/ws' (searched 2 files):\n"
                + "/ws/a.txt:1: needle short");
    }

    @Test
    void aDirectorysFilesOpenOnlyAsPlainRegularFilesBelowIt() throws Exception {
        Path dir = Files.createDirectories(w.ws.resolve("d"));
        Files.writeString(dir.resolve("a.txt"), "alpha\n");
        Files.writeString(dir.resolve("caf\u00e9.txt"), "beta\n");
        Files.createDirectories(dir.resolve("sub"));
        Files.createSymbolicLink(dir.resolve("link.txt"), Path.of("a.txt"));
        Files.createSymbolicLink(dir.resolve("out.txt"), w.outside.resolve("secret.txt"));
        Fifos.mkfifo(dir.resolve("pipe"));
        ConfinedCalls layer = ConfinedCalls.current();
        try (SecureDirectory directory = SecureDirectory.open(entry, dir.toRealPath())) {
            ListedFiles files = layer.listedFiles(entry, directory);
            if (!layer.walks()) {
                assertThat(files).isNull();
                return;
            }
            try (files) {
                assertThat(files.open("a.txt")).isTrue();
                assertThat(files.size()).isEqualTo(6);
                assertThat(readAll(files)).isEqualTo("alpha\n");
                // grown after the open: the layer reads to the end, the size stays the one at the open
                assertThat(files.open("caf\u00e9.txt")).isTrue();
                Files.writeString(dir.resolve("caf\u00e9.txt"), "more\n", StandardOpenOption.APPEND);
                assertThat(files.size()).isEqualTo(5);
                assertThat(readAll(files)).isEqualTo("beta\nmore\n");
                for (String refused : List.of("sub", "link.txt", "out.txt", "pipe", "missing", "..", ".", "",
                        "sub/../a.txt", "../d/a.txt", "bad\u0000name", "caf\uD800.txt")) {
                    assertThat(assertTimeoutPreemptively(BOUND, () -> files.open(refused))).as(refused).isFalse();
                }
            }
            assertThat(files.open("a.txt")).as("closed").isFalse();
        }
    }

    @Test
    void aDirectoryThatIsNoLongerTheWalksIsLeftToTheJdkPath() throws IOException {
        Path dir = Files.createDirectories(w.ws.resolve("d"));
        Files.writeString(dir.resolve("a.txt"), "alpha\n");
        try (SecureDirectory directory = SecureDirectory.open(entry, dir.toRealPath())) {
            Files.move(dir, w.ws.resolve("elsewhere"));
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("a.txt"), "another\n");

            assertThat(ConfinedCalls.current().listedFiles(entry, directory)).isNull();
        }
    }

    /** Runs a call with the selected layer and with the JDK's path alone, and requires the same answer. */
    private String sameAnswers(Supplier<String> call) {
        String layered = assertTimeoutPreemptively(BOUND, call::get);
        ConfinedCalls.Selected.calls = ConfinedCalls.NONE;
        try {
            assertThat(layered).isEqualTo(assertTimeoutPreemptively(BOUND, call::get));
        } finally {
            ConfinedCalls.Selected.calls = selected;
        }
        return layered;
    }

    private static String readAll(ListedFiles files) throws IOException {
        byte[] buffer = new byte[3];
        StringBuilder out = new StringBuilder();
        for (int n = files.read(buffer, 0, buffer.length); n >= 0; n = files.read(buffer, 0, buffer.length)) {
            out.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
        }
        return out.toString();
    }

    /** Runs {@code action} before the first open of {@code name}, once. */
    private static Consumer<String> once(String name, Runnable action) {
        AtomicBoolean done = new AtomicBoolean();
        return opened -> {
            if (opened.equals(name) && done.compareAndSet(false, true)) {
                action.run();
            }
        };
    }

    private static void swapForFifo(Path file) {
        try {
            Files.delete(file);
            Fifos.mkfifo(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
