package dev.mero.core.audit;

import dev.mero.core.ApprovalDeniedException;
import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.InvalidInputException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.path.ContentDigest;
import dev.mero.core.message.Messages;
import dev.mero.core.Permission;
import dev.mero.core.command.CommandLineParser;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AuditEventTest {

    @Test
    void aDenialCarriesTheReasonAndCodeOfItsException() {
        PathAccessDeniedException denial = new PathAccessDeniedException("Path '/etc/passwd' is not covered.");
        Instant at = Instant.parse("2025-01-01T10:00:00Z");

        AuditEvent event = AuditEvent.builder().type(AuditEventType.of(denial)).timestamp(at)
                .contextName("worker_1").action("READ: /etc/passwd").subject("/etc/passwd")
                .permissions(List.of(Permission.READ)).failure(denial).build();

        assertThat(event.type()).isEqualTo(AuditEventType.DENIED);
        assertThat(event.outcome()).isEqualTo("denied");
        assertThat(event.timestamp()).isEqualTo(at);
        assertThat(event.contextName()).contains("worker_1");
        assertThat(event.action()).contains("READ: /etc/passwd");
        assertThat(event.subject()).contains("/etc/passwd");
        assertThat(event.permissions()).containsExactly(Permission.READ);
        assertThat(event.reason()).contains("Path '/etc/passwd' is not covered.");
        assertThat(event.errorCode()).contains(denial.errorCode());
        assertThat(event.requestId()).isEmpty();
    }

    @Test
    void onlyTheTypeIsRequired() {
        Instant before = Instant.now();
        AuditEvent event = AuditEvent.builder().type(AuditEventType.ALLOWED).build();

        assertThat(event.timestamp()).isBetween(before, Instant.now());
        assertThat(event.contextName()).isEmpty();
        assertThat(event.permissions()).isEmpty();
        assertThat(event).hasToString("ALLOWED");
        assertThatThrownBy(() -> AuditEvent.builder().build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("AuditEvent needs a type; call type(...) on the builder");
    }

    @Test
    void exceptionsMapToTypes() {
        assertThat(AuditEventType.of(new ApprovalTimeoutException("t"))).isEqualTo(AuditEventType.APPROVAL_TIMED_OUT);
        assertThat(AuditEventType.of(new ApprovalDeniedException("d"))).isEqualTo(AuditEventType.APPROVAL_REFUSED);
        assertThat(AuditEventType.of(new InvalidInputException("i"))).isEqualTo(AuditEventType.FAILED);
        assertThat(AuditEventType.of(new OperationFailedException("o"))).isEqualTo(AuditEventType.FAILED);
        assertThat(AuditEventType.of(new MeroToolsException("rate") {
            @Override
            public String errorCode() {
                return "rate_limited";
            }
        })).isEqualTo(AuditEventType.RATE_LIMITED);
    }

    @Test
    void everyTypeHasACoarseOutcome() {
        assertThat(EnumSet.allOf(AuditEventType.class)).extracting(AuditEventType::outcome)
                .containsOnly("allowed", "denied", "pending", "failed");
        assertThat(AuditEventType.APPROVAL_GRANTED.outcome()).isEqualTo("allowed");
        assertThat(AuditEventType.APPROVAL_REQUESTED.outcome()).isEqualTo("pending");
        assertThat(AuditEventType.RATE_LIMITED.outcome()).isEqualTo("denied");
    }

    @Test
    void toStringIsOneLineWithValuesEscaped() {
        AuditEvent event = AuditEvent.builder().type(AuditEventType.APPROVAL_REFUSED).contextName("worker_1")
                .action("WRITE: /ws/a\n.txt").permissions(List.of(Permission.DELETE, Permission.WRITE))
                .reason("not approved").errorCode("approval_denied").requestId("r-1").build();

        assertThat(event).hasToString("APPROVAL_REFUSED context='worker_1' action='WRITE: /ws/a\\n.txt' "
                + "permissions=['WRITE', 'DELETE'] error_code='approval_denied' reason='not approved' "
                + "request_id='r-1'");
    }

    @Test
    void longFieldsAreCutAndMarked() {
        AuditEvent event = AuditEvent.builder().type(AuditEventType.DENIED)
                .subject("s".repeat(AuditEvent.MAX_FIELD_LENGTH + 5)).build();

        assertThat(event.subject().orElseThrow()).isEqualTo("s".repeat(AuditEvent.MAX_FIELD_LENGTH)
                + "... (5 more characters; sha256 of the whole: "
                + ContentDigest.of("s".repeat(AuditEvent.MAX_FIELD_LENGTH + 5)) + ")");
    }

    @Test
    void theLongestCommandLineTheParserAcceptsIsKeptWholeEvenWhenEveryCharacterIsEscaped() {
        String line = "\u0001".repeat(CommandLineParser.MAX_LENGTH);
        String quoted = Messages.quote("\u0001".repeat(CommandLineParser.MAX_LENGTH));
        AuditEvent event = AuditEvent.builder().type(AuditEventType.DENIED)
                .action("EXECUTE: " + line).subject(line).reason("Command " + quoted + " is blocked.").build();

        assertThat(event.subject()).contains(line);
        assertThat(event.action()).contains("EXECUTE: " + line);
        assertThat(event.reason()).contains("Command " + quoted + " is blocked.");
    }

    @Test
    void targetsAndTheContentDigestAreKept() {
        String digest = ContentDigest.of("new text");
        AuditEvent event = AuditEvent.builder().type(AuditEventType.ALLOWED)
                .targets(List.of("link -> /srv/ws/real.txt")).contentDigest(digest).build();

        assertThat(event.targets()).containsExactly("link -> /srv/ws/real.txt");
        assertThat(event.contentDigest()).contains(digest);
        assertThat(event.toString()).contains("targets=['link -> /srv/ws/real.txt']", "content_sha256='" + digest);
    }

    @Test
    void permissionsAreACopy() {
        EnumSet<Permission> permissions = EnumSet.of(Permission.READ);
        AuditEvent event = AuditEvent.builder().type(AuditEventType.ALLOWED).permissions(permissions).build();
        permissions.add(Permission.WRITE);

        assertThat(event.permissions()).containsExactly(Permission.READ);
    }

    @Test
    void equalEventsAreEqual() {
        Instant at = Instant.now();
        AuditEvent one = AuditEvent.builder().type(AuditEventType.ALLOWED).timestamp(at).contextName("c").build();
        AuditEvent two = AuditEvent.builder().type(AuditEventType.ALLOWED).timestamp(at).contextName("c").build();

        assertThat(one).isEqualTo(two).hasSameHashCodeAs(two);
        assertThat(one).isNotEqualTo(AuditEvent.builder().type(AuditEventType.DENIED).timestamp(at)
                .contextName("c").build());
    }
}
