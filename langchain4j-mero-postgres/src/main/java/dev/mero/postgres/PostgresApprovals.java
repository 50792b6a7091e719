package dev.mero.postgres;

import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.message.Messages;
import dev.mero.core.Permission;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ApprovalStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Pending approvals in the table {@code mero_approval}: a request made on one instance waits there until
 * any instance ({@link #complete(String, ApprovalDecision)}) or any other writer to the table decides it.
 * The waiting thread is woken by {@code LISTEN/NOTIFY} and looks at the row at least every poll interval.
 *
 * <p>Exactly one outcome is recorded per request: deciding is a conditional update ({@code WHERE decision
 * IS NULL}), and at its timeout the waiting instance records {@code TIMED_OUT} the same way; whichever
 * update comes first is the outcome, and the waiter returns what was recorded ({@code TIMED_OUT} as an
 * {@link ApprovalTimeoutException}, so the gate audits a timeout, not a refusal). A database that cannot be
 * reached makes {@link #decide(ApprovalRequest)} throw {@link PolicyStoreUnavailableException}, which the
 * gate turns into a refusal.
 *
 * <p>A store made for a queue (a context's name) records it on each request it makes, and lists and decides
 * only requests of that queue: another tenant's request is neither listed nor decided by it. A narrowed child
 * context that keeps its parent's approval backend asks through the parent's queue, so it is listed there.
 * The store without a queue (the operators' view) lists and decides every request. Thread-safe.
 */
final class PostgresApprovals implements ApprovalStore {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresApprovals.class);
    private static final int MAX_LISTED = 1000;
    private static final String COLUMNS =
            "id, context_name, action, subject, permissions, target, argv, details, requested_at";

    private final Sql sql;
    private final Notifications notifications;
    private final Duration timeout;
    private final long pollNanos;
    private final String instance;
    private final String queue;
    private final String inQueue;

    PostgresApprovals(Sql sql, Notifications notifications, Duration timeout, Duration pollInterval,
                      String instance, String queue) {
        this.queue = queue;
        this.inQueue = queue == null ? "" : " AND queue = ?::text";
        this.sql = sql;
        this.notifications = notifications;
        this.timeout = timeout;
        this.pollNanos = pollInterval.toNanos();
        this.instance = instance;
    }

    @Override
    public ApprovalDecision decide(ApprovalRequest request) throws InterruptedException {
        Objects.requireNonNull(request, "request");
        storable(request); // refused before any SQL
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!insert(request)) {
            LOG.warn("Approval request {} already exists in the store; abstaining for the duplicate",
                    Messages.quote(request.id()));
            return ApprovalDecision.ABSTAIN;
        }
        String outcome;
        try {
            outcome = notifications.await(Notifications.APPROVAL_DECIDED, request.id(), deadline, pollNanos,
                    () -> decision(request.id()));
        } catch (InterruptedException e) {
            withdraw(request.id());
            throw e;
        } catch (PolicyStoreUnavailableException e) {
            withdraw(request.id());
            throw e;
        }
        if (outcome == null) {
            outcome = conclude(request.id(), "TIMED_OUT");
        }
        return switch (outcome) {
            case "APPROVED" -> ApprovalDecision.APPROVED;
            case "DENIED" -> ApprovalDecision.DENIED;
            // nobody decided in time: a timeout, audited as such, never a refusal
            case "TIMED_OUT" -> throw ApprovalTimeoutException.noDecisionWithin(request.action(),
                    request.contextName(), timeout);
            default -> ApprovalDecision.ABSTAIN;
        };
    }

    @Override
    public List<ApprovalRequest> pending() {
        return sql.run("pending approvals", connection -> {
            try (PreparedStatement statement = sql.prepare(connection, "SELECT " + COLUMNS
                    + " FROM mero_approval WHERE decision IS NULL AND expires_at > clock_timestamp()" + inQueue
                    + " ORDER BY requested_at LIMIT " + MAX_LISTED)) {
                inQueue(statement, 1);
                return requests(statement);
            }
        });
    }

    @Override
    public Optional<ApprovalRequest> pending(String id) {
        Keys.id(Objects.requireNonNull(id, "id")); // refused before any SQL
        return sql.run("pending approvals", connection -> {
            try (PreparedStatement statement = sql.prepare(connection, "SELECT " + COLUMNS
                    + " FROM mero_approval WHERE id = ?::text AND decision IS NULL AND expires_at > clock_timestamp()"
                    + inQueue)) {
                statement.setString(1, id);
                inQueue(statement, 2);
                return requests(statement).stream().findFirst();
            }
        });
    }

    /**
     * Decides a waiting request; {@link ApprovalDecision#ABSTAIN} withdraws it (the waiter abstains).
     *
     * @return {@code true} if this call recorded the decision
     */
    @Override
    public boolean complete(String id, ApprovalDecision decision) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(decision, "decision");
        Keys.id(id); // refused before any SQL
        String outcome = decision == ApprovalDecision.ABSTAIN ? "WITHDRAWN" : decision.name();
        return sql.run("approval " + Messages.quote(id), connection -> {
            try (PreparedStatement statement = sql.prepare(connection, "UPDATE mero_approval"
                    + " SET decision = ?::text, decided_by = ?::text WHERE id = ?::text AND decision IS NULL"
                    + " AND expires_at > clock_timestamp()" + inQueue)) {
                statement.setString(1, outcome);
                statement.setString(2, instance);
                statement.setString(3, id);
                inQueue(statement, 4);
                return statement.executeUpdate() == 1;
            }
        });
    }

    @Override
    public String toString() {
        return "PostgresApprovals{timeout=" + timeout + (queue == null ? ", every queue" : "") + "}";
    }

    /** Binds the queue at {@code index} when the store has one. */
    private void inQueue(PreparedStatement statement, int index) throws SQLException {
        if (queue != null) {
            statement.setString(index, queue);
        }
    }

    /** Refuses a request PostgreSQL could not store exactly: its id, names, arguments and preview. */
    private static void storable(ApprovalRequest request) {
        Keys.id(request.id());
        Keys.exact("context name", request.contextName());
        Keys.exact("action", request.action());
        request.subject().ifPresent(value -> Keys.exact("subject", value));
        request.target().ifPresent(value -> Keys.exact("path", value.toString()));
        request.argv().forEach(value -> Keys.exact("argument", value));
        request.details().ifPresent(value -> Keys.exact("preview", value));
    }

    private boolean insert(ApprovalRequest request) {
        return sql.run("approval request", connection -> {
            try (PreparedStatement statement = sql.prepare(connection, "INSERT INTO mero_approval"
                    + " (id, context_name, action, subject, permissions, target, argv, details, requested_at,"
                    + " queue, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                    + " clock_timestamp() + " + Sql.MICROS + ") ON CONFLICT (id) DO NOTHING")) {
                statement.setString(1, request.id());
                statement.setString(2, request.contextName());
                statement.setString(3, request.action());
                statement.setString(4, request.subject().orElse(null));
                statement.setString(5, request.permissions().stream().map(Enum::name)
                        .collect(Collectors.joining(",")));
                statement.setString(6, request.target().map(Path::toString).orElse(null));
                statement.setArray(7, connection.createArrayOf("text", request.argv().toArray()));
                statement.setString(8, request.details().orElse(null));
                statement.setTimestamp(9, Timestamp.from(request.requestedAt()));
                statement.setString(10, queue);
                statement.setLong(11, timeout.toNanos() / 1_000L);
                return statement.executeUpdate() == 1;
            }
        });
    }

    private String decision(String id) {
        return sql.run("approval " + Messages.quote(id), connection -> {
            try (PreparedStatement statement = sql.prepare(connection,
                    "SELECT decision FROM mero_approval WHERE id = ?::text")) {
                statement.setString(1, id);
                try (ResultSet row = statement.executeQuery()) {
                    return row.next() ? row.getString(1) : "WITHDRAWN"; // a deleted request is nobody's yes
                }
            }
        });
    }

    /** Records an outcome unless one is already recorded, and returns the recorded outcome. */
    private String conclude(String id, String outcome) {
        return sql.run("approval " + Messages.quote(id), connection -> {
            try (PreparedStatement statement = sql.prepare(connection, "UPDATE mero_approval"
                    + " SET decision = ?::text, decided_by = ?::text WHERE id = ?::text AND decision IS NULL")) {
                statement.setString(1, outcome);
                statement.setString(2, instance);
                statement.setString(3, id);
                if (statement.executeUpdate() == 1) {
                    return outcome;
                }
            }
            return recorded(connection, id);
        });
    }

    private String recorded(Connection connection, String id) throws SQLException {
        try (PreparedStatement statement = sql.prepare(connection,
                "SELECT decision FROM mero_approval WHERE id = ?::text")) {
            statement.setString(1, id);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() && row.getString(1) != null ? row.getString(1) : "WITHDRAWN";
            }
        }
    }

    /** The waiter gives up: best effort, so that nobody can approve a request whose action was refused. */
    private void withdraw(String id) {
        try {
            conclude(id, "WITHDRAWN");
        } catch (PolicyStoreUnavailableException e) {
            LOG.warn("Could not withdraw approval request {}; it expires on its own", Messages.quote(id));
        }
    }

    private static List<ApprovalRequest> requests(PreparedStatement statement) throws SQLException {
        List<ApprovalRequest> requests = new ArrayList<>();
        try (ResultSet row = statement.executeQuery()) {
            while (row.next()) {
                requests.add(request(row));
            }
        }
        return List.copyOf(requests);
    }

    private static ApprovalRequest request(ResultSet row) throws SQLException {
        EnumSet<Permission> permissions = EnumSet.noneOf(Permission.class);
        for (String name : row.getString("permissions").split(",")) {
            permissions.add(Permission.valueOf(name.trim().toUpperCase(Locale.ROOT)));
        }
        ApprovalRequest.Builder request = ApprovalRequest.builder()
                .id(row.getString("id"))
                .contextName(row.getString("context_name"))
                .permissions(permissions)
                .action(row.getString("action"))
                .details(row.getString("details"))
                .requestedAt(row.getTimestamp("requested_at").toInstant());
        Array argv = row.getArray("argv");
        if (argv != null) {
            request.argv(Arrays.asList((String[]) argv.getArray()));
        }
        String subject = row.getString("subject");
        if (subject != null) {
            request.subject(subject);
        }
        String target = row.getString("target");
        if (target != null) {
            request.target(Path.of(target));
        }
        return request.build();
    }
}
