package dev.mero.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Creates named pipes with the system's {@code mkfifo}, for tests that feed a FIFO where a file is expected. */
public final class Fifos {

    private Fifos() {
    }

    /**
     * Creates a FIFO.
     *
     * @param path where
     * @return the path
     */
    public static Path mkfifo(Path path) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("mkfifo", path.toString()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0 || !Files.exists(path)) {
            throw new IOException("mkfifo " + path + " failed: " + output);
        }
        return path;
    }
}
