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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The programs a real agent uses still work inside the sandbox, through the full path of
 * {@link SecurityContext#runCommand(String, String)}, and what they print names virtual paths only.
 */
class SandboxProgramsTest {

    @TempDir
    Path tmp;

    private Workspace w;
    private SecurityContext context;

    @BeforeEach
    void setUp() throws IOException {
        w = new Workspace(tmp);
        Files.writeString(w.ws.resolve("sub/data.txt"), "pear\napple\nfig\n");
        context = w.context()
                .allowCommand("git")
                .allowCommand("grep")
                .allowCommand("find")
                .allowCommand("ls")
                .allowCommand("sed")
                .allowCommand("sort")
                .allowCommand("tar")
                .allowCommand("pwd")
                .allowCommand("java -version")
                .build();
    }

    @Test
    void git_status_log_diff_and_commit_work_and_show_virtual_paths() throws IOException {
        assertThat(run("git init -q", "/ws")).isEmpty();
        // identity for the commit; the sandbox shows no global git configuration
        Files.writeString(w.ws.resolve(".git/config"), "[user]\n\tname = Agent\n\temail = agent@example.com\n",
                java.nio.file.StandardOpenOption.APPEND);
        run("git add notes.txt sub/data.txt", "/ws");
        assertThat(run("git commit -q -m first", "/ws")).isEmpty();
        Files.writeString(w.ws.resolve("notes.txt"), "notes, changed");

        String status = run("git status", "/ws/sub");
        String log = run("git log --oneline", "/ws");
        String diff = run("git diff", "/ws");
        String topLevel = run("git rev-parse --show-toplevel", "/ws/sub");

        assertThat(status).contains("modified:   ../notes.txt");
        assertThat(log).contains("first");
        assertThat(diff).contains("-notes").contains("+notes, changed");
        assertThat(topLevel).isEqualTo("/ws\n");
        assertThat(status + log + diff).doesNotContain(tmp.toString());
    }

    @Test
    void search_and_text_programs_work_in_a_mount() {
        assertThat(run("grep -rn apple .", "/ws")).isEqualTo("./sub/data.txt:2:apple\n");
        assertThat(run("find . -name data.txt", "/ws")).isEqualTo("./sub/data.txt\n");
        assertThat(run("find /docs -type f", "/ws")).isEqualTo("/docs/guide.txt\n");
        assertThat(run("ls", "/ws/sub")).isEqualTo("data.txt\n");
        assertThat(run("sed -n 2p data.txt", "/ws/sub")).isEqualTo("apple\n");
        assertThat(run("sort data.txt", "/ws/sub")).isEqualTo("apple\nfig\npear\n");
        assertThat(run("pwd", "/ws/sub")).isEqualTo("/ws/sub\n");
    }

    @Test
    void tar_creates_an_archive_inside_a_mount() {
        run("tar -cf /ws/sub.tar sub", "/ws");

        assertThat(w.ws.resolve("sub.tar")).isRegularFile();
        assertThat(run("tar -tf /ws/sub.tar", "/ws")).isEqualTo("sub/\nsub/data.txt\n");
    }

    @Test
    void java_starts() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/java")),
                "the JDK is installed under /usr (a Debian package), as on the CI machine");
        CommandResult result = context.runCommand("java -version", "/ws");

        assertThat(result.succeeded()).as(result.toModelText()).isTrue();
        assertThat(result.stderr()).containsPattern("(openjdk|java) version");
    }

    @Test
    void a_program_inside_a_read_only_mount_runs_at_its_virtual_path() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("tools/bin"));
        Processes.script(bin, "where", "echo \"$0 in $(pwd)\"\n");
        SecurityContext withTools = w.context()
                .path(PathEntry.of(tmp.resolve("tools").toString(), "tools", Permission.READ))
                .commandSearchPath(bin.toRealPath() + ":/usr/bin:/bin")
                .allowCommand("where")
                .build();

        CommandResult result = withTools.runCommand("where", "/ws/sub");

        assertThat(result.stdout()).as(result.toModelText()).isEqualTo("/tools/bin/where in /ws/sub\n");
    }

    private String run(String commandLine, String workingDirectory) {
        CommandResult result = context.runCommand(commandLine, workingDirectory);
        assertThat(result.succeeded()).as(commandLine + ": " + result.toModelText()).isTrue();
        return result.stdout();
    }
}
