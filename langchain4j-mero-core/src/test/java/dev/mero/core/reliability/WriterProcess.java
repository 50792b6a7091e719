package dev.mero.core.reliability;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mero.core.MeroToolsException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import dev.mero.core.ops.MeroOperations;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A child JVM that writes with {@code write_file} through {@link MeroOperations}, for tests that must kill the
 * writer or run it in a mount namespace of its own (a full or read-only file system). Reports on standard
 * output, one line per fact, so that a test can judge what happened even when the directory vanishes with
 * the namespace.
 *
 * <pre>
 * loop DIR START   write version START, START+1, ... of DIR/f.txt forever, printing "WROTE k" after each
 * once DIR K       write version K once and print "RESULT text"
 * write DIR BYTES  write BYTES bytes over DIR/f.txt, print "RESULT text", then "SAME old?" and "FILES names"
 * </pre>
 */
public final class WriterProcess {

    static final String FILE = "f.txt";
    static final String OLD = "old content\n";
    private static final ObjectMapper JSON = new ObjectMapper();

    private WriterProcess() {
    }

    /**
     * Runs one mode.
     *
     * @param args mode, directory and a number
     * @throws Exception on a failure the test should see as a non-zero exit
     */
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[1]);
        MeroOperations ops = MeroOperations.forContext(SecurityContext.builder().name("writer")
                .path(PathEntry.of(dir.toString(), "ws", Permission.READ, Permission.WRITE, Permission.DELETE))
                .build());
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        switch (args[0]) {
            case "loop" -> {
                for (int k = Integer.parseInt(args[2]); ; k++) {
                    ops.call("write_file", arguments(version(k)));
                    out.println("WROTE " + k);
                }
            }
            case "once" -> out.println("RESULT " + oneLine(call(ops, version(Integer.parseInt(args[2])))));
            case "write" -> {
                out.println("RESULT " + oneLine(call(ops, "n".repeat(Integer.parseInt(args[2])))));
                out.println("SAME " + OLD.equals(Files.readString(dir.resolve(FILE))));
                out.println("FILES " + names(dir));
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    /** The content of version {@code k}: a header naming it and a body that only that version has. */
    static String version(int k) {
        StringBuilder text = new StringBuilder("version " + k + "\n");
        String line = "line of version " + k + " ".repeat(40) + "\n";
        int lines = 2000 + k % 500;
        for (int i = 0; i < lines; i++) {
            text.append(i).append(' ').append(line);
        }
        return text.append("end of version ").append(k).append('\n').toString();
    }

    /** The version a text is, if it is exactly one, else -1 (torn, empty, foreign). */
    static int versionOf(String text) {
        if (!text.startsWith("version ")) {
            return -1;
        }
        int end = text.indexOf('\n');
        try {
            int k = Integer.parseInt(text.substring("version ".length(), end));
            return version(k).equals(text) ? k : -1;
        } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
            return -1;
        }
    }

    /** The directory's entries, sorted, comma-separated. */
    static String names(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().collect(Collectors.joining(","));
        }
    }

    private static String call(MeroOperations ops, String content) throws IOException {
        try {
            return ops.call("write_file", arguments(content));
        } catch (MeroToolsException e) {
            return e.toModelText();
        }
    }

    private static String arguments(String content) throws IOException {
        return JSON.writeValueAsString(Map.of("path", "/ws/" + FILE, "content", content));
    }

    private static String oneLine(String text) {
        return text.replace("\\", "\\\\").replace("\n", "\\n");
    }

    /** The command line that starts this class in a child JVM with the test's class path. */
    static List<String> javaCommand(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xshare:auto", "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), WriterProcess.class.getName()));
        command.addAll(List.of(args));
        return command;
    }
}
