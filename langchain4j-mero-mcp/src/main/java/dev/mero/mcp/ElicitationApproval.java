package dev.mero.mcp;

import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.message.Messages;
import dev.mero.core.approval.ApprovalBackend;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Asks the MCP client's user through MCP elicitation whether an action may run, and falls back to another
 * backend (the policy's own) when the calling client cannot be asked.
 *
 * <pre>{@code
 * SecurityContext.Builder policy = SecurityPolicy.read(Path.of("mero-policy.yaml"));
 * ApprovalBackend configured = policy.build().approval().orElse(null);
 * SecurityContext context = policy
 *         .approval(ElicitationApproval.builder().fallback(configured).build())
 *         .build();
 * }</pre>
 *
 * <p>The client is asked only during one of its own tool calls served by {@link MeroMcpServer} on the calling
 * thread, and only when it declared the {@code elicitation} capability (form mode). The user sees the action
 * with its virtual path or command line, never a host path, and answers with a single {@code approve} flag:
 * only an {@code accept} with {@code approve: true} approves; a decline, a cancel, a missing or non-boolean
 * flag deny. An answer that does not come within the server's request timeout is an approval timeout
 * ({@link ApprovalTimeoutException}, {@code approval_timeout}; the
 * gate fails safe). Without such a client the fallback decides; without a fallback the backend abstains, so
 * the action is refused.
 *
 * <p>Thread-safe; concurrent calls ask their own clients independently.
 */
public final class ElicitationApproval implements ApprovalBackend {

    /** The name of the flag the user sets in the elicitation form. */
    public static final String APPROVE_FIELD = "approve";

    /** Longest details text shown to the user, in lines; the rest is summarised. */
    private static final int MAX_DETAIL_LINES = 200;

    private static final Map<String, Object> SCHEMA = schema();

    private final ApprovalBackend fallback;

    private ElicitationApproval(Builder builder) {
        this.fallback = builder.fallback;
    }

    /**
     * Starts a builder.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The backend that decides when the calling client cannot be asked.
     *
     * @return the fallback, absent when such requests are refused
     */
    public Optional<ApprovalBackend> fallback() {
        return Optional.ofNullable(fallback);
    }

    /**
     * Asks the calling client's user, or the fallback.
     *
     * @param request what is to be approved
     * @return {@link ApprovalDecision#APPROVED} only for an explicit approval; the fallback's decision when the
     *         client cannot be asked; {@link ApprovalDecision#ABSTAIN} when there is neither
     * @throws Exception if the fallback fails (the gate refuses the action)
     */
    @Override
    public ApprovalDecision decide(ApprovalRequest request) throws Exception {
        Optional<ApprovalClient> client = CallingClient.current().filter(ApprovalClient::canElicit);
        if (client.isPresent()) {
            ElicitResult answer;
            try {
                answer = client.get().elicit(ElicitFormRequest.builder(message(request), SCHEMA).build());
            } catch (RuntimeException e) {
                if (timedOut(e)) {
                    // the user did not answer within the server's request timeout: nobody decided
                    throw ApprovalTimeoutException.noDecisionWithin(request.action(), request.contextName(), null);
                }
                throw e;
            }
            return approves(answer) ? ApprovalDecision.APPROVED : ApprovalDecision.DENIED;
        }
        return fallback == null ? ApprovalDecision.ABSTAIN : fallback.decide(request);
    }

    /** Whether the request failed because its timeout ran out (the SDK wraps Reactor's TimeoutException). */
    private static boolean timedOut(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 8; t = t.getCause(), depth++) {
            if (t instanceof TimeoutException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "ElicitationApproval{fallback=" + fallback + "}";
    }

    /** The question as the user reads it: context, action, command words and details, all escaped. */
    static String message(ApprovalRequest request) {
        StringBuilder text = new StringBuilder()
                .append("Approval needed for context ").append(Messages.quote(request.contextName())).append(":\n")
                .append("  action:      ").append(Messages.quote(request.action())).append('\n')
                .append("  permissions: ").append(Messages.permissions(request.permissions())).append('\n');
        if (!request.argv().isEmpty()) {
            text.append("  command:     ")
                    .append(request.argv().stream().map(Messages::quote).collect(Collectors.joining(" ")))
                    .append('\n');
        }
        request.details().ifPresent(details -> {
            text.append("  details:\n");
            List<String> lines = details.lines().toList();
            lines.stream().limit(MAX_DETAIL_LINES).forEach(line -> {
                String quoted = Messages.quote(line);
                text.append("    | ").append(quoted, 1, quoted.length() - 1).append('\n');
            });
            if (lines.size() > MAX_DETAIL_LINES) {
                text.append("    ... (").append(lines.size() - MAX_DETAIL_LINES).append(" more lines)\n");
            }
        });
        return text.append("Approve this action exactly as shown?").toString();
    }

    static boolean approves(ElicitResult answer) {
        return answer != null && answer.action() == ElicitResult.Action.ACCEPT && answer.content() != null
                && Boolean.TRUE.equals(answer.content().get(APPROVE_FIELD));
    }

    private static Map<String, Object> schema() {
        Map<String, Object> approve = new LinkedHashMap<>();
        approve.put("type", "boolean");
        approve.put("title", "Approve");
        approve.put("description", "Allow this action to run exactly as shown");
        approve.put("default", false);
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", Map.of(APPROVE_FIELD, Collections.unmodifiableMap(approve)));
        schema.put("required", List.of(APPROVE_FIELD));
        return Collections.unmodifiableMap(schema);
    }

    /** Builds an {@link ElicitationApproval}. */
    public static final class Builder {

        private ApprovalBackend fallback;

        private Builder() {
        }

        /**
         * Sets the backend that decides when the calling client cannot be asked (default: none, so such
         * requests are refused).
         *
         * @param fallback the fallback, or {@code null} for none
         * @return this builder
         */
        public Builder fallback(ApprovalBackend fallback) {
            this.fallback = fallback;
            return this;
        }

        /**
         * Builds the backend.
         *
         * @return the backend
         */
        public ElicitationApproval build() {
            return new ElicitationApproval(this);
        }
    }
}
