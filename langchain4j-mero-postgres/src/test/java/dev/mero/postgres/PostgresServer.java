package dev.mero.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A private PostgreSQL server for tests: the machine's server binaries ({@code /usr/lib/postgresql/<n>/bin},
 * or the directory in {@code MERO_PG_BIN}) initialise a temporary data directory and serve it on a free
 * port on 127.0.0.1, with password authentication for TCP. As root, the server runs as the {@code postgres}
 * user (PostgreSQL refuses to run as root). {@link #shared()} is one server for the whole test JVM; tests
 * that stop the server start their own.
 */
final class PostgresServer implements AutoCloseable {

    static final String USER = "mero";
    /** Also in the surefire configuration, as MERO_TEST_DB_PASSWORD, for tests that read it from the environment. */
    static final String PASSWORD = "mero-test-password";

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static PostgresServer shared;

    private final Path bin;
    private final Path root;
    private final Path data;
    private final int port;
    private final List<String> asUser;
    /** Whether commits wait for the disk; off for the tests, on to measure what a durable server costs. */
    private final boolean fsync;

    private PostgresServer(boolean fsync) throws IOException, InterruptedException {
        this.fsync = fsync;
        this.bin = binaries();
        this.root = Files.createTempDirectory("mero-pg");
        this.data = root.resolve("data");
        this.port = freePort();
        this.asUser = runAs();
        if (!asUser.isEmpty()) {
            run(List.of("chown", asUser.get(2), root.toString()), false);
        }
        Path pwfile = root.resolve("pwfile");
        Files.writeString(pwfile, PASSWORD + "\n", StandardCharsets.UTF_8);
        if (!asUser.isEmpty()) {
            run(List.of("chown", asUser.get(2), pwfile.toString()), false);
        }
        run(List.of(bin.resolve("initdb").toString(), "-D", data.toString(), "-U", USER, "--pwfile=" + pwfile,
                "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-sync"), true);
        start();
    }

    /** The server shared by every test of this JVM, started on first use and stopped when the JVM exits. */
    static synchronized PostgresServer shared() {
        if (shared == null) {
            shared = startNew();
            PostgresServer server = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        }
        return shared;
    }

    /** A server of the test's own, for tests that stop it. */
    static PostgresServer startNew() {
        return startNew(false);
    }

    /** A server of the caller's own whose commits wait for the disk ({@code fsync} on) or not. */
    static PostgresServer startNew(boolean fsync) {
        try {
            return new PostgresServer(fsync);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Creates an empty database and returns its JDBC URL. */
    String createDatabase() {
        String name = "mero_test_" + DATABASES.incrementAndGet();
        try (Connection connection = DriverManager.getConnection(url("postgres"), USER, PASSWORD);
             Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create a test database", e);
        }
        return url(name);
    }

    String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
    }

    /** A pool as an application would configure it: short waits, so that a dead server fails fast. */
    static HikariDataSource pool(String url, int size) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setUsername(USER);
        config.setPassword(PASSWORD);
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(2_000);
        config.setValidationTimeout(1_000);
        config.setInitializationFailTimeout(-1);
        config.addDataSourceProperty("connectTimeout", "2");
        config.addDataSourceProperty("socketTimeout", "10");
        return new HikariDataSource(config);
    }

    void start() throws IOException, InterruptedException {
        run(List.of(bin.resolve("pg_ctl").toString(), "start", "-w", "-t", "60", "-D", data.toString(),
                "-l", root.resolve("server.log").toString(),
                "-o", "-p " + port + " -k " + root + " -c listen_addresses=127.0.0.1 -c fsync="
                        + (fsync ? "on" : "off") + " -c max_connections=200"), true);
    }

    /** Stops the server at once, as a crash would: every open connection breaks. */
    void stop() {
        try {
            run(List.of(bin.resolve("pg_ctl").toString(), "stop", "-w", "-t", "60", "-D", data.toString(),
                    "-m", "immediate"), true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        if (Files.exists(data.resolve("postmaster.pid"))) {
            stop();
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void run(List<String> command, boolean asServerUser) throws IOException, InterruptedException {
        List<String> full = new ArrayList<>();
        if (asServerUser) {
            full.addAll(asUser);
        }
        full.addAll(command);
        Process process = new ProcessBuilder(full).redirectErrorStream(true)
                .redirectOutput(root.resolve("commands.log").toFile().exists()
                        ? ProcessBuilder.Redirect.appendTo(root.resolve("commands.log").toFile())
                        : ProcessBuilder.Redirect.to(root.resolve("commands.log").toFile()))
                .start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("Timed out: " + full);
        }
        if (process.exitValue() != 0) {
            String log = Files.readString(root.resolve("commands.log"));
            throw new IllegalStateException("Failed (" + process.exitValue() + "): " + full + "\n" + log);
        }
    }

    /** As root, run the server binaries as the postgres user (or nobody); otherwise as ourselves. */
    private static List<String> runAs() throws IOException, InterruptedException {
        Process id = new ProcessBuilder("id", "-u").start();
        String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        id.waitFor();
        if (!uid.equals("0")) {
            return List.of();
        }
        String user = Files.readAllLines(Path.of("/etc/passwd")).stream()
                .anyMatch(line -> line.startsWith("postgres:")) ? "postgres" : "nobody";
        return List.of("runuser", "-u", user, "--");
    }

    private static Path binaries() throws IOException {
        String configured = System.getenv("MERO_PG_BIN");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        Path versions = Path.of("/usr/lib/postgresql");
        if (Files.isDirectory(versions)) {
            try (Stream<Path> dirs = Files.list(versions)) {
                Path newest = dirs.map(dir -> dir.resolve("bin"))
                        .filter(dir -> Files.isExecutable(dir.resolve("initdb")))
                        .max(Comparator.comparing(dir -> versionOf(dir.getParent())))
                        .orElse(null);
                if (newest != null) {
                    return newest;
                }
            }
        }
        throw new IllegalStateException("No PostgreSQL server binaries: install the 'postgresql' package "
                + "(.ci/run does) or set MERO_PG_BIN to the directory holding initdb, pg_ctl and postgres");
    }

    private static int versionOf(Path dir) {
        try {
            return Integer.parseInt(dir.getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
