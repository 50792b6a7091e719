package dev.mero.core.path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A content digest is exactly 64 lower-case hex digits: every neighbour of the hex ranges is refused. */
class ContentDigestTest {

    private static final String VALID = "0123456789abcdef".repeat(4);

    @Test
    void aDigestIsSixtyFourLowerCaseHexDigits() {
        assertThat(ContentDigest.isDigest(VALID)).isTrue();
        assertThat(ContentDigest.isDigest(ContentDigest.of("content"))).isTrue();
        assertThat(ContentDigest.isDigest(null)).isFalse();
        assertThat(ContentDigest.isDigest(VALID.substring(1))).isFalse();
        assertThat(ContentDigest.isDigest(VALID + "0")).isFalse();
        for (char outside : new char[] {'/', ':', '`', 'g', 'A', 'F', ' '}) {
            assertThat(ContentDigest.isDigest(VALID.substring(1) + outside)).as("%s", outside).isFalse();
        }
    }

    @Test
    void anOptionalDigestIsCheckedOnlyWhenGiven() {
        assertThat(ContentDigest.requireDigestOrNull(null)).isNull();
        assertThat(ContentDigest.requireDigestOrNull(VALID)).isEqualTo(VALID);
        assertThatThrownBy(() -> ContentDigest.requireDigestOrNull(VALID.toUpperCase()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
