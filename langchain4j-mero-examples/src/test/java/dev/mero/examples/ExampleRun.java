package dev.mero.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

/** One offline run of an example, as a user sees it: the transcript and the answer. */
final class ExampleRun {

    final String transcript;
    final String answer;

    private ExampleRun(String transcript, String answer) {
        this.transcript = transcript;
        this.answer = answer;
    }

    /** Runs an example with the scripted model in {@code root}. */
    static ExampleRun offline(Example example, Path root) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String answer = example.run(root, ModelSelection.scripted(), new Transcript(new PrintStream(out, true, UTF_8)));
        ExampleRun run = new ExampleRun(out.toString(UTF_8), answer);
        run.assertPlainText();
        return run;
    }

    /** Wraps a transcript printed by other means. */
    static ExampleRun of(ByteArrayOutputStream out, String answer) {
        ExampleRun run = new ExampleRun(out.toString(UTF_8), answer);
        run.assertPlainText();
        return run;
    }

    /** The tools called, in order, as the transcript lists them. */
    List<String> toolCalls() {
        return transcript.lines().filter(line -> line.contains("Tool call  "))
                .map(line -> line.substring(line.indexOf("Tool call  ") + 11).split(" ")[0])
                .collect(Collectors.toList());
    }

    /** The block a tool call printed: its line, the result and the audit lines, up to the next call or answer. */
    String callBlock(String toolCallLinePrefix) {
        int start = transcript.indexOf(toolCallLinePrefix);
        assertThat(start).as("a line starting with %s in%n%s", toolCallLinePrefix, transcript).isNotNegative();
        int end = start;
        do {
            end = transcript.indexOf("\n\n", end + 1);
        } while (end >= 0 && !startsABlock(transcript.substring(end + 2)));
        return transcript.substring(start, end < 0 ? transcript.length() : end + 1);
    }

    private static boolean startsABlock(String rest) {
        return rest.startsWith("Tool call  ") || rest.startsWith("[") || rest.matches("(?s)^[A-Za-z]+: .*");
    }

    private void assertPlainText() {
        assertThat(transcript).doesNotContain("\u001b").doesNotContain("\tat ").doesNotContain("Exception");
        assertThat(transcript).startsWith("mero example '")
                .contains("Model: " + ModelSelection.SCRIPTED + "\n");
    }
}
