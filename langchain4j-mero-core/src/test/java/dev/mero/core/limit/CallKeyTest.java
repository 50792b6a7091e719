package dev.mero.core.limit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CallKeyTest {

    @Test
    void sameOperationAndArgumentsGiveTheSameKey() {
        CallKey key = CallKey.of("read_file", "{\"path\":\"a\"}");

        assertThat(CallKey.of("read_file", "{\"path\":\"a\"}")).isEqualTo(key).hasSameHashCodeAs(key);
        assertThat(CallKey.of("read_file", "{\"path\":\"b\"}")).isNotEqualTo(key);
        assertThat(CallKey.of("write_file", "{\"path\":\"a\"}")).isNotEqualTo(key);
        assertThat(key.operation()).isEqualTo("read_file");
        assertThat(key.digest()).hasSize(64).matches("[0-9a-f]{64}");
    }

    @Test
    void theOperationAndArgumentsCannotBeShiftedIntoEachOther() {
        assertThat(CallKey.of("ab", "c")).isNotEqualTo(CallKey.of("a", "bc"));
    }

    @Test
    void jsonArgumentsAreCanonicalised() {
        CallKey key = CallKey.ofJson("write_file", "{\"path\":\"a\",\"options\":{\"y\":1,\"x\":[2,1]}}");

        assertThat(CallKey.ofJson("write_file", " { \"options\" : {\"x\":[2, 1], \"y\":1},\n\"path\":\"a\" } "))
                .isEqualTo(key);
        assertThat(CallKey.ofJson("write_file", "{\"path\":\"a\",\"options\":{\"y\":1,\"x\":[1,2]}}"))
                .as("array order is meaningful").isNotEqualTo(key);
        assertThat(CallKey.ofJson("write_file", "{\"path\":\"a\",\"options\":{\"y\":1,\"x\":[2,1]}} trailing"))
                .as("text after the JSON is not ignored").isNotEqualTo(key);
    }

    @Test
    void textThatIsNotJsonIsUsedAsItIs() {
        assertThat(CallKey.ofJson("run", "ls -la")).isEqualTo(CallKey.of("run", "ls -la"));
        assertThat(CallKey.ofJson("run", "ls -la")).isNotEqualTo(CallKey.of("run", "ls  -la"));
    }

    @Test
    void keepsOnlyADigestOfLargeArguments() {
        CallKey key = CallKey.of("write_file", "x".repeat(1_000_000));

        assertThat(key.toString()).startsWith("CallKey{operation='write_file', digest=").hasSizeLessThan(80);
    }

    @Test
    void rejectsABadOperationName() {
        assertThatThrownBy(() -> CallKey.of(" ", "{}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid operation name ' ': give a non-blank name of at most 200 characters without "
                        + "control characters");
        assertThatThrownBy(() -> CallKey.of("read\nfile", "{}"))
                .hasMessage("Invalid operation name 'read\\nfile': give a non-blank name of at most 200 characters "
                        + "without control characters");
        assertThatThrownBy(() -> CallKey.of("r".repeat(201), "{}"))
                .hasMessage("Invalid operation name of 201 characters: give a non-blank name of at most 200 "
                        + "characters without control characters");
        assertThatThrownBy(() -> CallKey.of("read", null)).isInstanceOf(NullPointerException.class);
    }
}
