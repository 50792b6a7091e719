package dev.mero.core.command;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Test fixtures for real processes: executable {@code #!/bin/sh} scripts (the shell is only ever the
 * fixture's own interpreter, never something the runner adds) and independent checks of {@code /proc}.
 */
final class Processes {

    private Processes() {
    }

    /** Writes an executable script {@code #!/bin/sh} + body into the directory. */
    static Path script(Path directory, String name, String body) throws IOException {
        Path script = directory.resolve(name);
        Files.writeString(script, "#!/bin/sh\n" + body, StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    /** The pids a fixture script wrote, one per line. */
    static List<Long> pids(Path file) throws IOException {
        List<Long> pids = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                pids.add(Long.parseLong(line.trim()));
            }
        }
        return pids;
    }

    /** Whether a process runs: it exists and is no zombie (where init does not reap, killed orphans stay zombies). */
    static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"), StandardCharsets.ISO_8859_1);
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits up to {@code millis} for a process to stop running; returns whether it did. */
    static boolean awaitGone(long pid, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (running(pid)) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /** The running processes whose argument vector is exactly {@code argv}, read from {@code /proc/<pid>/cmdline}. */
    static List<Long> runningWithArgv(String... argv) {
        byte[] wanted = (String.join("\0", argv) + "\0").getBytes(StandardCharsets.UTF_8);
        List<Long> found = new ArrayList<>();
        for (long pid : ProcFs.pids()) {
            try {
                byte[] cmdline = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
                if (Arrays.equals(cmdline, wanted) && running(pid)) {
                    found.add(pid);
                }
            } catch (IOException e) {
                // gone meanwhile
            }
        }
        return found;
    }

    /** Kills a process a test started, if the runner under test failed to. */
    static void killQuietly(long pid) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        handle.ifPresent(ProcessHandle::destroyForcibly);
    }

    /** Drainer threads of the runner still in their drain loop (the runner joins them before returning). */
    static List<String> runnerThreads() {
        return OutputDrainer.running();
    }
}
