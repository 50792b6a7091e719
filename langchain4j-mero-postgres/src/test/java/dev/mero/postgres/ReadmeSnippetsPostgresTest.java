package dev.mero.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import dev.mero.core.audit.AuditEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the README's PostgreSQL snippet against a real server. */
class ReadmeSnippetsPostgresTest {

    @TempDir
    Path workspace;

    @Test
    void theSnippetSharesItsDecisionsThroughTheDatabase() throws IOException {
        Files.writeString(workspace.resolve("notes.txt"), "notes");
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(PostgresServer.shared().createDatabase());
        config.setUsername(PostgresServer.USER);
        config.setPassword(PostgresServer.PASSWORD);
        config.setMaximumPoolSize(2);

        List<AuditEvent> refusals = ReadmeSnippetsPostgres.sharedStores(config, workspace.toString(), 4);

        assertThat(refusals).hasSize(2).allSatisfy(event -> {
            assertThat(event.outcome()).isEqualTo("denied");
            assertThat(event.subject()).contains("/etc/passwd");
        });
    }
}
