package dev.mero.core.command;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundedOutputTest {

    @Test
    void keeps_everything_under_the_limit() {
        BoundedOutput output = write(10, "héllo");

        assertThat(output.text()).isEqualTo("héllo");
        assertThat(output.truncated()).isFalse();
        assertThat(output.totalBytes()).isEqualTo(6);
    }

    @Test
    void keeps_exactly_the_limit_without_a_marker() {
        BoundedOutput output = write(5, "abcde");

        assertThat(output.text()).isEqualTo("abcde");
        assertThat(output.truncated()).isFalse();
    }

    @Test
    void counts_what_it_discards_and_says_so() {
        BoundedOutput output = new BoundedOutput(4);
        byte[] chunk = "0123456789".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 1000; i++) {
            output.write(chunk, 0, chunk.length);
        }

        assertThat(output.totalBytes()).isEqualTo(10_000);
        assertThat(output.truncated()).isTrue();
        assertThat(output.text()).isEqualTo("0123\n[... output truncated: 9996 more bytes not shown ...]");
    }

    @Test
    void backs_off_to_a_character_boundary() {
        // "aé€😀" = 1 + 2 + 3 + 4 bytes
        String text = "aé€😀";
        assertThat(write(2, text).text()).isEqualTo("a\n[... output truncated: 9 more bytes not shown ...]");
        assertThat(write(3, text).text()).isEqualTo("aé\n[... output truncated: 7 more bytes not shown ...]");
        assertThat(write(5, text).text()).isEqualTo("aé\n[... output truncated: 7 more bytes not shown ...]");
        assertThat(write(6, text).text()).isEqualTo("aé€\n[... output truncated: 4 more bytes not shown ...]");
        assertThat(write(9, text).text()).isEqualTo("aé€\n[... output truncated: 4 more bytes not shown ...]");
    }

    @Test
    void keeps_malformed_bytes_at_the_cap_as_replacement_characters() {
        BoundedOutput output = new BoundedOutput(3);
        byte[] bytes = {'a', (byte) 0x80, (byte) 0x80, 'b', 'c'};
        output.write(bytes, 0, bytes.length);

        assertThat(output.text()).isEqualTo("a\uFFFD\uFFFD\n[... output truncated: 2 more bytes not shown ...]");
    }

    @Test
    void says_byte_in_the_singular() {
        assertThat(BoundedOutput.truncationMarker(1)).isEqualTo("\n[... output truncated: 1 more byte not shown ...]");
    }

    @Test
    void rejects_a_limit_that_is_not_positive() {
        assertThatThrownBy(() -> new BoundedOutput(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Output limit 0 must be positive");
    }

    @Property(seed = "20261201")
    void shows_a_prefix_of_the_text_that_never_splits_a_character(
            @ForAll @StringLength(max = 60) String text,
            @ForAll @IntRange(min = 1, max = 80) int limit,
            @ForAll @IntRange(min = 1, max = 7) int chunk) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        String decoded = new String(bytes, StandardCharsets.UTF_8);
        BoundedOutput output = new BoundedOutput(limit);
        for (int offset = 0; offset < bytes.length; offset += chunk) {
            output.write(bytes, offset, Math.min(chunk, bytes.length - offset));
        }

        assertThat(output.totalBytes()).isEqualTo(bytes.length);
        assertThat(output.truncated()).isEqualTo(bytes.length > limit);
        String shown = output.text();
        if (output.truncated()) {
            int marker = shown.lastIndexOf("\n[... output truncated: ");
            shown = shown.substring(0, marker);
            int shownBytes = shown.getBytes(StandardCharsets.UTF_8).length;
            assertThat(shownBytes).isBetween(limit - 3, limit);
            assertThat(output.text()).endsWith(BoundedOutput.truncationMarker(bytes.length - shownBytes));
        }
        assertThat(decoded).startsWith(shown);
    }

    private static BoundedOutput write(int limit, String text) {
        BoundedOutput output = new BoundedOutput(limit);
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        output.write(bytes, 0, bytes.length);
        return output;
    }
}
