package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which names the confined layers pass to the kernel, and as which bytes ({@link KernelName}). */
class KernelNameTest {

    @Test
    void plainAsciiPassesByteForByteInTheEncodingsWhereThatIsItsEncoding() {
        assertThat(KernelName.isByteForByte("src/a-b_c.~txt", StandardCharsets.UTF_8)).isTrue();
        assertThat(KernelName.isByteForByte("src/a.txt", StandardCharsets.ISO_8859_1)).isTrue();
        assertThat(KernelName.isByteForByte("src/a.txt", StandardCharsets.UTF_16)).isFalse();
        assertThat(KernelName.isByteForByte("a\0b", StandardCharsets.UTF_8)).isFalse();
        assertThat(KernelName.isByteForByte("caf\u00e9", StandardCharsets.UTF_8)).isFalse();
        assertThat(KernelName.isByteForByte("\u007f", StandardCharsets.UTF_8)).isTrue();
        assertThat(KernelName.encode("src/a.txt", StandardCharsets.UTF_8))
                .isEqualTo("src/a.txt".getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void aNameIsEncodedOnlyWhereItDecodesBackToItself() {
        assertThat(KernelName.encode("caf\u00e9", StandardCharsets.UTF_8))
                .isEqualTo(new byte[] {'c', 'a', 'f', (byte) 0xc3, (byte) 0xa9});
        assertThat(KernelName.encode("caf\u00e9", StandardCharsets.ISO_8859_1))
                .isEqualTo(new byte[] {'c', 'a', 'f', (byte) 0xe9});
        assertThat(KernelName.encode("caf\u00e9", StandardCharsets.US_ASCII)).isNull();
        assertThat(KernelName.encode("lone \ud800 surrogate", StandardCharsets.UTF_8)).isNull();
        assertThat(KernelName.encode("replaced \ufffd", StandardCharsets.UTF_8)).isNull();
        assertThat(KernelName.encode("\u65e5\0x", StandardCharsets.UTF_8)).isNull();
        assertThat(KernelName.encode("a\0b", StandardCharsets.UTF_8)).isNull();
    }
}
