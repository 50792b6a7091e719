package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link LineWindow} scans a line segment at a time; these properties hold it equal, field by field, to the
 * plain byte-at-a-time definition below on random files (line ends, NUL bytes, long lines), windows, limits and
 * read sizes, and check the word-at-a-time scans of {@link Bytes} against a plain loop.
 */
class LineWindowProperties {

    @Property(tries = 3000, seed = "20261201", edgeCases = EdgeCasesMode.NONE)
    void aWindowIsWhatTheByteAtATimeDefinitionGives(@ForAll("files") byte[] file,
                                                     @ForAll @IntRange(min = 1, max = 40) int offset,
                                                     @ForAll @IntRange(min = 1, max = 40) int limit,
                                                     @ForAll @IntRange(min = 1, max = 300) int maxBytes,
                                                     @ForAll @IntRange(min = 0, max = 12000) int maxScan,
                                                     @ForAll @IntRange(min = 1, max = 9000) int readSize,
                                                     @ForAll @IntRange(min = -2, max = 2) int sizeHintError)
            throws IOException {
        // the size seen at open may be stale: the file may have grown or shrunk since
        long sizeHint = Math.max(0, file.length + sizeHintError * 7L);
        LineWindow fast = LineWindow.read(new Trickle(file, readSize), sizeHint, offset, limit, maxBytes, maxScan);
        Reference slow = Reference.read(new Trickle(file, readSize), offset, limit, maxBytes, maxScan);
        assertThat(fast.bytes()).as("window").isEqualTo(slow.bytes);
        assertThat(List.of(fast.firstLine, fast.lastLine(), fast.totalLines(), fast.totalKnown, fast.cutInsideLine,
                fast.binary(), fast.fileBytes)).isEqualTo(List.of(slow.firstLine, slow.lastLine, slow.totalLines,
                slow.totalKnown, slow.cutInsideLine, slow.binary, slow.fileBytes));
    }

    @Property(tries = 1500, seed = "20261202", edgeCases = EdgeCasesMode.NONE)
    void aWholeSmallFileFromLineOneIsWhatTheByteAtATimeDefinitionGives(
            @ForAll("files") byte[] file, @ForAll @IntRange(min = 1, max = 40) int limit,
            @ForAll @IntRange(min = 0, max = 9000) int extraBytes, @ForAll @IntRange(min = 0, max = 12000) int maxScan,
            @ForAll @IntRange(min = 1, max = 9000) int readSize, @ForAll @IntRange(min = -2, max = 2) int sizeHintError,
            @ForAll boolean unlimited) throws IOException {
        // read_file's common call: from line 1, a window as large as the file, read in one pass when the size
        // seen at open is right; a stale size, a line limit or a scan limit takes the line-by-line scan
        long sizeHint = Math.max(0, file.length + sizeHintError * 7L);
        int lines = unlimited ? Integer.MAX_VALUE : limit;
        int maxBytes = file.length + extraBytes;
        long scan = unlimited ? Long.MAX_VALUE : maxScan;
        LineWindow fast = LineWindow.read(new Trickle(file, readSize), sizeHint, 1, lines, maxBytes, scan);
        Reference slow = Reference.read(new Trickle(file, readSize), 1, lines, maxBytes, scan);
        assertThat(fast.bytes()).as("window").isEqualTo(slow.bytes);
        assertThat(List.of(fast.firstLine, fast.lastLine(), fast.totalLines(), fast.totalKnown, fast.cutInsideLine,
                fast.binary(), fast.fileBytes)).isEqualTo(List.of(slow.firstLine, slow.lastLine, slow.totalLines,
                slow.totalKnown, slow.cutInsideLine, slow.binary, slow.fileBytes));
    }

    @Property(tries = 1000, seed = "20261201")
    void theWordScansFindAndCountWhatAPlainLoopDoes(@ForAll("files") byte[] bytes, @ForAll byte value,
                                                    @ForAll @IntRange(min = 0, max = 64) int cut) {
        int from = Math.min(cut, bytes.length);
        int to = Math.max(from, bytes.length - cut / 2);
        int index = -1;
        int count = 0;
        for (int i = from; i < to; i++) {
            if (bytes[i] == value) {
                index = index < 0 ? i : index;
                count++;
            }
        }
        assertThat(Bytes.indexOf(bytes, value, from, to)).isEqualTo(index);
        assertThat(Bytes.count(bytes, value, from, to)).isEqualTo(count);
        boolean nul = false;
        for (int i = from; i < to; i++) {
            nul |= bytes[i] == 0;
        }
        assertThat(Bytes.containsNul(bytes, from, to)).isEqualTo(nul);
        if (value != 0) {
            assertThat(Bytes.countUnlessNul(bytes, value, from, to)).isEqualTo(nul ? -1 - count : count);
        }
    }

    @Example
    void aWholeTextFileIsOneWindowWithItsLineCount() throws IOException {
        byte[] file = "one\ntwo\nthree".getBytes();
        LineWindow window = LineWindow.read(new Trickle(file, 8192), file.length, 1, Integer.MAX_VALUE, 1000,
                10_000);
        assertThat(new String(window.bytes())).isEqualTo("one\ntwo\nthree");
        assertThat(window.totalLines()).isEqualTo(3);
        assertThat(window.lastLine()).isEqualTo(3);
        assertThat(window.totalKnown).isTrue();
        assertThat(window.binary()).isFalse();
    }

    @Provide
    Arbitrary<byte[]> files() {
        Arbitrary<Byte> common = Arbitraries.of((byte) 'a', (byte) 'b', (byte) '\n', (byte) '\r', (byte) 0,
                (byte) 0xC3, (byte) 0xA9, (byte) 0xFF, (byte) 0x0A0A);
        Arbitrary<byte[]> lines = common.array(byte[].class).ofMaxSize(400);
        Arbitrary<byte[]> longLine = Arbitraries.integers().between(0, 9000).map(n -> {
            byte[] bytes = new byte[n];
            Arrays.fill(bytes, (byte) 'x');
            if (n > 8200) {
                bytes[8200] = 0;
            }
            return bytes;
        });
        return Arbitraries.oneOf(lines, longLine, lines.list().ofMaxSize(40).map(LineWindowProperties::join));
    }

    private static byte[] join(List<byte[]> parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
            out.write('\n');
        }
        return out.toByteArray();
    }

    /** A stream that returns at most {@code step} bytes per read, as a pipe or a slow file system might. */
    private static final class Trickle extends InputStream {
        private final byte[] bytes;
        private final int step;
        private int position;

        Trickle(byte[] bytes, int step) {
            this.bytes = bytes;
            this.step = step;
        }

        @Override
        public int read() {
            return position < bytes.length ? bytes[position++] & 0xFF : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (position >= bytes.length) {
                return -1;
            }
            int n = Math.min(Math.min(len, step), bytes.length - position);
            System.arraycopy(bytes, position, b, off, n);
            position += n;
            return n;
        }
    }

    /** The definition: every byte handled on its own. */
    private static final class Reference {
        private static final int SNIFF_BYTES = 8192;
        byte[] bytes;
        int firstLine;
        int lastLine;
        long totalLines;
        boolean totalKnown;
        boolean cutInsideLine;
        boolean binary;
        long fileBytes;

        static Reference read(InputStream in, int offset, int limit, int maxBytes, long maxScan) throws IOException {
            ByteArrayOutputStream window = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            long line = 1;
            long read = 0;
            int lastComplete = 0;
            long lastCompleteLine = offset - 1L;
            boolean capturing = offset == 1;
            boolean done = false;
            boolean cutInside = false;
            boolean binary = false;
            boolean endedWithNewline = true;
            boolean eof = false;
            long windowLines = 0;
            while (read < maxScan) {
                int n = in.read(buffer, 0, (int) Math.min(buffer.length, maxScan - read));
                if (n < 0) {
                    eof = true;
                    break;
                }
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    long position = read + i;
                    if (b == 0 && (position < SNIFF_BYTES || capturing && !done)) {
                        binary = true;
                    }
                    if (capturing && !done) {
                        if (window.size() == maxBytes) {
                            done = true;
                            if (lastComplete == 0) {
                                cutInside = true;
                                lastComplete = window.size();
                                lastCompleteLine = line;
                            }
                        } else {
                            window.write(b);
                        }
                    }
                    endedWithNewline = b == '\n';
                    if (b == '\n') {
                        if (capturing && !done) {
                            lastComplete = window.size();
                            lastCompleteLine = line;
                            windowLines++;
                            if (windowLines == limit) {
                                done = true;
                            }
                        }
                        line++;
                        if (line == offset) {
                            capturing = true;
                        }
                    }
                }
                read += n;
            }
            long totalLines = endedWithNewline ? line - 1 : line;
            if (read == 0) {
                totalLines = 0;
            }
            if (capturing && !done) {
                lastComplete = window.size();
                lastCompleteLine = totalLines;
            }
            Reference r = new Reference();
            r.bytes = Arrays.copyOf(window.toByteArray(), lastComplete);
            r.firstLine = offset;
            r.lastLine = (int) Math.min(Integer.MAX_VALUE, lastCompleteLine);
            r.totalLines = totalLines;
            r.totalKnown = eof;
            r.cutInsideLine = cutInside;
            r.binary = binary;
            r.fileBytes = read;
            return r;
        }
    }
}
