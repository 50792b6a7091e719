package dev.mero.core.command;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The few reads of Linux's {@code /proc} the runner needs to find and kill the processes of a run. On a
 * system without {@code /proc} every query answers "nothing found", leaving {@link ProcessHandle} as the
 * only source.
 */
final class ProcFs {

    private static final Path PROC = Path.of("/proc");
    /** The kernel bounds a process's environment; this bounds a read even if the kernel's limit is lifted. */
    private static final long MAX_ENVIRON_BYTES = 32L * 1024 * 1024;

    private ProcFs() {
    }

    /** The ids of all processes visible in {@code /proc}, empty if there is no {@code /proc}. */
    static List<Long> pids() {
        List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9') && name.length() < 19) {
                    pids.add(Long.parseLong(name));
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return pids;
    }

    /**
     * Tells whether a process's initial environment holds exactly the given {@code NAME=value} entry. A
     * process that cannot be read (gone, a zombie, another user's) does not hold it.
     */
    static boolean environContains(long pid, byte[] entry) {
        try (InputStream in = Files.newInputStream(PROC.resolve(Long.toString(pid)).resolve("environ"))) {
            return containsEntry(in, entry);
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Tells whether a process still runs: alive for Java and neither a zombie nor dead in {@code /proc}. Java
     * counts a zombie (dead, not yet reaped by its parent) as alive; a killed orphan stays a zombie for good
     * where the init process does not reap.
     */
    static boolean isRunning(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(PROC.resolve(Long.toString(process.pid())).resolve("stat"),
                    StandardCharsets.ISO_8859_1);
            // "pid (comm) S ...": the name may contain ')' itself, so the state follows the last one
            int close = stat.lastIndexOf(')');
            char state = close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
            return state != 'Z' && state != 'X';
        } catch (NoSuchFileException e) {
            return false;
        } catch (IOException e) {
            return true; // no /proc to ask: trust Java
        }
    }

    /** Matches NUL-separated entries against {@code entry} while streaming, without holding the environment. */
    private static boolean containsEntry(InputStream in, byte[] entry) throws IOException {
        byte[] buffer = new byte[8192];
        int matched = 0;
        boolean matching = true;
        long total = 0;
        int read;
        while ((read = in.read(buffer)) > 0 && total < MAX_ENVIRON_BYTES) {
            total += read;
            for (int i = 0; i < read; i++) {
                byte b = buffer[i];
                if (b == 0) {
                    if (matching && matched == entry.length) {
                        return true;
                    }
                    matched = 0;
                    matching = true;
                } else if (matching && matched < entry.length && entry[matched] == b) {
                    matched++;
                } else {
                    matching = false;
                }
            }
        }
        return matching && matched == entry.length;
    }
}
