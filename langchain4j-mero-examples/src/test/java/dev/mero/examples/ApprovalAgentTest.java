package dev.mero.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApprovalAgentTest {

    @TempDir
    Path root;

    @Test
    void aWriteIsApprovedADeleteRefusedAndAWriteTimesOutToADenial() throws IOException {
        ExampleRun run = ExampleRun.offline(Example.APPROVAL, root);

        assertThat(run.toolCalls()).containsExactly("read_file", "write_file", "delete_file", "write_file");
        assertThat(run.callBlock("Tool call  write_file {\"path\":\"/ws/todo.txt\""))
                .contains("Approval needed for context 'workspace-agent':\n  action:      'WRITE: /ws/todo.txt'\n")
                .contains("    | - order pizza for the retro\n")
                .contains("Approve? [y/N] (no answer within 2s denies): y\nApproved.\n"
                        + "  result   Wrote 58 bytes to '/ws/todo.txt' (replaced its previous contents).\n"
                        + "  audit    APPROVAL_REQUESTED 'WRITE: /ws/todo.txt'\n"
                        + "  audit    APPROVAL_GRANTED 'WRITE: /ws/todo.txt'\n");
        assertThat(run.callBlock("Tool call  delete_file {\"path\":\"/ws/data/metrics.csv\"}"))
                .contains("  action:      'DELETE: /ws/data/metrics.csv'\n")
                .contains("Approve? [y/N] (no answer within 2s denies): n\nDenied.\n"
                        + "  failed   Denied: Action 'DELETE: /ws/data/metrics.csv' was not approved for context "
                        + "'workspace-agent'.\n");
        assertThat(run.callBlock("Tool call  write_file {\"path\":\"/ws/release-notes.md\""))
                .contains("Approve? [y/N] (no answer within 2s denies): \nNo answer within 2s: timed out, not "
                        + "approved.\n"
                        + "  failed   Denied: Approval of 'WRITE: /ws/release-notes.md' timed out in context "
                        + "'workspace-agent': nobody decided within 2s, so the action was not run.\n")
                .contains("  audit    APPROVAL_TIMED_OUT 'WRITE: /ws/release-notes.md' (approval_timeout)\n");
        assertThat(run.answer).isEqualTo(ApprovalAgent.FINAL_ANSWER);
    }

    @Test
    void onlyTheApprovedWriteChangedAFile() throws IOException {
        ExampleRun.offline(Example.APPROVAL, root);

        assertThat(root.resolve("workspace/todo.txt"))
                .hasContent("- book the room for the retro\n- order pizza for the retro");
        assertThat(root.resolve("workspace/data/metrics.csv")).hasContent("day,builds,failures\nmon,14,1\ntue,12,0");
        assertThat(root.resolve("workspace/release-notes.md")).doesNotExist();
    }
}
