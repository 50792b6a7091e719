package dev.mero.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceAgentTest {

    static final String SUMMARY = "# Summary of /ws/notes.md\n\n- Ship version 1.2 on Friday.\n"
            + "- Move the nightly build to 02:00 UTC.\n- Ana: update the release notes.\n"
            + "- Ben: fix the flaky login test.\n";

    /** The tools the workspace session calls, in order. */
    static final java.util.List<String> CALLS = java.util.List.of("list_roots", "search_text", "read_file",
            "write_file", "edit_file", "edit_file", "run_command", "read_file", "write_file", "write_file");

    @TempDir
    Path root;

    @Test
    void theSessionSearchesEditsRunsACommandIsRefusedTwiceAndRecovers() throws IOException {
        ExampleRun run = ExampleRun.offline(Example.WORKSPACE, root);

        assertThat(run.toolCalls()).containsExactlyElementsOf(WorkspaceAgentTest.CALLS);
        assertWorkspaceSession(run, "workspace-agent");
        assertThat(run.transcript).contains(
                "Context 'workspace-agent' mounts: /ws ['READ', 'WRITE', 'EXECUTE'], /docs ['READ']");
    }

    /** What the workspace session shows, whatever configured its context. */
    static void assertWorkspaceSession(ExampleRun run, String contextName) {
        assertThat(run.callBlock("Tool call  search_text"))
                .contains("  result   <untrusted-data tool=\"search_text\" id=\"")
                .contains("           1 matching line for '(?i)retro' in '/ws'")
                .contains("           /ws/todo.txt:1: - book the room for the retro\n");
        assertThat(run.callBlock("Tool call  read_file {\"path\":\"/ws/notes.md\"}"))
                .contains("  result   <untrusted-data tool=\"read_file\" id=\"")
                .contains("           - Ship version 1.2 on Friday.\n");
        assertThat(run.callBlock("Tool call  edit_file {\"path\":\"/ws/todo.txt\",\"old_text\":\"- book the room for "
                + "the retro\",\"new_text\":\"- [x] book the room for the retro\",\"dry_run\":true}"))
                .contains("  result   <untrusted-data tool=\"edit_file\" id=\"") // the diff quotes the file
                .contains("           Dry run: editing '/ws/todo.txt' would make 1 replacement; nothing was written.\n")
                .contains("           -- book the room for the retro\n           +- [x] book the room for the retro\n")
                .doesNotContain("WRITE: /ws/todo.txt");
        assertThat(run.callBlock("Tool call  edit_file {\"path\":\"/ws/todo.txt\",\"old_text\":\"- book the room for "
                + "the retro\",\"new_text\":\"- [x] book the room for the retro\"}"))
                .contains("           Edited '/ws/todo.txt' (1 replacement):\n")
                .contains("  audit    ALLOWED 'WRITE: /ws/todo.txt'\n");
        assertThat(run.callBlock("Tool call  run_command"))
                .contains("Exit code: 0\n")
                .contains(" 11 notes.md\n")
                .contains("  audit    ALLOWED 'EXECUTE: wc -l notes.md summary.md'\n");
        assertThat(run.callBlock("Tool call  read_file {\"path\":\"/etc/passwd\"}")).isEqualTo(
                "Tool call  read_file {\"path\":\"/etc/passwd\"}\n"
                        + "  failed   Denied: Path '/etc/passwd' is an absolute path that isn't covered by any "
                        + "configured PathEntry, and its leading segment doesn't match a mounted slug "
                        + "(mounted: '/ws', '/docs').\n"
                        + "  audit    DENIED 'READ: /etc/passwd' (path_denied)\n");
        assertThat(run.callBlock("Tool call  write_file {\"path\":\"/docs/summary.md\"")).endsWith(
                "  failed   Denied: '/docs' in context '" + contextName + "' lacks permission(s) ['WRITE'] for "
                        + "'/docs/summary.md' (allows: ['READ']).\n"
                        + "  audit    DENIED 'WRITE: /docs/summary.md' (permission_denied)\n");
        assertThat(run.callBlock("Tool call  write_file {\"path\":\"/ws/summary.md\""))
                .contains("  result   Wrote 162 bytes to '/ws/summary.md' (created the file).\n"
                        + "  audit    ALLOWED 'WRITE: /ws/summary.md'\n");
        assertThat(run.callBlock("Tool call  write_file {\"path\":\"/ws/outbox/summary.md\""))
                .contains("  result   Wrote 162 bytes to '/ws/outbox/summary.md'");
        assertThat(run.transcript).endsWith("Agent: " + ScriptedSession.FINAL_ANSWER.replace("\n", "\n       ") + "\n");
        assertThat(run.answer).isEqualTo(ScriptedSession.FINAL_ANSWER);
    }

    @Test
    void theAllowedWritesLandedAndTheDeniedOneLeftNoTrace() throws IOException {
        ExampleRun.offline(Example.WORKSPACE, root);

        assertWorkspaceFiles(root);
    }

    /** The files after the workspace session. */
    static void assertWorkspaceFiles(Path root) throws IOException {
        assertThat(root.resolve("workspace/summary.md")).hasContent(SUMMARY.strip());
        assertThat(root.resolve("workspace/outbox/summary.md")).hasContent(SUMMARY.strip());
        assertThat(root.resolve("workspace/todo.txt")).hasContent("- [x] book the room for the retro");
        try (var docs = Files.list(root.resolve("docs"))) {
            assertThat(docs.map(p -> p.getFileName().toString())).containsExactly("style-guide.md");
        }
    }

    @Test
    void theTranscriptShowsVirtualPathsOnly() throws IOException {
        ExampleRun run = ExampleRun.offline(Example.WORKSPACE, root);

        assertThat(run.transcript).doesNotContain(root.toString());
    }

    @Test
    void deleteRemovesTheWorkspaceWithoutFollowingLinks() throws IOException {
        Path outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outside.resolve("keep.txt"), "keep");
        Path demo = Files.createDirectories(root.resolve("demo"));
        DemoWorkspace.create(demo);
        Files.createSymbolicLink(demo.resolve("workspace/link"), outside);

        DemoWorkspace.delete(demo);

        assertThat(demo).doesNotExist();
        assertThat(outside.resolve("keep.txt")).hasContent("keep");
    }
}
