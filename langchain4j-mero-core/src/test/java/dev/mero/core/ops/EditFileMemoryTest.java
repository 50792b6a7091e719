package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.InvalidInputException;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * edit_file knows the size of its result before it builds it: edits that would amplify a small file past the write
 * limit are refused before any allocation larger than the limit, and every call, refused or done, dry run or not,
 * allocates a small multiple of the limit. Allocation is measured with the JVM's per-thread allocation counter
 * around the call, which is deterministic (it counts bytes, not time).
 */
class EditFileMemoryTest {

    private static final int LIMIT = 1024 * 1024;
    /** What one call may allocate in all, as a multiple of the write limit. */
    private static final int MULTIPLE = 12;
    private static final String THIRTY_THOUSAND_MATCHES = "x\n".repeat(30_000);

    @TempDir
    Path temp;
    OpsWorkspace w;
    MeroOperations ops;

    @BeforeEach
    void setUp() throws IOException {
        w = new OpsWorkspace(temp);
        ops = w.ops();
        assertThat(ops.limits().maxWriteBytes()).isEqualTo(LIMIT);
    }

    private ToolArguments edit(String oldText, String newText, boolean dryRun) {
        Map<String, Object> values = new HashMap<>();
        values.put("path", "/ws/big.txt");
        values.put("old_text", oldText);
        values.put("new_text", newText);
        values.put("replace_all", true);
        values.put("dry_run", dryRun);
        return ToolArguments.of(ops.catalogue().find("edit_file").orElseThrow(), values);
    }

    /** Runs a call on this thread and returns how many bytes it allocated, checking what it returned or threw. */
    private static long allocatedBy(Runnable call) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        call.run();
        return threads.getThreadAllocatedBytes(thread) - before;
    }

    private static Runnable refused(Supplier<String> call, String message) {
        return () -> assertThatThrownBy(call::get).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining(message);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aOneCharacterTextReplacedWithAMebibyteAcrossThirtyThousandMatchesIsRefusedUpFront(boolean dryRun)
            throws IOException {
        Files.writeString(w.ws.resolve("big.txt"), THIRTY_THOUSAND_MATCHES);
        ToolArguments arguments = edit("x", "y".repeat(LIMIT), dryRun);
        long allocated = allocatedBy(refused(() -> ops.call("edit_file", arguments),
                "edit_file writes at most " + LIMIT + " bytes at once"));
        assertThat(allocated).isLessThan((long) MULTIPLE * LIMIT);
        assertThat(Files.readString(w.ws.resolve("big.txt"))).isEqualTo(THIRTY_THOUSAND_MATCHES);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aFortyThousandCharacterNewTextIsBoundedByTheResultItWouldMake(boolean dryRun) throws IOException {
        Files.writeString(w.ws.resolve("big.txt"), THIRTY_THOUSAND_MATCHES);
        ToolArguments arguments = edit("x", "\u00E9".repeat(40_000), dryRun);
        // 30,000 x (80,000 - 1) bytes more than the file: refused by arithmetic, not by building 2.4 GB
        long allocated = allocatedBy(refused(() -> ops.call("edit_file", arguments),
                "The content is " + (60_000L + 30_000L * 79_999) + " bytes of UTF-8"));
        assertThat(allocated).isLessThan((long) MULTIPLE * LIMIT);
        // one match of the same text fits, and is written
        Files.writeString(w.ws.resolve("big.txt"), "a\nx\nb\n");
        String done = ops.call("edit_file", edit("x", "\u00E9".repeat(40_000), dryRun));
        assertThat(done).startsWith(dryRun ? "Dry run: editing '/ws/big.txt' would make 1 replacement"
                : "Edited '/ws/big.txt' (1 replacement)");
        assertThat(Files.size(w.ws.resolve("big.txt"))).isEqualTo(dryRun ? 6 : 5 + 80_000);
    }

    @Test
    void aNewTextOverTheLimitIsRefusedBeforeTheFileIsRead() throws IOException {
        Files.writeString(w.ws.resolve("big.txt"), "x");
        // 'old_text' does not occur: only the check before the read can give this refusal
        assertThatThrownBy(() -> ops.call("edit_file", edit("absent", "\u00E9".repeat(LIMIT / 2 + 1), true)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessage("The content is " + (LIMIT + 2) + " bytes of UTF-8; edit_file writes at most " + LIMIT
                        + " bytes at once. Write a shorter text.");
    }

    @Test
    void halvesOfSurrogatePairsThatJoinAfterTheReplacementAreCountedWhenEncoded() throws IOException {
        // each 'a' becomes a low then a high surrogate: counted as 2 bytes each, "aa" becomes "\uDE00" + a pair
        // + "\uD83D", 6 bytes, over a limit of 5 that the estimate of 4 passes
        MeroOperations small = MeroOperations.builder(w.contextBuilder().build())
                .limits(OperationLimits.builder().maxWriteBytes(5).build()).build();
        Files.writeString(w.ws.resolve("big.txt"), "aa");
        ToolArguments arguments = ToolArguments.of(small.catalogue().find("edit_file").orElseThrow(),
                Map.of("path", "/ws/big.txt", "old_text", "a", "new_text", "\uDE00\uD83D", "replace_all", true));
        assertThatThrownBy(() -> small.call("edit_file", arguments)).isInstanceOf(InvalidInputException.class)
                .hasMessageStartingWith("The content is 6 bytes of UTF-8; edit_file writes at most 5 bytes");
        assertThat(Files.readString(w.ws.resolve("big.txt"))).isEqualTo("aa");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void theDiffOfAnEditAsLargeAsTheLimitIsCutBeforeItIsRendered(boolean dryRun) throws IOException {
        // 340,000 one-character lines, each becoming two characters: a result of 1,020,000 bytes, a diff of
        // over two million characters
        String before = "x\n".repeat(340_000);
        Files.writeString(w.ws.resolve("big.txt"), before);
        String after = before.replace("x", "yz");
        long diffLength = UnifiedDiff.of("/ws/big.txt", before, after).length();
        ToolArguments arguments = edit("x", "yz", dryRun);
        String[] result = new String[1];
        long allocated = allocatedBy(() -> result[0] = ops.call("edit_file", arguments));
        assertThat(result[0]).contains("@@ -1,340000 +1,340000 @@\n-x\n-x\n")
                .endsWith("\n[Diff truncated: showing 20000 of " + diffLength + " characters.]");
        assertThat(allocated).isLessThan((long) MULTIPLE * LIMIT);
        assertThat(Files.readString(w.ws.resolve("big.txt"), StandardCharsets.UTF_8))
                .isEqualTo(dryRun ? before : after);
    }
}
