package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.InvalidInputException;
import dev.mero.core.Permission;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RateLimit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Keys that PostgreSQL cannot keep exactly are refused before any SQL, so two of them never share a row,
 * and keys of any length work: a 3,000-character context name or call id (random, so that compression
 * cannot shrink it under the 2,704-byte btree limit) is limited, counted, replayed and audited like a short one.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class KeysRoundTripTest {

    private HikariDataSource pool;
    private PostgresPolicyStore store;

    @BeforeEach
    void start() {
        pool = PostgresServer.pool(PostgresServer.shared().createDatabase(), 4);
        store = PostgresPolicyStore.builder().dataSource(pool).migrate(true).build();
    }

    @AfterEach
    void stop() {
        store.close();
        pool.close();
    }

    @Test
    void unpairedSurrogatesAndNulAreRefusedAsInvalidInputAndNothingIsWritten() throws Exception {
        for (String scope : List.of("tenant-\uD800", "tenant-\uDC00", "tenant-\u0000")) {
            assertThatThrownBy(() -> store.replays().claim(scope, "call-1", Duration.ofSeconds(1)))
                    .isInstanceOf(InvalidInputException.class)
                    .satisfies(e -> assertThat(((InvalidInputException) e).toModelText())
                            .startsWith("Error: Invalid input: "));
        }
        assertThatThrownBy(() -> store.replays().claim("scope", "call\u0000id", Duration.ofSeconds(1)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("NUL")
                .hasMessageContaining("'call\\x00id'"); // quoted and escaped, never the raw character
        assertThatThrownBy(() -> store.retryBudgets().recordFailure("tenant-\uD800", CallKey.of("op", "{}"),
                Duration.ofMinutes(1), 3)).isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> store.rateLimits().tryTake("tenant-\uDC00", RateLimit.perMinute(1)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("surrogate");
        ApprovalRequest preview = ApprovalRequest.builder().contextName("tenant").permissions(Permission.WRITE)
                .subject("/ws/a").details("line\u0000").build();
        assertThatThrownBy(() -> store.approvals(Duration.ofSeconds(1)).decide(preview))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("preview");
        ApprovalRequest id = ApprovalRequest.builder().id("id-\uD800").contextName("tenant")
                .permissions(Permission.WRITE).subject("/ws/a").build();
        assertThatThrownBy(() -> store.approvals(Duration.ofSeconds(1)).decide(id))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> store.approvals(Duration.ofSeconds(1)).complete("id-\uDC00",
                dev.mero.core.approval.ApprovalDecision.APPROVED)).isInstanceOf(InvalidInputException.class);

        assertThat(count("mero_replay") + count("mero_retry_budget") + count("mero_rate_limit")
                + count("mero_approval")).as("rows written").isZero();
        // a valid pair is fine and stays itself
        assertThat(store.replays().claim("tenant-\uD83D\uDE00", "call-1", Duration.ofSeconds(1)).isOwner()).isTrue();
        assertThat(store.replays().claim("tenant-\uD83D\uDE01", "call-1", Duration.ofSeconds(1)).isOwner()).isTrue();
    }

    @Test
    void threeThousandCharacterNamesAndIdsWorkAndStayDistinct() throws Exception {
        String name = random(3_000, 1);
        String other = name.substring(0, name.length() - 1) + (name.endsWith("x") ? "y" : "x");

        RateLimit onePerHour = RateLimit.perHour(1);
        assertThat(store.rateLimits().tryTake(name, onePerHour)).isZero();
        assertThat(store.rateLimits().tryTake(name, onePerHour)).isPositive();
        assertThat(store.rateLimits().tryTake(other, onePerHour)).as("another long name, its own bucket").isZero();

        CallKey key = CallKey.of("write_file", "{}");
        assertThat(store.retryBudgets().recordFailure(name, key, Duration.ofMinutes(5), 3)).isEqualTo(1);
        assertThat(store.retryBudgets().recordFailure(name, key, Duration.ofMinutes(5), 3)).isEqualTo(2);
        assertThat(store.retryBudgets().failures(other, key, Duration.ofMinutes(5))).isZero();

        String callId = random(3_000, 2);
        assertThat(store.replays().claim(name, callId, Duration.ofSeconds(5)).isOwner()).isTrue();
        store.replays().complete(name, callId, "done once");
        assertThat(store.replays().claim(name, callId, Duration.ofSeconds(5)).result()).contains("done once");
        // a short key spelled like a long key's stored digest is a different key
        String lookAlike = "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(callId.getBytes(StandardCharsets.UTF_8)));
        assertThat(store.replays().claim(name, lookAlike, Duration.ofSeconds(5)).isOwner()).isTrue();

        String requestId = random(3_000, 3);
        store.auditSink().write(AuditEvent.builder().type(AuditEventType.ALLOWED).timestamp(Instant.now())
                .contextName(name).requestId(requestId).action("READ: /ws/a").build());
        List<AuditEvent> rows = store.audit(AuditQuery.builder().contextName(name).build());
        assertThat(rows).singleElement().satisfies(event -> {
            assertThat(event.contextName()).contains(name);
            assertThat(event.requestId()).contains(requestId);
        });
        assertThat(store.audit(AuditQuery.builder().contextName(other).build())).isEmpty();
    }

    @Test
    void theGuardOfARecordedDecisionNamesTheRequestEscapedNeverRaw() throws Exception {
        String id = "req\nforged log line \u001b[31m";
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path = public"); // a writer's own connection
            try (java.sql.PreparedStatement insert = connection.prepareStatement("INSERT INTO mero_approval (id,"
                    + " context_name, action, permissions, requested_at, expires_at, decision) VALUES (?, 'tenant',"
                    + " 'WRITE: /ws/a', 'WRITE', now(), now() + interval '1 hour', 'DENIED')")) {
                insert.setString(1, id);
                insert.executeUpdate();
            }
            try (java.sql.PreparedStatement overturn = connection.prepareStatement(
                    "UPDATE mero_approval SET decision = 'APPROVED' WHERE id = ?")) {
                overturn.setString(1, id);
                assertThatThrownBy(overturn::executeUpdate).isInstanceOf(java.sql.SQLException.class)
                        .hasMessageContaining("already decided")
                        .hasMessageContaining("\"req\\nforged log line \\u001b[31m\"")
                        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("req\n").doesNotContain("\u001b"));
            }
        }
    }

    /** Random letters from a wide range: incompressible, several bytes each in UTF-8. */
    private static String random(int length, long seed) {
        Random random = new Random(seed);
        StringBuilder out = new StringBuilder(length);
        while (out.length() < length) {
            out.append((char) (0x4E00 + random.nextInt(0x5000)));
        }
        return out.toString();
    }

    private long count(String table) throws Exception {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT count(*) FROM " + table)) {
            row.next();
            return row.getLong(1);
        }
    }
}
