package dev.mero.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

class TranscriptTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final Transcript transcript = new Transcript(new PrintStream(out, true, UTF_8));

    @Test
    void controlCharactersAreShownNotSent() {
        transcript.toolCall(null, "read_file", "{\"path\":\"/ws/\u001b[31mred\"}");
        transcript.toolResult("line\u001b[2J\nbell\u0007 \u202eevil\ttab", false);

        assertThat(out.toString(UTF_8)).doesNotContain("\u001b").doesNotContain("\u0007").doesNotContain("\u202e")
                .contains("/ws/\\u001b[31mred").contains("line\\u001b[2J\n").contains("bell\\u0007 \\u202eevil\ttab");
    }

    @Test
    void auditEventsFollowTheCallThatCausedThem() throws Exception {
        transcript.toolCall("worker", "write_file", "{}");
        transcript.auditSink().write(AuditEvent.builder().type(AuditEventType.DENIED).contextName("c")
                .action("WRITE: /docs/a.md").errorCode("permission_denied").build());
        transcript.toolResult("Denied: no", true);
        transcript.toolCall(null, "list_roots", "{}");
        transcript.toolResult("/ws", false);

        assertThat(out.toString(UTF_8)).isEqualTo("[worker] Tool call  write_file {}\n"
                + "  failed   Denied: no\n"
                + "  audit    DENIED 'WRITE: /docs/a.md' (permission_denied)\n\n"
                + "Tool call  list_roots {}\n"
                + "  result   /ws\n\n");
    }

    @Test
    void examplesAreFoundByName() {
        assertThat(Example.named(" Spring ")).contains(Example.SPRING);
        assertThat(Example.named("nope")).isEmpty();
        assertThat(Example.named(Examples.DEFAULT_EXAMPLE)).contains(Example.WORKSPACE);
    }
}
