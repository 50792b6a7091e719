package dev.mero.core.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Targets and content digests reach the JSON line; fields are cut exactly above their bound. */
class AuditFieldsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void targetsAndTheContentDigestAreWrittenInOrder() throws Exception {
        String digest = "ab".repeat(32);
        AuditEvent event = AuditEvent.builder().type(AuditEventType.ALLOWED).subject("/ws/a.txt")
                .targets(List.of("/ws/a.txt -> /srv/ws/a.txt", "/ws/b -> /srv/ws/b")).contentDigest(digest).build();

        JsonNode line = JSON.readTree(new String(JsonLinesAuditSink.toJsonLine(event), StandardCharsets.UTF_8));

        assertThat(line.get("targets").toString())
                .isEqualTo("[\"/ws/a.txt -> /srv/ws/a.txt\",\"/ws/b -> /srv/ws/b\"]");
        assertThat(line.get("content_sha256").asText()).isEqualTo(digest);
        assertThat(event.targets()).containsExactly("/ws/a.txt -> /srv/ws/a.txt", "/ws/b -> /srv/ws/b");
    }

    @Test
    void aNullTargetIsRefused() {
        assertThatThrownBy(() -> AuditEvent.builder().targets(Arrays.asList("/ws/a", null)))
                .isInstanceOf(NullPointerException.class).hasMessage("target");
    }

    @Test
    void aFieldAtItsBoundIsKeptAndOneCharacterMoreIsCutWithItsDigest() {
        String atBound = "s".repeat(AuditEvent.MAX_FIELD_LENGTH);
        String above = atBound + "t";

        assertThat(AuditEvent.builder().type(AuditEventType.ALLOWED).subject(atBound).build().subject())
                .contains(atBound);
        String cut = AuditEvent.builder().type(AuditEventType.ALLOWED).subject(above).build().subject().orElseThrow();
        assertThat(cut).startsWith(atBound + "... (1 more characters; sha256 of the whole: ").endsWith(")");
    }

    @Test
    void equalEventsHaveEqualHashCodesAndDifferentOnesDiffer() {
        AuditEvent.Builder builder = AuditEvent.builder().type(AuditEventType.DENIED).subject("/ws/a")
                .timestamp(java.time.Instant.parse("2025-01-01T00:00:00Z"));
        AuditEvent one = builder.build();
        AuditEvent same = builder.build();
        AuditEvent other = builder.subject("/ws/b").build();

        assertThat(one).isEqualTo(same).hasSameHashCodeAs(same).isNotEqualTo(other);
        assertThat(one.hashCode()).isNotEqualTo(other.hashCode());
        assertThat(one.toString()).contains("/ws/a");
    }
}
