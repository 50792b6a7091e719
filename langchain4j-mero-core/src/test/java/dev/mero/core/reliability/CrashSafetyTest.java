package dev.mero.core.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM rewrites a file with {@code write_file} in a loop and is killed with SIGKILL at random moments,
 * again and again: the file is always the last version the writer reported or the one after it (never torn,
 * never empty), a killed write leaves at most its own temporary file, which the next write removes, and a
 * writer that finishes leaves the file alone in its directory.
 */
class CrashSafetyTest {

    /** Fixed so that a failure can be replayed; printed with the result. */
    private static final long SEED = 20261201L;
    /** 10 in the default run (a child JVM start each, seconds under load); {@code -Dmero.crash.kills=30} for more. */
    private static final int KILLS = Integer.getInteger("mero.crash.kills", 10);
    /** The loop stops early after this long (a very slow machine), having killed at least once. */
    private static final long MAX_NANOS = TimeUnit.SECONDS.toNanos(150);

    @TempDir
    Path tmp;

    @Test
    void aWriterKilledAtRandomMomentsLeavesTheOldOrTheNewContentAndNoTemporaryFile() throws Exception {
        Path dir = Files.createDirectories(tmp.toRealPath().resolve("ws"));
        Path file = dir.resolve(WriterProcess.FILE);
        Files.writeString(file, WriterProcess.version(0));
        Random random = new Random(SEED);
        long start = System.nanoTime();
        int next = 1;
        int kills = 0;
        while (kills < KILLS && (kills == 0 || System.nanoTime() - start < MAX_NANOS)) {
            Process writer = new ProcessBuilder(WriterProcess.javaCommand("loop", dir.toString(), String.valueOf(next)))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            int reported = next - 1;
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8))) {
                int writesBeforeKill = 1 + random.nextInt(4);
                for (int i = 0; i < writesBeforeKill; i++) {
                    reported = wrote(out.readLine(), reported);
                }
                spin(random.nextInt(3_000_000)); // up to 3 ms further into the next write
                writer.toHandle().destroyForcibly(); // SIGKILL, keeping the pipe readable
                assertThat(writer.waitFor(60, TimeUnit.SECONDS)).isTrue();
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    reported = wrote(line, reported);
                }
            }
            kills++;
            String content = Files.readString(file);
            int version = WriterProcess.versionOf(content);
            assertThat(version).as("kill %d (seed %d): the file after the writer reported version %d", kills, SEED,
                    reported).isIn(reported, reported + 1);
            List<String> others = others(dir);
            assertThat(others).as("kill %d: at most the killed write's own temporary file", kills).hasSizeLessThan(2)
                    .allMatch(name -> name.startsWith("." + WriterProcess.FILE + ".mero-"));
            next = version + 1;
        }

        Process last = new ProcessBuilder(WriterProcess.javaCommand("once", dir.toString(), String.valueOf(next)))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String output = new String(last.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(last.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(output).startsWith("RESULT Wrote ");
        assertThat(WriterProcess.versionOf(Files.readString(file))).isEqualTo(next);
        assertThat(others(dir)).isEmpty();
        System.out.printf("CrashSafetyTest: %d SIGKILLs (seed %d) in %d ms, file always whole%n", kills, SEED,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
    }

    private static int wrote(String line, int reported) {
        assertThat(line).as("the writer's report").isNotNull().startsWith("WROTE ");
        int version = Integer.parseInt(line.substring("WROTE ".length()));
        assertThat(version).isEqualTo(reported + 1);
        return version;
    }

    private static List<String> others(Path dir) throws Exception {
        try (var entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).filter(name -> !name.equals(WriterProcess.FILE))
                    .toList();
        }
    }

    /** Busy-waits, so that the kill lands at a varying point of a write; correctness never depends on it. */
    private static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
