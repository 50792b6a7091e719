package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mero.core.ApprovalDeniedException;
import dev.mero.core.PathAccessDeniedException;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.ScopeDeniedException;
import dev.mero.core.SecurityContext;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.ops.UntrustedContent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file tools called the context's path check only, so every governance step around it (approval, scopes,
 * rate limit, audit) was skipped: a write that needed a human's approval went straight to disk.
 */
class FileToolsAttackTest {

    @TempDir
    Path tempDir;

    Workspace w;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tempDir);
    }

    private SecurityContext.Builder context() {
        return SecurityContext.builder()
                .name("test")
                .path(PathEntry.of(w.ws.toString(), "ws", Permission.READ, Permission.WRITE))
                .path(PathEntry.builder().path(w.docs).slug("docs").allow(Permission.READ, Permission.WRITE)
                        .requireApproval(Permission.WRITE).build());
    }

    @Test
    void a_write_that_needs_approval_without_a_backend_is_denied_and_writes_nothing() {
        FileTools tools = new FileTools(context().build());
        List<String> before = w.snapshot();

        assertThatThrownBy(() -> tools.writeFile("/docs/guide.md", "overwritten", null))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: /docs/guide.md' requires approval for ['WRITE'] but no approval backend "
                        + "is configured (fail-safe deny).");
        assertThatThrownBy(() -> tools.writeFile("/docs/new/file.txt", "x", null))
                .isInstanceOf(ApprovalDeniedException.class);
        assertThat(w.snapshot()).isEqualTo(before);
        assertThat(tools.writeFile("/ws/free.txt", "ok", null)).isEqualTo("Wrote 2 bytes to '/ws/free.txt' (created the file).");
    }

    @Test
    void a_context_wide_approval_requirement_is_honoured_by_write_file() {
        FileTools tools = new FileTools(context().requireApproval(Permission.WRITE).build());
        List<String> before = w.snapshot();

        assertThatThrownBy(() -> tools.writeFile("/ws/notes.txt", "overwritten", null))
                .isInstanceOf(ApprovalDeniedException.class)
                .hasMessage("Action 'WRITE: /ws/notes.txt' requires approval for ['WRITE'] but no approval backend "
                        + "is configured (fail-safe deny).");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void scopes_limit_the_file_tools() {
        SecurityContext scoped = context().scopes("files:file:read").build();
        FileTools tools = new FileTools(scoped);
        List<String> before = w.snapshot();

        assertThat(UntrustedContent.unwrap(tools.readFile("/ws/notes.txt", null, null, null))).contains("hello notes\n");
        assertThatThrownBy(() -> tools.writeFile("/ws/notes.txt", "overwritten", null))
                .isInstanceOf(ScopeDeniedException.class)
                .hasMessageStartingWith("Context 'test' lacks scope 'files:file:write'");
        assertThatThrownBy(() -> new DirectoryTools(scoped).listDirectory("/ws", null))
                .isInstanceOf(ScopeDeniedException.class)
                .hasMessageStartingWith("Context 'test' lacks scope 'files:directory:list'");
        assertThat(w.snapshot()).isEqualTo(before);
    }

    @Test
    void every_call_is_audited() {
        List<AuditEventType> types = new CopyOnWriteArrayList<>();
        FileTools tools = new FileTools(context().auditLog(AuditLog.builder().sink(e -> types.add(e.type())).build())
                .build());

        tools.readFile("/ws/notes.txt", null, null, null);
        assertThatThrownBy(() -> tools.readFile("/etc/passwd", null, null, null)).isInstanceOf(PathAccessDeniedException.class);

        assertThat(types).containsExactly(AuditEventType.ALLOWED, AuditEventType.DENIED);
    }
}
