package dev.mero.postgres;

import dev.mero.core.Permission;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditSink;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Writes one row of {@code mero_audit} per audit event, in its own statement, and reads rows back by
 * context, time, outcome and request. An event carries no file contents, diffs or secrets, so neither does
 * the table. A failed write throws, which {@link dev.mero.core.audit.AuditLog} reports without changing the
 * decision. Thread-safe.
 */
final class PostgresAuditSink implements AuditSink {

    private final Sql sql;
    private final String instance;
    private final String auditTable;

    PostgresAuditSink(Sql sql, String instance) {
        this.sql = sql;
        this.auditTable = sql.qualified("mero_audit");
        this.instance = instance;
    }

    @Override
    public void write(AuditEvent event) {
        sql.call("audit", connection -> { // one round trip: the statement names nothing the path resolves
            try (PreparedStatement statement = sql.prepare(connection, "INSERT INTO " + auditTable + " (occurred_at,"
                    + " event_type, outcome, context_name, action, subject, permissions, reason, error_code,"
                    + " request_id, targets, content_sha256, instance, detail)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                statement.setTimestamp(1, Timestamp.from(event.timestamp().truncatedTo(ChronoUnit.MICROS)));
                statement.setString(2, event.type().name());
                statement.setString(3, event.outcome());
                statement.setString(4, Keys.storable(event.contextName().orElse(null)));
                statement.setString(5, Keys.storable(event.action().orElse(null)));
                statement.setString(6, Keys.storable(event.subject().orElse(null)));
                statement.setString(7, event.permissions().stream().map(Enum::name)
                        .collect(Collectors.joining(",")));
                statement.setString(8, Keys.storable(event.reason().orElse(null)));
                statement.setString(9, Keys.storable(event.errorCode().orElse(null)));
                statement.setString(10, Keys.storable(event.requestId().orElse(null)));
                statement.setArray(11, connection.createArrayOf("text",
                        event.targets().stream().map(Keys::storable).toArray()));
                statement.setString(12, Keys.storable(event.contentDigest().orElse(null)));
                statement.setString(13, instance);
                statement.setString(14, Keys.storable(event.detail().orElse(null)));
                return statement.executeUpdate();
            }
        });
    }

    List<AuditEvent> query(AuditQuery query) {
        StringBuilder where = new StringBuilder(" WHERE true");
        List<Object> values = new ArrayList<>();
        query.contextName().ifPresent(value -> add(where, values, " AND context_name = ?::text", value));
        query.outcome().ifPresent(value -> add(where, values, " AND outcome = ?::text", value));
        query.requestId().ifPresent(value -> add(where, values, " AND request_id = ?::text", value));
        query.from().ifPresent(value -> add(where, values, " AND occurred_at >= ?", Timestamp.from(value)));
        query.to().ifPresent(value -> add(where, values, " AND occurred_at < ?", Timestamp.from(value)));
        return sql.run("audit query", connection -> {
            try (PreparedStatement statement = sql.prepare(connection, "SELECT occurred_at, event_type,"
                    + " context_name, action, subject, permissions, reason, error_code, request_id, targets,"
                    + " content_sha256, detail FROM mero_audit"
                    + where + " ORDER BY occurred_at, id LIMIT " + query.limit())) {
                for (int i = 0; i < values.size(); i++) {
                    statement.setObject(i + 1, values.get(i));
                }
                List<AuditEvent> events = new ArrayList<>();
                try (ResultSet row = statement.executeQuery()) {
                    while (row.next()) {
                        events.add(event(row));
                    }
                }
                return List.copyOf(events);
            }
        });
    }

    @Override
    public String toString() {
        return "PostgresAuditSink{instance=" + instance + "}";
    }

    private static void add(StringBuilder where, List<Object> values, String condition, Object value) {
        where.append(condition);
        values.add(value);
    }

    private static AuditEvent event(ResultSet row) throws SQLException {
        EnumSet<Permission> permissions = EnumSet.noneOf(Permission.class);
        String names = row.getString("permissions");
        if (!names.isEmpty()) {
            for (String name : names.split(",")) {
                permissions.add(Permission.valueOf(name.toUpperCase(Locale.ROOT)));
            }
        }
        return AuditEvent.builder()
                .type(AuditEventType.valueOf(row.getString("event_type")))
                .timestamp(row.getTimestamp("occurred_at").toInstant())
                .contextName(row.getString("context_name"))
                .action(row.getString("action"))
                .subject(row.getString("subject"))
                .permissions(permissions)
                .reason(row.getString("reason"))
                .errorCode(row.getString("error_code"))
                .requestId(row.getString("request_id"))
                .targets(List.of((String[]) row.getArray("targets").getArray()))
                .contentDigest(row.getString("content_sha256"))
                .detail(row.getString("detail"))
                .build();
    }
}
