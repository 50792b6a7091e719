package dev.mero.core;

import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One context serves concurrent tool calls and gives each the same answer it gives alone. */
class SecurityContextConcurrencyTest {

    @TempDir
    Path tmp;

    @Test
    void concurrentChecksAgreeWithSequentialOnes() throws Exception {
        Path ws = Files.createDirectories(tmp.resolve("ws"));
        Path out = Files.createDirectories(tmp.resolve("out"));
        Files.createSymbolicLink(ws.resolve("leak"), out);
        SecurityContext context = SecurityContext.builder().name("c")
                .path(PathEntry.of(ws.toString(), "ws", READ, WRITE)).build();
        List<String> paths = List.of("a.txt", "dir/b.txt", "leak/x", "../out/x", "/ws/c", "/etc/passwd");
        List<String> expected = new ArrayList<>();
        for (String path : paths) {
            expected.add(outcome(context, path));
        }

        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                Callable<Boolean> task = () -> {
                    for (int i = 0; i < 500; i++) {
                        int k = i % paths.size();
                        if (!outcome(context, paths.get(k)).equals(expected.get(k))) {
                            return false;
                        }
                    }
                    return true;
                };
                results.add(pool.submit(task));
            }
            for (Future<Boolean> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(expected).filteredOn(s -> s.startsWith("ok")).hasSize(3);
    }

    private static String outcome(SecurityContext context, String path) throws IOException {
        try {
            return "ok " + context.checkPathAccess(path, WRITE).realPath();
        } catch (MeroToolsException e) {
            return e.getClass().getSimpleName() + " " + e.getMessage();
        }
    }
}
