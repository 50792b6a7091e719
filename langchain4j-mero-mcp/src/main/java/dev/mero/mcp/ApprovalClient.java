package dev.mero.mcp;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;

/** The MCP client of one tool call, as far as approvals need it: can it ask its user, and ask. */
interface ApprovalClient {

    /** Whether the client declared form elicitation (an empty {@code elicitation} capability means form). */
    boolean canElicit();

    /** Asks the client's user; blocks until the answer or the server's request timeout. */
    ElicitResult elicit(ElicitFormRequest request);

    /** The client behind a server exchange. */
    static ApprovalClient of(McpSyncServerExchange exchange) {
        return new ApprovalClient() {
            @Override
            public boolean canElicit() {
                ClientCapabilities capabilities = exchange.getClientCapabilities();
                return capabilities != null && capabilities.elicitation() != null
                        && (capabilities.elicitation().form() != null || capabilities.elicitation().url() == null);
            }

            @Override
            public ElicitResult elicit(ElicitFormRequest request) {
                return exchange.createElicitation(request);
            }
        };
    }
}
