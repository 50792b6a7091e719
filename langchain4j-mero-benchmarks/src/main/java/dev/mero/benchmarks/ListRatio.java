package dev.mero.benchmarks;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.catalogue.ToolCatalogue;
import dev.mero.core.ops.ConfinedCallsInUse;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.ops.ToolArguments;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The guarded {@code list_directory} of a directory of 200 entries (180 files, 20 directories) against the same
 * listing done raw with the JDK: the names read with a {@link DirectoryStream}, sorted, each entry's type read
 * without following links so that directories are marked, as the tool shows them. Measured as
 * {@link InterleavedRounds interleaved rounds} in one run.
 *
 * <p>Run: {@code java -cp langchain4j-mero-benchmarks/target/benchmarks.jar dev.mero.benchmarks.ListRatio
 * [rounds] [warm-up rounds] [listings per round]} (defaults 500, 200 and 20), with any JDK from 17 on.
 */
public final class ListRatio extends TemporaryWorkspace {

    private static final int FILES = 180;
    private static final int DIRECTORIES = 20;

    private Path directory;
    private MeroOperations operations;
    private ToolArguments list;

    private ListRatio() {
    }

    private void setUp() throws IOException {
        Path ws = Files.createDirectories(base().resolve("ws"));
        directory = Files.createDirectories(ws.resolve("many"));
        for (int i = 0; i < FILES; i++) {
            Files.writeString(directory.resolve(String.format(Locale.ROOT, "file-%03d.txt", i)), "x");
        }
        for (int i = 0; i < DIRECTORIES; i++) {
            Files.createDirectory(directory.resolve(String.format(Locale.ROOT, "dir-%02d", i)));
        }
        operations = MeroOperations.forContext(SecurityContext.builder().name("bench")
                .path(PathEntry.of(ws.toString(), "ws", Permission.READ)).build());
        ToolCatalogue catalogue = operations.catalogue();
        list = ToolArguments.of(catalogue.find("list_directory").orElseThrow(), Map.of("path", "/ws/many"));
    }

    private String guarded() {
        return operations.call("list_directory", list);
    }

    /** The same names and marks, read with the JDK: a directory stream, a sort, a no-follow type per entry. */
    private String raw() throws IOException {
        TreeMap<String, Path> sorted = new TreeMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                sorted.put(entry.getFileName().toString(), entry);
            }
        }
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Path> entry : sorted.entrySet()) {
            out.append('\n').append(entry.getKey());
            if (Files.readAttributes(entry.getValue(), BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS)
                    .isDirectory()) {
                out.append('/');
            }
        }
        return out.toString();
    }

    /**
     * Measures and prints.
     *
     * @param args optionally the number of measured rounds, of warm-up rounds and of listings per round and side
     * @throws Exception if the workspace cannot be built or a listing fails
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int warmUp = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        int batch = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        ListRatio ratio = new ListRatio();
        ratio.setUp();
        try {
            String expected = ratio.raw();
            if (!ratio.guarded().endsWith(expected)) {
                throw new IllegalStateException("list_directory did not list the directory's entries");
            }
            InterleavedRounds timings = InterleavedRounds.run(rounds, warmUp, batch, ratio::guarded, ratio::raw);
            System.out.printf(Locale.ROOT, "Java %s (%s), read path: %s; %d listings of %d entries per side and round%n",
                    Runtime.version(), System.getProperty("java.vm.name"), ConfinedCallsInUse.name(), batch,
                    FILES + DIRECTORIES);
            System.out.print(timings.report("list_directory (" + batch + " listings)",
                    "DirectoryStream + sort + type (" + batch + " listings)"));
        } finally {
            ratio.removeWorkspace();
        }
    }
}
