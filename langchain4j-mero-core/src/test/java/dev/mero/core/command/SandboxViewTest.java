package dev.mero.core.command;

import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.SecurityContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;

import static dev.mero.core.Permission.DELETE;
import static dev.mero.core.Permission.EXECUTE;
import static dev.mero.core.Permission.READ;
import static dev.mero.core.Permission.WRITE;
import static org.assertj.core.api.Assertions.assertThat;

/** Which directory the sandbox shows where, and how, computed from a context's entries. */
class SandboxViewTest {

    @TempDir
    Path tmp;

    private Path ws;
    private Path out;
    private Path keys;
    private Path docs;

    @BeforeEach
    void setUp() throws IOException {
        ws = Files.createDirectories(tmp.toRealPath().resolve("ws"));
        out = Files.createDirectories(ws.resolve("build/out"));
        keys = Files.createDirectories(ws.resolve("keys"));
        docs = Files.createDirectories(tmp.toRealPath().resolve("docs"));
    }

    @Test
    void each_entry_is_mounted_by_what_it_grants_and_nested_entries_again_inside_their_parent() {
        SandboxView view = SandboxView.of(List.of(
                PathEntry.of(ws.toString(), "ws", READ, EXECUTE),
                PathEntry.of(out.toString(), "out", READ, WRITE),
                PathEntry.builder().path(keys).slug("keys").allow(WRITE).deny(READ).build(),
                PathEntry.of(docs.toString(), "docs", READ, DELETE)), EnumSet.allOf(Permission.class));

        assertThat(view.mounts()).containsExactly(
                new SandboxView.Mount(ws, "/ws", SandboxView.Mode.READ_ONLY),
                new SandboxView.Mount(out, "/out", SandboxView.Mode.READ_WRITE),
                new SandboxView.Mount(docs, "/docs", SandboxView.Mode.READ_WRITE),
                new SandboxView.Mount(keys, "/ws/keys", SandboxView.Mode.MASKED),
                new SandboxView.Mount(out, "/ws/build/out", SandboxView.Mode.READ_WRITE));
        assertThat(view.topLevelNames()).containsExactly("ws", "out", "docs");
    }

    @Test
    void the_ceiling_and_the_denials_of_containing_entries_decide_the_mode() {
        List<PathEntry> entries = List.of(
                PathEntry.builder().path(ws).slug("ws").allow(READ, WRITE).deny(WRITE).build(),
                PathEntry.of(out.toString(), "out", READ, WRITE),
                PathEntry.of(docs.toString(), "docs", READ, WRITE));

        SandboxView denied = SandboxView.of(entries, EnumSet.allOf(Permission.class));
        SandboxView capped = SandboxView.of(entries, EnumSet.of(READ));
        SandboxView blind = SandboxView.of(entries, EnumSet.of(WRITE, EXECUTE));

        assertThat(denied.mounts()).extracting(SandboxView.Mount::mode).containsExactly(SandboxView.Mode.READ_ONLY,
                SandboxView.Mode.READ_ONLY, SandboxView.Mode.READ_WRITE, SandboxView.Mode.READ_ONLY);
        assertThat(capped.mounts()).extracting(SandboxView.Mount::mode).containsOnly(SandboxView.Mode.READ_ONLY);
        assertThat(blind.mounts()).isEmpty();
        assertThat(blind.locate(ws)).isEmpty();
    }

    @Test
    void host_paths_and_sandbox_paths_translate_both_ways() {
        SecurityContext context = SecurityContext.builder()
                .path(PathEntry.of(ws.toString(), "ws", READ))
                .path(PathEntry.builder().path(keys).slug("keys").deny(READ).build())
                .path(PathEntry.of(out.toString(), "out", READ, WRITE))
                .build();
        SandboxView view = SandboxView.of(context.paths(), context.permissions());

        assertThat(view.locate(ws)).contains("/ws");
        assertThat(view.locate(ws.resolve("build/a.txt"))).contains("/ws/build/a.txt");
        assertThat(view.locate(out.resolve("x"))).contains("/out/x");
        assertThat(view.locate(keys.resolve("id"))).isEmpty();
        assertThat(view.locate(docs)).isEmpty();
        assertThat(view.hostPath("/ws/build/a.txt")).isEqualTo(ws.resolve("build/a.txt").toString());
        assertThat(view.hostPath("/ws/build/out/x")).isEqualTo(out.resolve("x").toString());
        assertThat(view.hostPath("/out")).isEqualTo(out.toString());
        assertThat(view.hostPath("/etc/passwd")).isEqualTo("/etc/passwd");
        assertThat(view.hostPath("notes.txt")).isEqualTo("notes.txt");
    }

    @Test
    void a_runner_without_a_context_mounts_its_working_directory_at_its_own_path() {
        SandboxView view = SandboxView.directory(ws);

        assertThat(view.mounts()).containsExactly(new SandboxView.Mount(ws, ws.toString(), SandboxView.Mode.READ_WRITE));
        assertThat(view.locate(ws.resolve("a"))).contains(ws.resolve("a").toString());
    }
}
