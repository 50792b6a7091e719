package dev.mero.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyAgentTest {

    @TempDir
    Path root;

    @Test
    void theContextFromThePolicyFileDecidesLikeTheOneBuiltInCode() throws IOException {
        ExampleRun run = ExampleRun.offline(Example.POLICY, root);

        assertThat(run.transcript).contains("Policy file workspace-policy.yaml:\n    # The workspace assistant's")
                .contains("        allow: [READ]\n")
                .contains("        - wc ")
                .contains("Context 'policy-agent' mounts: /ws ['READ', 'WRITE', 'EXECUTE'], /docs ['READ']");
        assertThat(run.toolCalls()).containsExactlyElementsOf(WorkspaceAgentTest.CALLS);
        WorkspaceAgentTest.assertWorkspaceSession(run, "policy-agent");
        WorkspaceAgentTest.assertWorkspaceFiles(root);
    }
}
