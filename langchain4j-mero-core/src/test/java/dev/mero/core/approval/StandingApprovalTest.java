package dev.mero.core.approval;

import dev.mero.core.Permission;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StandingApprovalTest {

    private static final Instant START = Instant.parse("2026-12-02T00:00:00Z");

    private final AtomicReference<Instant> now = new AtomicReference<>(START);
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    private final AtomicInteger asked = new AtomicInteger();
    private final ApprovalBackend human = request -> {
        asked.incrementAndGet();
        return ApprovalDecision.DENIED;
    };
    private final RecordingAudit audit = new RecordingAudit();
    private final StandingApproval standing = StandingApproval.builder().delegate(human).auditLog(audit.log)
            .clock(clock).build();

    private static ApprovalRequest write(String context, String subject, Permission... permissions) {
        return ApprovalRequest.builder().contextName(context).permissions(permissions).subject(subject).build();
    }

    private ApprovalDecision decide(ApprovalRequest request) throws Exception {
        return standing.decide(request);
    }

    @Test
    void aRuleApprovesTheCallersWritesBelowItsDirectoryWithoutAsking() throws Exception {
        standing.grant("writer", Set.of(Permission.WRITE), "/ws/docs/**", Duration.ofMinutes(30), "alice");

        assertThat(decide(write("writer", "/ws/docs/a.md", Permission.WRITE))).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(decide(write("writer", "/ws/docs/deep/er/b.md", Permission.WRITE)))
                .isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked).hasValue(0);
    }

    @Test
    void anythingTheRuleDoesNotCoverGoesToTheHuman() throws Exception {
        standing.grant("writer", Set.of(Permission.WRITE), "/ws/docs/**", Duration.ofMinutes(30), "alice");

        List<ApprovalRequest> uncovered = List.of(
                write("reader", "/ws/docs/a.md", Permission.WRITE),              // another caller
                write("writer", "/ws/docs/a.md", Permission.DELETE),             // another permission
                write("writer", "/ws/docs/a.md", Permission.WRITE, Permission.DELETE), // one more permission
                write("writer", "/ws/docs", Permission.WRITE),                   // the directory itself
                write("writer", "/ws/docsx/a.md", Permission.WRITE),             // a sibling sharing the prefix
                write("writer", "/ws/src/a.java", Permission.WRITE),             // elsewhere
                write("writer", "/ws/docs/../secrets.txt", Permission.WRITE),    // climbing out
                write("writer", "/ws/docs/./a.md", Permission.WRITE),            // not normalised
                write("writer", "/ws/docs//a.md", Permission.WRITE),             // not normalised
                write("writer", "/ws/docs/a\u0000.md", Permission.WRITE),        // control character
                write("writer", "ws/docs/a.md", Permission.WRITE),               // relative
                ApprovalRequest.builder().contextName("writer").permissions(Permission.WRITE)
                        .argv(List.of("/ws/docs/x")).build(),                     // a command
                ApprovalRequest.builder().contextName("writer").permissions(Permission.WRITE)
                        .action("WRITE: something").build());                    // no subject at all
        for (ApprovalRequest request : uncovered) {
            assertThat(decide(request)).as(request.action()).isEqualTo(ApprovalDecision.DENIED);
        }
        assertThat(asked).hasValue(uncovered.size());
    }

    @Test
    void anExactPathCoversThatPathOnly() throws Exception {
        standing.grant("writer", Set.of(Permission.WRITE, Permission.DELETE), "/ws/docs/a.md", Duration.ofMinutes(5),
                "alice");

        assertThat(decide(write("writer", "/ws/docs/a.md", Permission.WRITE, Permission.DELETE)))
                .isEqualTo(ApprovalDecision.APPROVED);
        assertThat(decide(write("writer", "/ws/docs/a.md/b", Permission.WRITE))).isEqualTo(ApprovalDecision.DENIED);
        assertThat(decide(write("writer", "/ws/docs/a.mdx", Permission.WRITE))).isEqualTo(ApprovalDecision.DENIED);
    }

    @Test
    void aRuleStopsApprovingAtItsExpiry() throws Exception {
        StandingApproval.Rule rule = standing.grant("writer", Set.of(Permission.WRITE), "/ws/docs/**",
                Duration.ofMinutes(30), "alice");
        assertThat(rule.expiresAt()).isEqualTo(START.plus(Duration.ofMinutes(30)));

        now.set(START.plus(Duration.ofMinutes(30)).minusNanos(1));
        assertThat(decide(write("writer", "/ws/docs/a.md", Permission.WRITE))).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(standing.rules()).containsExactly(rule);

        now.set(START.plus(Duration.ofMinutes(30)));
        assertThat(decide(write("writer", "/ws/docs/a.md", Permission.WRITE))).isEqualTo(ApprovalDecision.DENIED);
        assertThat(standing.rules()).isEmpty();
        assertThat(standing.covering(write("writer", "/ws/docs/a.md", Permission.WRITE))).isEmpty();
        assertThat(standing.revoke(rule.id(), "bob")).as("an expired rule cannot be revoked").isFalse();
    }

    @Test
    void aRuleIsNotActiveBeforeItWasGranted() {
        StandingApproval.Rule rule = new StandingApproval.Rule("r", "writer", Set.of(Permission.WRITE), "/ws/**",
                "alice", START, START.plusSeconds(60));

        assertThat(rule.activeAt(START.minusNanos(1))).isFalse();
        assertThat(rule.activeAt(START)).isTrue();
        assertThat(rule.activeAt(START.plusSeconds(60))).isFalse();
    }

    @Test
    void grantingAndRevokingAreAudited() throws Exception {
        StandingApproval.Rule rule = standing.grant("writer", Set.of(Permission.WRITE), "/ws/docs/**",
                Duration.ofMinutes(30), "alice");

        AuditEvent granted = audit.events.get(0);
        assertThat(granted.type()).isEqualTo(AuditEventType.RULE_GRANTED);
        assertThat(granted.contextName()).contains("writer");
        assertThat(granted.action()).contains("WRITE: /ws/docs/**");
        assertThat(granted.subject()).contains("/ws/docs/**");
        assertThat(granted.permissions()).containsExactly(Permission.WRITE);
        assertThat(granted.requestId()).contains(rule.id());
        assertThat(granted.detail().orElseThrow()).contains("'alice'").contains(rule.expiresAt().toString());

        assertThat(standing.revoke(rule.id(), "bob")).isTrue();
        assertThat(standing.revoke(rule.id(), "bob")).as("only once").isFalse();
        assertThat(audit.types()).containsExactly(AuditEventType.RULE_GRANTED, AuditEventType.RULE_REVOKED);
        assertThat(audit.events.get(1).detail().orElseThrow()).contains("revoked by 'bob'");
        assertThat(decide(write("writer", "/ws/docs/a.md", Permission.WRITE))).isEqualTo(ApprovalDecision.DENIED);
        assertThat(standing.rules()).isEmpty();
    }

    @Test
    void rulesAreListedSoonestToExpireFirst() {
        for (int minutes : new int[] {30, 5, 60, 1, 45, 10}) {
            standing.grant("c" + minutes, Set.of(Permission.WRITE), "/ws/a/**", Duration.ofMinutes(minutes), "alice");
        }
        StandingApproval.Rule sooner = standing.grant("b", Set.of(Permission.READ), "/ws/b/**", Duration.ofMinutes(2),
                "alice");

        assertThat(standing.rules()).extracting(StandingApproval.Rule::contextName)
                .containsExactly("c1", "b", "c5", "c10", "c30", "c45", "c60");
        assertThat(sooner.action()).isEqualTo("READ: /ws/b/**");
    }

    @Test
    void theShortestPathsAndNamesWithSpacesAreCovered() throws Exception {
        assertThat(StandingApproval.requirePattern("/a")).isEqualTo("/a");
        assertThat(StandingApproval.requirePattern("/ws/**")).isEqualTo("/ws/**");
        StandingApproval one = StandingApproval.builder().delegate(human).auditLog(audit.log).maxRules(1).build();
        one.grant("writer", Set.of(Permission.WRITE), "/a", Duration.ofMinutes(1), "alice");
        standing.grant("writer", Set.of(Permission.WRITE), "/ws/docs/**", Duration.ofMinutes(1), "alice");

        assertThat(one.decide(write("writer", "/a", Permission.WRITE))).isEqualTo(ApprovalDecision.APPROVED);
        assertThat(decide(write("writer", "/ws/docs/my notes.md", Permission.WRITE)))
                .isEqualTo(ApprovalDecision.APPROVED);
        assertThat(asked).hasValue(0);
    }

    @Test
    void malformedGrantsAreRefused() {
        Set<Permission> write = Set.of(Permission.WRITE);
        Duration minutes = Duration.ofMinutes(30);
        assertThatThrownBy(() -> standing.grant(" ", write, "/ws/**", minutes, "alice"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("context name");
        assertThatThrownBy(() -> standing.grant("w", Set.of(), "/ws/**", minutes, "alice"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("path permissions");
        assertThatThrownBy(() -> standing.grant("w", Set.of(Permission.EXECUTE), "/ws/**", minutes, "alice"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("path permissions");
        for (String pattern : new String[] {"/ws/*", "/ws/**/x", "ws/docs/**", "/", "/**", "/ws/../x/**", "/ws/",
                "/ws//x", "/ws/a\nb", null}) {
            assertThatThrownBy(() -> standing.grant("w", write, pattern, minutes, "alice")).as(pattern)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pattern");
        }
        assertThatThrownBy(() -> standing.grant("w", write, "/ws/**", Duration.ZERO, "alice"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("duration");
        assertThatThrownBy(() -> standing.grant("w", write, "/ws/**", Duration.ofHours(24).plusNanos(1), "alice"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most");
        assertThatThrownBy(() -> standing.grant("w", write, "/ws/**", minutes, " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("granted");
        assertThat(standing.grant("w", write, "/ws/**", Duration.ofHours(24), "alice").pattern()).isEqualTo("/ws/**");
        assertThat(audit.events).hasSize(1);
    }

    @Test
    void atMostMaxRulesAreActiveAndExpiredOnesMakeRoom() {
        StandingApproval small = StandingApproval.builder().delegate(human).auditLog(audit.log).clock(clock)
                .maxRules(2).build();
        small.grant("a", Set.of(Permission.WRITE), "/ws/a/**", Duration.ofMinutes(1), "alice");
        small.grant("b", Set.of(Permission.WRITE), "/ws/b/**", Duration.ofMinutes(10), "alice");

        assertThatThrownBy(() -> small.grant("c", Set.of(Permission.WRITE), "/ws/c/**", Duration.ofMinutes(10), "alice"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already 2 active");

        now.set(START.plus(Duration.ofMinutes(1)));
        small.grant("c", Set.of(Permission.WRITE), "/ws/c/**", Duration.ofMinutes(10), "alice");
        assertThat(small.rules()).extracting(StandingApproval.Rule::contextName).containsExactly("b", "c");
        assertThatThrownBy(() -> StandingApproval.builder().maxRules(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StandingApproval.builder().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delegate");
    }

    @Test
    void throughTheGateACoveredRequestIsGrantedAndAnUncoveredOneAsked() {
        ApprovalGate gate = ApprovalGate.builder().backend(standing).auditLog(audit.log).build();
        standing.grant("writer", Set.of(Permission.WRITE), "/ws/docs/**", Duration.ofMinutes(30), "alice");

        gate.approve(write("writer", "/ws/docs/a.md", Permission.WRITE));
        assertThatThrownBy(() -> gate.approve(write("writer", "/ws/src/a.java", Permission.WRITE)))
                .hasMessageContaining("was not approved");
        assertThat(asked).hasValue(1);
        assertThat(StandingApproval.wrap(human).toString()).contains("rules=0");
    }
}
