package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The line windows {@code read_file} shows: which bytes, which line numbers, what is known of the whole file. */
class LineWindowTest {

    private static LineWindow read(String text, int offset, int limit, int maxBytes, long maxScan) throws IOException {
        return read(text.getBytes(StandardCharsets.UTF_8), offset, limit, maxBytes, maxScan);
    }

    private static LineWindow read(byte[] bytes, int offset, int limit, int maxBytes, long maxScan)
            throws IOException {
        return LineWindow.read(new ByteArrayInputStream(bytes), bytes.length, offset, limit, maxBytes, maxScan);
    }

    private static String text(LineWindow window) {
        return new String(window.bytes(), StandardCharsets.UTF_8);
    }

    @Test
    void aWindowInTheMiddleHoldsExactlyItsLinesAndTheFileIsCountedToTheEnd() throws IOException {
        LineWindow window = read("a\nb\nc\nd\n", 2, 2, 1000, 1000);
        assertThat(text(window)).isEqualTo("b\nc\n");
        assertThat(window.firstLine).isEqualTo(2);
        assertThat(window.lastLine()).isEqualTo(3);
        assertThat(window.totalLines()).isEqualTo(4);
        assertThat(window.totalKnown).isTrue();
        assertThat(window.cutInsideLine).isFalse();
        assertThat(window.binary()).isFalse();
        assertThat(window.fileBytes).isEqualTo(8);
    }

    @Test
    void aWindowReachingTheEndEndsWithTheLastLineWithOrWithoutANewline() throws IOException {
        LineWindow whole = read("a\nb\nc", 1, 10, 1000, 1000);
        assertThat(text(whole)).isEqualTo("a\nb\nc");
        assertThat(whole.lastLine()).isEqualTo(3);
        assertThat(whole.totalLines()).isEqualTo(3);
        LineWindow tail = read("a\nb\nc\n", 3, 10, 1000, 1000);
        assertThat(text(tail)).isEqualTo("c\n");
        assertThat(tail.lastLine()).isEqualTo(3);
        assertThat(tail.totalLines()).isEqualTo(3);
    }

    @Test
    void anEmptyFileHasNoLines() throws IOException {
        LineWindow window = read("", 1, 10, 1000, 1000);
        assertThat(window.bytes()).isEmpty();
        assertThat(window.totalLines()).isZero();
        assertThat(window.lastLine()).isZero();
        assertThat(window.totalKnown).isTrue();
        assertThat(window.fileBytes).isZero();
        assertThat(read("\n", 1, 10, 1000, 1000).totalLines()).isEqualTo(1);
    }

    @Test
    void anOffsetPastTheEndGivesNoBytes() throws IOException {
        LineWindow window = read("a\nb\n", 5, 10, 1000, 1000);
        assertThat(window.bytes()).isEmpty();
        assertThat(window.totalLines()).isEqualTo(2);
        assertThat(window.lastLine()).isEqualTo(4);
    }

    @Test
    void theByteLimitCutsAtTheLastWholeLine() throws IOException {
        LineWindow window = read("aa\nbb\ncc\n", 1, 10, 5, 1000);
        assertThat(text(window)).isEqualTo("aa\n");
        assertThat(window.lastLine()).isEqualTo(1);
        assertThat(window.cutInsideLine).isFalse();
        assertThat(window.totalLines()).isEqualTo(3);
        LineWindow exact = read("aa\nbb\ncc\n", 1, 10, 6, 1000);
        assertThat(text(exact)).isEqualTo("aa\nbb\n");
        assertThat(exact.lastLine()).isEqualTo(2);
        LineWindow later = read("aa\nbb\ncc\ndd\n", 2, 10, 6, 1000);
        assertThat(text(later)).isEqualTo("bb\ncc\n");
        assertThat(later.lastLine()).isEqualTo(3);
    }

    @Test
    void aSingleLineLongerThanTheByteLimitIsCutInside() throws IOException {
        LineWindow window = read("x\nabcdefgh\ny\n", 2, 10, 4, 1000);
        assertThat(text(window)).isEqualTo("abcd");
        assertThat(window.cutInsideLine).isTrue();
        assertThat(window.firstLine).isEqualTo(2);
        assertThat(window.lastLine()).isEqualTo(2);
        assertThat(window.totalLines()).isEqualTo(3);
        assertThat(window.totalKnown).isTrue();
    }

    @Test
    void theScanLimitStopsReadingAndLeavesTheTotalUnknown() throws IOException {
        CountingStream in = new CountingStream("a\nb\nc\nd\ne\nf\n".getBytes(StandardCharsets.US_ASCII));
        LineWindow window = LineWindow.read(in, 12, 1, 2, 1000, 5);
        assertThat(text(window)).isEqualTo("a\nb\n");
        assertThat(window.totalKnown).isFalse();
        assertThat(window.totalLines()).isEqualTo(3);
        assertThat(window.fileBytes).isEqualTo(5);
        assertThat(in.served).isEqualTo(5);
        byte[] big = "0123456789\n".repeat(2000).getBytes(StandardCharsets.US_ASCII);
        CountingStream large = new CountingStream(big);
        LineWindow first = LineWindow.read(large, big.length, 1, 1, 1000, 10_000);
        assertThat(large.served).isEqualTo(10_000);
        assertThat(first.totalLines()).isEqualTo(910);
        assertThat(first.totalKnown).isFalse();
        assertThat(text(first)).isEqualTo("0123456789\n");
    }

    @Test
    void aLargeFileIsCountedAcrossReadBuffers() throws IOException {
        byte[] big = "0123456789\n".repeat(2000).getBytes(StandardCharsets.US_ASCII);
        LineWindow window = read(big, 1500, 2, 1000, 1_000_000);
        assertThat(text(window)).isEqualTo("0123456789\n0123456789\n");
        assertThat(window.lastLine()).isEqualTo(1501);
        assertThat(window.totalLines()).isEqualTo(2000);
        assertThat(window.fileBytes).isEqualTo(22_000);
        assertThat(window.totalKnown).isTrue();
    }

    @Test
    void aNulInTheFirst8KiBOrInTheWindowMarksTheFileBinary() throws IOException {
        byte[] early = "a\nb\0\nc\n".getBytes(StandardCharsets.US_ASCII);
        assertThat(read(early, 3, 1, 1000, 1000).binary()).isTrue();
        assertThat(read("a\nb\nc\n", 1, 10, 1000, 1000).binary()).isFalse();

        byte[] lateNul = new byte[8192 + 4];
        java.util.Arrays.fill(lateNul, (byte) 'x');
        lateNul[8191] = '\n';
        lateNul[8192] = 0;
        lateNul[8193] = '\n';
        lateNul[8195] = '\n';
        // the NUL sits on line 2, just past the first 8 KiB: binary only when the window holds it
        assertThat(read(lateNul, 1, 1, 100_000, 100_000).binary()).isFalse();
        assertThat(read(lateNul, 2, 1, 100_000, 100_000).binary()).isTrue();
        assertThat(read(lateNul, 3, 1, 100_000, 100_000).binary()).isFalse();
        lateNul[8191] = 0;
        assertThat(read(lateNul, 3, 1, 100_000, 100_000).binary()).isTrue();
    }

    /** Serves its bytes and counts what was taken. */
    private static final class CountingStream extends InputStream {
        private final byte[] bytes;
        int served;

        CountingStream(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read() {
            return served < bytes.length ? bytes[served++] : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (served >= bytes.length) {
                return -1;
            }
            int n = Math.min(len, bytes.length - served);
            System.arraycopy(bytes, served, b, off, n);
            served += n;
            return n;
        }
    }
}
