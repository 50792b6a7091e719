/**
 * The MCP binding of the mero tool catalogue: {@link dev.mero.mcp.MeroMcpServer} publishes the tools a
 * {@link dev.mero.core.SecurityContext} can use as MCP tools, and {@link dev.mero.mcp.MeroMcpMain} runs them as
 * a stdio MCP server for one policy file ({@code java -jar langchain4j-mero-mcp.jar --policy mero-policy.yaml}).
 *
 * <p>What the binding guarantees:
 * <ul>
 *   <li>the tools, their parameters, descriptions and hints come from the core's catalogue, and only the tools
 *       the policy can ever use are listed;</li>
 *   <li>a denial or an ordinary failure is a tool result with {@code isError: true} and the core's
 *       {@code Denied: ...}/{@code Error: ...} text; a bug is a JSON-RPC internal error that says nothing
 *       more than {@code Internal error};</li>
 *   <li>client roots are ignored: the policy alone decides what is reachable, a client can never widen it;</li>
 *   <li>where the policy requires approval, {@link dev.mero.mcp.ElicitationApproval} asks the client's user
 *       through MCP elicitation, and otherwise falls back to the policy's own backend (deny when none).</li>
 * </ul>
 */
package dev.mero.mcp;
