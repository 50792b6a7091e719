package dev.mero.core.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code write_file} on a full file system (a 64 KiB tmpfs) and on a read-only one, each mounted in a private
 * mount namespace for one child JVM: the write fails with a clean {@code Error: ...} naming the system's
 * reason, the old content is intact, and no temporary file is left behind. Skipped (by assumption) only where
 * no tmpfs can be mounted at all.
 */
class FullDiskAndReadOnlyTest {

    @TempDir
    Path tmp;

    private Path dir;

    @BeforeEach
    void mountPoint() throws Exception {
        dir = Files.createDirectories(tmp.toRealPath().resolve("mnt"));
        assumeTrue(ChildJvm.canMountTmpfs(Files.createDirectories(tmp.resolve("probe"))),
                "this machine cannot mount a tmpfs in a private mount namespace (needs root or user namespaces)");
    }

    @Test
    void aFullDiskFailsTheWriteCleanlyAndKeepsTheOldContent() throws Exception {
        List<String> lines = ChildJvm.runOnTmpfs(dir, "64k", "", "write", dir.toString(), String.valueOf(256 * 1024));

        assertThat(ChildJvm.line(lines, "RESULT"))
                .isEqualTo("Error: Could not write '/ws/f.txt': No space left on device.");
        assertThat(ChildJvm.line(lines, "SAME")).isEqualTo("true");
        assertThat(ChildJvm.line(lines, "FILES")).isEqualTo(WriterProcess.FILE);
    }

    @Test
    void aReadOnlyFileSystemFailsTheWriteCleanlyAndKeepsTheOldContent() throws Exception {
        List<String> lines = ChildJvm.runOnTmpfs(dir, "1m", "&& mount -o remount,ro \"$d\"",
                "write", dir.toString(), "1000");

        assertThat(ChildJvm.line(lines, "RESULT"))
                .startsWith("Error: Could not write '/ws/f.txt': ")
                .contains("Read-only file system");
        assertThat(ChildJvm.line(lines, "SAME")).isEqualTo("true");
        assertThat(ChildJvm.line(lines, "FILES")).isEqualTo(WriterProcess.FILE);
    }

    @Test
    void theSameWriteSucceedsWhereThereIsRoom() throws Exception {
        List<String> lines = ChildJvm.runOnTmpfs(dir, "1m", "", "write", dir.toString(), String.valueOf(256 * 1024));

        assertThat(ChildJvm.line(lines, "RESULT")).startsWith("Wrote 262144 bytes to '/ws/f.txt'");
        assertThat(ChildJvm.line(lines, "SAME")).isEqualTo("false");
        assertThat(ChildJvm.line(lines, "FILES")).isEqualTo(WriterProcess.FILE);
    }
}
