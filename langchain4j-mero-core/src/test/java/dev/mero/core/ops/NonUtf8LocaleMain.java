package dev.mero.core.ops;

import dev.mero.core.path.FileNameEncoding;
import dev.mero.core.MeroToolsException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs tool calls in a JVM started without a UTF-8 locale (see {@link FileNameEncodingTest}): mounts the directory
 * given as its argument as {@code /ws}, and prints each call's model text after a {@code ### <n>} line, in UTF-8
 * whatever the locale, with the JVM's file-name encoding and its start-up warning first.
 */
public final class NonUtf8LocaleMain {

    /** The calls, in order: {@code tool} and JSON arguments; the names hold non-ASCII characters as escapes. */
    static final String[][] CALLS = {
        {"read_file", "{\"path\":\"/ws/\\u00e9t\\u00e9.txt\"}"},
        {"write_file", "{\"path\":\"/ws/\\u00fc.txt\",\"content\":\"x\"}"},
        {"file_info", "{\"path\":\"/ws/\\u00e9t\\u00e9.txt\"}"},
        {"list_directory", "{\"path\":\"/ws\"}"},
        {"find_files", "{\"path\":\"/ws\",\"pattern\":\"*.txt\"}"},
        {"search_text", "{\"path\":\"/ws\",\"pattern\":\"needle\"}"},
        {"directory_tree", "{\"path\":\"/ws\"}"},
        {"sync_directory", "{\"source\":\"/ws\",\"destination\":\"/out\"}"},
        {"read_file", "{\"path\":\"/ws/plain.txt\"}"},
    };

    private NonUtf8LocaleMain() {
    }

    /**
     * Runs the calls.
     *
     * @param args the directory to mount as {@code /ws}, and one to mount as {@code /out}
     */
    public static void main(String[] args) {
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        out.println(FileNameEncoding.charset());
        out.println(FileNameEncoding.startupWarning().orElse("no warning"));
        MeroOperations ops = MeroOperations.forContext(SecurityContext.builder().name("locale")
                .path(PathEntry.of(args[0], "ws", Permission.READ, Permission.WRITE))
                .path(PathEntry.of(args[1], "out", Permission.READ, Permission.WRITE))
                .build());
        for (int i = 0; i < CALLS.length; i++) {
            out.println("### " + i);
            try {
                out.println(ops.call(CALLS[i][0], CALLS[i][1]));
            } catch (MeroToolsException e) {
                out.println(e.toModelText());
            }
        }
    }
}
