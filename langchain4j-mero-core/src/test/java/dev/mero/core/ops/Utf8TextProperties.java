package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link Utf8Text#decode} takes a one-pass path for valid UTF-8; these properties hold its text and its count
 * of replaced sequences equal to a decoder that reports and counts every invalid sequence, on random bytes
 * (valid and cut multi-byte characters, stray continuation bytes, byte-order marks, U+FFFD itself).
 */
class Utf8TextProperties {

    @Property(tries = 3000, seed = "20261201")
    void decodingEqualsTheCountingDecoder(@ForAll("text") byte[] bytes, @ForAll boolean complete) {
        Utf8Text decoded = Utf8Text.decode(bytes, bytes.length, complete);
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length + 1);
        int replaced = 0;
        CoderResult result = decoder.decode(in, out, complete);
        while (result.isError()) {
            out.put('\uFFFD');
            in.position(in.position() + result.length());
            replaced++;
            result = decoder.decode(in, out, complete);
        }
        if (complete) {
            decoder.flush(out);
        }
        String expected = out.flip().toString();
        if (expected.startsWith("\uFEFF")) {
            expected = expected.substring(1);
        }
        assertThat(decoded.text()).isEqualTo(expected);
        assertThat(decoded.replaced()).isEqualTo(replaced);
    }

    @Example
    void aLatinOneByteIsReplacedAndCountedAndAByteOrderMarkDropped() {
        byte[] bytes = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, 'c', 'a', 'f', (byte) 0xE9, '\n'};
        Utf8Text decoded = Utf8Text.decode(bytes, bytes.length, true);
        assertThat(decoded.text()).isEqualTo("caf\uFFFD\n");
        assertThat(decoded.replaced()).isEqualTo(1);
    }

    @Provide
    Arbitrary<byte[]> text() {
        return Arbitraries.of((byte) 'a', (byte) '\n', (byte) 0xC3, (byte) 0xA9, (byte) 0xE2, (byte) 0x82,
                (byte) 0xAC, (byte) 0xEF, (byte) 0xBB, (byte) 0xBF, (byte) 0xBD, (byte) 0xF0, (byte) 0x9F,
                (byte) 0x98, (byte) 0x80, (byte) 0xFF, (byte) 0xC0).array(byte[].class).ofMaxSize(40);
    }
}
