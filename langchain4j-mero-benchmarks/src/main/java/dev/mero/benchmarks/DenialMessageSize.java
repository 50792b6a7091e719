package dev.mero.benchmarks;

import dev.mero.core.MeroToolsException;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Prints the size of a denial message with 1, 100 and 10,000 mounted entries, by slug and by host path: what a
 * model's context pays for one refused path.
 *
 * <p>Run: {@code java -cp langchain4j-mero-benchmarks/target/benchmarks.jar dev.mero.benchmarks.DenialMessageSize}
 */
public final class DenialMessageSize {

    private DenialMessageSize() {
    }

    /**
     * Prints {@code denial-size entries=N form=F chars=C} lines.
     *
     * @param args ignored
     * @throws IOException if the directories cannot be created
     */
    public static void main(String[] args) throws IOException {
        for (int entries : new int[] {1, 100, 10_000}) {
            Path base = Files.createTempDirectory("mero-denial").toRealPath();
            try {
                SecurityContext context = PathDecisionBenchmark.Mounts.context(base, entries);
                print(context, entries, "virtual", "/not-mounted/file.txt");
                print(context, entries, "host", base.resolve("not-mounted/file.txt").toString());
            } finally {
                Directories.deleteRecursively(base);
            }
        }
    }

    private static void print(SecurityContext context, int entries, String form, String path) {
        try {
            context.checkPathAccess(path, Permission.READ);
            System.out.printf("denial-size entries=%d form=%s chars=allowed%n", entries, form);
        } catch (MeroToolsException e) {
            System.out.printf("denial-size entries=%d form=%s chars=%d%n", entries, form, e.getMessage().length());
        }
    }
}
