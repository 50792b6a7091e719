package dev.mero.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.Permission;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RateLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Other database roles attack the store as the outside review did, on a database where PUBLIC may create in
 * the store's schema (the default before PostgreSQL 15): a look-alike {@code mero_take_permit(varchar, ...)},
 * operators {@code =(text, varchar)}, {@code =(text, text)} and {@code *(bigint, interval)}, and a trojan
 * {@code pg_notify}. Each trap writes a row into a table when it runs: after every kind of store call the
 * table is empty and every outcome is the honest one. Also the documented two-role setup: the owner migrates,
 * the application role (DML only) starts with {@code migrate(true)} as a no-op.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HostileRolesTest {

    private static final AtomicInteger ROLES = new AtomicInteger();
    private static final String PASSWORD = "role-test-password";

    @Test
    void objectsAnotherRoleCreatesInTheStoresSchemaAreNeverUsed() throws Exception {
        PostgresServer server = PostgresServer.shared();
        String url = server.createDatabase();
        Roles roles = roles(url);
        asSuperuser(url, "GRANT CREATE ON SCHEMA public TO PUBLIC"); // as before PostgreSQL 15
        try (HikariDataSource ownerPool = pool(url, roles.owner)) {
            PostgresPolicyStore.builder().dataSource(ownerPool).migrate(true).build().close();
            grantDml(ownerPool, "public", roles.app);
        }
        plantTraps(url, roles.hostile);

        try (HikariDataSource appPool = pool(url, roles.app);
             PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(appPool).migrate(true)
                     .pollInterval(Duration.ofMillis(50)).instance("app").build()) {
            // a look-alike mero_take_permit(varchar, ...) would allow every call
            RateLimit onePerHour = RateLimit.perHour(1);
            assertThat(store.rateLimits().tryTake("tenant_a", onePerHour)).isZero();
            assertThat(store.rateLimits().tryTake("tenant_a", onePerHour)).as("the second permit").isPositive();
            assertThat(store.rateLimits().availablePermits("tenant_a", onePerHour)).isZero();
            // the permits a bucket has are taken by one UPDATE sent as a statement, with every operator qualified:
            // a look-alike *(numeric, integer) or /(numeric, bigint) would move the bucket's clock
            RateLimit threePerHour = RateLimit.perHour(3);
            for (int permit = 0; permit < 3; permit++) {
                assertThat(store.rateLimits().tryTake("tenant_fast", threePerHour)).as("permit %d", permit).isZero();
            }
            assertThat(store.rateLimits().tryTake("tenant_fast", threePerHour)).as("the fourth").isPositive();

            // =(text, varchar) matching every row would read another request's APPROVED back
            ApprovalStore approvals = store.approvals(Duration.ofMillis(400));
            ApprovalRequest approved = ApprovalRequest.builder().contextName("tenant_a")
                    .permissions(Permission.WRITE).subject("/ws/a").build();
            ExecutorService waiter = Executors.newSingleThreadExecutor();
            try {
                Future<ApprovalDecision> decision = waiter.submit(
                        () -> store.approvals(Duration.ofMinutes(1)).decide(approved));
                SharedStoresTest.awaitTrue(() -> approvals.pending(approved.id()).isPresent());
                assertThat(approvals.complete(approved.id(), ApprovalDecision.APPROVED)).isTrue();
                assertThat(decision.get(30, TimeUnit.SECONDS)).isEqualTo(ApprovalDecision.APPROVED);
            } finally {
                waiter.shutdownNow();
            }
            ApprovalRequest fresh = ApprovalRequest.builder().contextName("tenant_a")
                    .permissions(Permission.DELETE).subject("/ws/b").build();
            assertThatThrownBy(() -> approvals.decide(fresh)).as("nobody answered")
                    .isInstanceOf(ApprovalTimeoutException.class);
            assertThat(approvals.complete(fresh.id(), ApprovalDecision.APPROVED)).isFalse();
            assertThat(approvals.pending(fresh.id())).isEmpty();

            // *(bigint, interval) would stretch the window; =(text, varchar) would match every count
            CallKey key = CallKey.of("write_file", "{\"path\":\"/ws/x\"}");
            assertThat(store.retryBudgets().recordFailure("tenant_a", key, Duration.ofMinutes(5), 3)).isEqualTo(1);
            assertThat(store.retryBudgets().failures("tenant_a", key, Duration.ofMinutes(5))).isEqualTo(1);
            assertThat(store.retryBudgets().failures("tenant_b", key, Duration.ofMinutes(5))).isZero();

            // replays and the audit trail read back only their own rows
            assertThat(store.replays().claim("scope-a", "call-1", Duration.ofSeconds(5)).isOwner()).isTrue();
            store.replays().complete("scope-a", "call-1", "first");
            assertThat(store.replays().claim("scope-b", "call-1", Duration.ofSeconds(5)).isOwner()).isTrue();
            assertThat(store.replays().claim("scope-a", "call-1", Duration.ofSeconds(5)).result()).contains("first");
            assertThat(store.purge(Duration.ofMinutes(1))).isZero();
        }
        assertThat(trapped(url)).as("calls into objects the hostile role created").isEmpty();

        // the traps are live: the same lookup without the store's casts and pinned path runs the hostile operator
        try (Connection connection = DriverManager.getConnection(url, roles.app, PASSWORD);
             PreparedStatement unhardened = connection.prepareStatement(
                     "SELECT count(*) FROM mero_approval WHERE id = ?")) {
            unhardened.setString(1, "no such id");
            try (ResultSet row = unhardened.executeQuery()) {
                row.next();
                assertThat(row.getLong(1)).as("every row matches the hostile =").isPositive();
            }
        }
        assertThat(trapped(url)).contains("=(text, varchar)");
        try (Connection connection = DriverManager.getConnection(url, roles.app, PASSWORD);
             Statement unhardened = connection.createStatement();
             ResultSet row = unhardened.executeQuery("SELECT 1.5::numeric * 1000000, 1.5::numeric / 2::bigint")) {
            row.next();
            assertThat(row.getInt(1)).as("the hostile * wins over numeric * numeric").isZero();
        }
        assertThat(trapped(url)).contains("*(numeric, integer)", "/(numeric, bigint)");
    }

    @Test
    void theApplicationRoleWithDmlOnlyStartsWithMigrateTrueAndCannotAlterTheSchema() throws Exception {
        String url = PostgresServer.shared().createDatabase();
        Roles roles = roles(url);
        asSuperuser(url, "CREATE SCHEMA mero_store AUTHORIZATION " + roles.owner);
        try (HikariDataSource appPool = pool(url, roles.app)) {
            // before the owner migrated, the application role cannot create the schema's objects
            asSuperuser(url, "GRANT USAGE ON SCHEMA mero_store TO " + roles.app);
            assertThatThrownBy(() -> PostgresPolicyStore.builder().dataSource(appPool).schema("mero_store")
                    .migrate(true).build()).isInstanceOf(PolicyStoreUnavailableException.class);
            try (HikariDataSource ownerPool = pool(url, roles.owner)) {
                PostgresPolicyStore owner = PostgresPolicyStore.builder().dataSource(ownerPool)
                        .schema("mero_store").migrate(true).build();
                owner.close();
                grantDml(ownerPool, "mero_store", roles.app);
            }
            try (PostgresPolicyStore store = PostgresPolicyStore.builder().dataSource(appPool)
                    .schema("mero_store").migrate(true).build()) {
                assertThat(store.schema()).isEqualTo("mero_store");
                assertThat(store.rateLimits().tryTake("tenant_a", RateLimit.perMinute(1))).isZero();
                assertThat(store.replays().claim("s", "c", Duration.ofSeconds(5)).isOwner()).isTrue();
            }
            try (Connection connection = appPool.getConnection(); Statement statement = connection.createStatement()) {
                assertThatThrownBy(() -> statement.execute("CREATE TABLE mero_store.x (a int)"))
                        .isInstanceOf(SQLException.class).hasMessageContaining("permission denied");
            }
        }
    }

    private record Roles(String owner, String app, String hostile) {
    }

    private static Roles roles(String url) throws SQLException {
        int n = ROLES.incrementAndGet();
        Roles roles = new Roles("mero_owner_" + n, "mero_app_" + n, "mero_hostile_" + n);
        for (String role : List.of(roles.owner, roles.app, roles.hostile)) {
            asSuperuser(url, "CREATE ROLE " + role + " LOGIN PASSWORD '" + PASSWORD + "'");
        }
        String database = url.substring(url.lastIndexOf('/') + 1);
        asSuperuser(url, "GRANT CONNECT, TEMPORARY ON DATABASE " + database + " TO " + roles.app + ", "
                + roles.owner + ", " + roles.hostile);
        return roles;
    }

    /** The grants docs/several-instances.md gives the application role. */
    private static void grantDml(HikariDataSource ownerPool, String schema, String app) throws SQLException {
        try (Connection connection = ownerPool.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + app);
            statement.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + schema + " TO " + app);
            statement.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA " + schema + " TO " + app);
        }
    }

    private static void plantTraps(String url, String hostile) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, hostile, PASSWORD);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE public.trapped (what text)");
            statement.execute("GRANT INSERT ON public.trapped TO PUBLIC");
            statement.execute("CREATE FUNCTION public.mero_take_permit(p_bucket varchar, p_capacity bigint,"
                    + " p_cost bigint, p_permits bigint, p_take boolean) RETURNS TABLE (taken boolean, tokens bigint)"
                    + " LANGUAGE sql AS $$ INSERT INTO public.trapped VALUES ('mero_take_permit');"
                    + " SELECT true, 1000000000000::bigint $$");
            // look-alikes of the functions the store calls without a pinned path, for the driver's varchar
            statement.execute("CREATE FUNCTION public.mero_rate_take(p_bucket varchar, p_per_us bigint,"
                    + " p_permits bigint, p_burst bigint, p_hold_us bigint, p_take boolean) RETURNS TABLE (taken"
                    + " boolean, wait_us numeric, available bigint) LANGUAGE sql AS $$ INSERT INTO public.trapped"
                    + " VALUES ('mero_rate_take'); SELECT true, 0::numeric, 1000::bigint $$");
            statement.execute("CREATE FUNCTION public.mero_replay_take(varchar, varchar, bigint) RETURNS boolean"
                    + " LANGUAGE sql AS $$ INSERT INTO public.trapped VALUES ('mero_replay_take'); SELECT true $$");
            statement.execute("CREATE FUNCTION public.trap_eq(text, varchar) RETURNS boolean LANGUAGE sql AS"
                    + " $$ INSERT INTO public.trapped VALUES ('=(text, varchar)'); SELECT true $$");
            statement.execute("CREATE OPERATOR public.= (LEFTARG = text, RIGHTARG = varchar,"
                    + " FUNCTION = public.trap_eq)");
            statement.execute("CREATE FUNCTION public.trap_eq_text(text, text) RETURNS boolean LANGUAGE sql AS"
                    + " $$ INSERT INTO public.trapped VALUES ('=(text, text)'); SELECT true $$");
            statement.execute("CREATE OPERATOR public.= (LEFTARG = text, RIGHTARG = text,"
                    + " FUNCTION = public.trap_eq_text)");
            statement.execute("CREATE FUNCTION public.trap_times(bigint, interval) RETURNS interval LANGUAGE sql"
                    + " AS $$ INSERT INTO public.trapped VALUES ('*(bigint, interval)'); SELECT interval '1000 years' $$");
            statement.execute("CREATE OPERATOR public.* (LEFTARG = bigint, RIGHTARG = interval,"
                    + " FUNCTION = public.trap_times)");
            statement.execute("CREATE FUNCTION public.trap_numeric_times(numeric, integer) RETURNS numeric LANGUAGE sql"
                    + " AS $$ INSERT INTO public.trapped VALUES ('*(numeric, integer)'); SELECT 0::numeric $$");
            statement.execute("CREATE OPERATOR public.* (LEFTARG = numeric, RIGHTARG = integer,"
                    + " FUNCTION = public.trap_numeric_times)");
            statement.execute("CREATE FUNCTION public.trap_numeric_over(numeric, bigint) RETURNS numeric LANGUAGE sql"
                    + " AS $$ INSERT INTO public.trapped VALUES ('/(numeric, bigint)'); SELECT 0::numeric $$");
            statement.execute("CREATE OPERATOR public./ (LEFTARG = numeric, RIGHTARG = bigint,"
                    + " FUNCTION = public.trap_numeric_over)");
            statement.execute("CREATE FUNCTION public.pg_notify(text, varchar) RETURNS void LANGUAGE sql AS"
                    + " $$ INSERT INTO public.trapped VALUES ('pg_notify') $$");
            statement.execute("CREATE FUNCTION public.clock_timestamp() RETURNS timestamptz LANGUAGE sql AS"
                    + " $$ INSERT INTO public.trapped VALUES ('clock_timestamp'); SELECT now() - interval '1 year' $$");
        }
    }

    private static List<String> trapped(String url) throws SQLException {
        List<String> calls = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url, PostgresServer.USER, PostgresServer.PASSWORD);
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT what FROM public.trapped")) {
            while (rows.next()) {
                calls.add(rows.getString(1));
            }
        }
        return calls;
    }

    private static void asSuperuser(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url, PostgresServer.USER, PostgresServer.PASSWORD);
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static HikariDataSource pool(String url, String role) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(role);
        config.setPassword(PASSWORD);
        config.setMaximumPoolSize(4);
        config.setConnectionTimeout(5_000);
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }
}
