package dev.mero.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineReaderTest {

    @Test
    void splitsAtEveryLineEndAndKeepsALastUnterminatedLine() throws IOException {
        LineReader reader = new LineReader(stream("one\ntwo\r\nthree\rfour\n\nfive"), 100);

        assertThat(lines(reader)).containsExactly("one", "two", "three", "four", "", "five");
    }

    @Test
    void linesArrivingAByteAtATimeComeOutWhole() throws IOException {
        String text = "{\"a\":1}\r\n" + "x".repeat(70_000) + "\nlast\n";
        LineReader reader = new LineReader(trickle(stream(text)), 100_000);

        assertThat(lines(reader)).containsExactly("{\"a\":1}", "x".repeat(70_000), "last");
    }

    @Test
    void aLineLongerThanTheLimitIsRefused() {
        LineReader reader = new LineReader(stream("short\n" + "y".repeat(200_000) + "\n"), 100_000);

        assertThatThrownBy(() -> {
            assertThat(reader.next()).isEqualTo("short".getBytes(StandardCharsets.UTF_8));
            reader.next();
        }).isInstanceOf(LineReader.LineTooLongException.class);
    }

    private static List<String> lines(LineReader reader) throws IOException {
        List<String> lines = new ArrayList<>();
        for (byte[] line = reader.next(); line != null; line = reader.next()) {
            lines.add(new String(line, StandardCharsets.UTF_8));
        }
        return lines;
    }

    private static InputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Hands out at most one byte per read, as a slow pipe may. */
    private static InputStream trickle(InputStream in) {
        return new FilterInputStream(in) {
            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                return super.read(buffer, offset, Math.min(length, 1));
            }
        };
    }
}
