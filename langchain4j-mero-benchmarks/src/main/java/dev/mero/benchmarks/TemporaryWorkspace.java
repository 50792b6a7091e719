package dev.mero.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * A benchmark state that owns a temporary directory, created on first use and removed after the trial.
 */
@State(Scope.Benchmark)
public abstract class TemporaryWorkspace {

    private Path base;

    /**
     * The workspace's real path, created on first call.
     *
     * @return the directory
     * @throws IOException if it cannot be created
     */
    protected Path base() throws IOException {
        if (base == null) {
            base = Files.createTempDirectory("mero-bench").toRealPath();
        }
        return base;
    }

    /**
     * Removes the workspace and everything in it.
     *
     * @throws IOException if a file cannot be deleted
     */
    @TearDown(Level.Trial)
    public void removeWorkspace() throws IOException {
        if (base != null) {
            Directories.deleteRecursively(base);
            base = null;
        }
    }
}
