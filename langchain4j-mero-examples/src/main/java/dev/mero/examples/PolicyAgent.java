package dev.mero.examples;

import dev.mero.core.SecurityContext;
import dev.mero.core.policy.SecurityPolicy;
import dev.mero.core.audit.AuditLog;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The workspace assistant with its context loaded from a YAML policy file
 * ({@code dev/mero/examples/workspace-policy.yaml}) instead of built in code: same task, same decisions.
 */
final class PolicyAgent {

    /** Where the policy ships, on the class path. */
    static final String POLICY_RESOURCE = "/dev/mero/examples/workspace-policy.yaml";

    private PolicyAgent() {
    }

    /**
     * Runs the example: writes the policy next to the workspace, loads it and gives the assistant the
     * workspace example's task.
     *
     * @param root       an existing, empty directory for the workspace and the policy
     * @param models     which model drives the agent
     * @param transcript where the session is shown
     * @return the agent's final answer
     * @throws IOException if the files cannot be created
     */
    static String run(Path root, ModelSelection models, Transcript transcript) throws IOException {
        DemoWorkspace.create(root);
        Path policy = root.resolve("workspace-policy.yaml");
        try (InputStream shipped = PolicyAgent.class.getResourceAsStream(POLICY_RESOURCE)) {
            if (shipped == null) {
                throw new IOException("missing resource " + POLICY_RESOURCE);
            }
            Files.copy(shipped, policy);
        }
        transcript.note("Policy file " + policy.getFileName() + ":");
        transcript.note(Files.readString(policy).strip().indent(4).stripTrailing());
        SecurityContext context = SecurityPolicy.read(policy)
                .auditLog(AuditLog.builder().sink(transcript.auditSink()).build())
                .build();
        return WorkspaceAgent.ask(context, models, transcript);
    }
}
