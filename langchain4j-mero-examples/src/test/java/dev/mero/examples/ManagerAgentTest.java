package dev.mero.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManagerAgentTest {

    private static final String ITEMS = "- Ana: update the release notes.\n- Ben: fix the flaky login test.\n";

    @TempDir
    Path root;

    @Test
    void theWritersDenialReachesTheManagerWhichSendsItToItsOwnFolder() throws IOException {
        ExampleRun run = ExampleRun.offline(Example.MANAGER, root);

        assertThat(run.transcript)
                .contains("Context 'manager' mounts: /ws ['READ', 'WRITE'], /docs ['READ'], "
                        + "/drafts ['READ', 'WRITE']\n")
                .contains("Context 'reader' mounts: /ws ['READ'], /docs ['READ'], /drafts ['READ']\n")
                .contains("Context 'writer' mounts: /ws ['READ'], /drafts ['READ', 'WRITE']\n");
        assertThat(run.toolCalls()).containsExactly("delegate_task", "read_file", "delegate_task", "write_file",
                "delegate_task", "write_file");
        String denial = "Denied: '/ws' in context 'writer' lacks permission(s) ['WRITE'] for '/ws/action-items.md' "
                + "(allows: ['READ']).";
        assertThat(run.callBlock("[writer] Tool call  write_file {\"path\":\"/ws/action-items.md\""))
                .contains("  failed   " + denial + "\n")
                .contains("  audit    DENIED 'WRITE: /ws/action-items.md' (permission_denied)\n");
        // the worker's answer, with the refusal in it, is the manager's tool result
        assertThat(run.transcript).contains("  result   Worker 'writer' answered:\n"
                + "           <untrusted-data tool=\"delegate_task\" id=\"") // another model's text is data too
                .contains("           I could not save /ws/action-items.md. " + denial + "\n");
        assertThat(run.transcript).contains("[manager] Tool call  delegate_task "
                + "{\"worker\":\"writer\",\"task\":\"/ws is not yours to write. Save these action items as "
                + "/drafts/action-items.md instead:");
        assertThat(run.callBlock("[writer] Tool call  write_file {\"path\":\"/drafts/action-items.md\""))
                .contains("  result   Wrote 66 bytes to '/drafts/action-items.md' (created the file).\n");
        assertThat(run.answer).isEqualTo(ManagerAgent.FINAL_ANSWER);
    }

    @Test
    void onlyTheWritersOwnFolderChanged() throws IOException {
        ExampleRun.offline(Example.MANAGER, root);

        assertThat(root.resolve("drafts/action-items.md")).hasContent(ITEMS.strip());
        assertThat(root.resolve("workspace/action-items.md")).doesNotExist();
    }
}
