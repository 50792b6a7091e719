package dev.mero.benchmarks;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * How one JVM scales with the number of contexts and threads: the heap a {@link SecurityContext} holds (one
 * mount, the default protected paths and command policy) at 1, 100, 1,000 and 10,000 live contexts, the time to
 * build one, and path decisions per second ({@code checkPathAccess} of an allowed file) on 1 and 2 threads, on
 * one context and spread over 10,000. A bounded main, not JMH: it measures growth, not a ratio.
 *
 * <p>Run: {@code java -Xmx1g -cp langchain4j-mero-benchmarks/target/benchmarks.jar dev.mero.benchmarks.ScaleReport
 * [seconds per throughput figure]} (default 3). Prints a Markdown table.
 */
public final class ScaleReport {

    private static final int[] COUNTS = {1, 100, 1_000, 10_000};

    private ScaleReport() {
    }

    /**
     * Measures and prints.
     *
     * @param args optionally the seconds each throughput figure runs
     * @throws Exception if the workspace cannot be made
     */
    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        Path base = Files.createTempDirectory("mero-scale").toRealPath();
        try {
            Path ws = Files.createDirectories(base.resolve("ws"));
            Files.writeString(ws.resolve("file.txt"), "x");
            System.out.println("| live contexts | heap per context | build time per context |");
            System.out.println("|---|---|---|");
            List<SecurityContext> contexts = null;
            for (int count : COUNTS) {
                contexts = null; // the previous set is garbage before the heap is measured
                long before = usedHeap();
                long start = System.nanoTime();
                contexts = build(ws, count);
                long elapsed = System.nanoTime() - start;
                long after = usedHeap();
                System.out.printf(Locale.ROOT, "| %,d | %,d bytes | %.1f us |%n", count,
                        (after - before) / count, elapsed / 1e3 / count);
            }
            System.out.println();
            System.out.println("| path decisions per second | 1 thread | 2 threads |");
            System.out.println("|---|---|---|");
            List<SecurityContext> one = contexts.subList(0, 1);
            for (List<SecurityContext> set : List.of(one, contexts)) {
                decide(set, 1, seconds / 2); // warm-up
                System.out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f |%n",
                        set.size() == 1 ? "one context" : String.format(Locale.ROOT, "spread over %,d contexts",
                                set.size()), decide(set, 1, seconds), decide(set, 2, seconds));
            }
        } finally {
            Directories.deleteRecursively(base);
        }
    }

    private static List<SecurityContext> build(Path ws, int count) {
        List<SecurityContext> contexts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            contexts.add(SecurityContext.builder().name("scale-" + i)
                    .path(PathEntry.of(ws.toString(), "ws", Permission.READ, Permission.WRITE))
                    .allowCommand("git").build());
        }
        return contexts;
    }

    /** Decisions per second over the contexts, each thread taking them in turn. */
    private static double decide(List<SecurityContext> contexts, int threads, double seconds)
            throws InterruptedException {
        LongAdder decisions = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            int offset = t * 7919;
            Thread thread = new Thread(() -> {
                int i = offset;
                long local = 0;
                while (!stop.get()) {
                    SecurityContext context = contexts.get(Math.floorMod(i++, contexts.size()));
                    if (context.checkPathAccess("/ws/file.txt", Permission.READ).realPath() == null) {
                        throw new IllegalStateException("no decision");
                    }
                    local++;
                }
                decisions.add(local);
                done.countDown();
            });
            thread.start();
        }
        long start = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        stop.set(true);
        done.await();
        return decisions.sum() / ((System.nanoTime() - start) / 1e9);
    }

    private static long usedHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
