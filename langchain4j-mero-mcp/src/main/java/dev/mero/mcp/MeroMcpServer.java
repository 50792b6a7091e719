package dev.mero.mcp;

import dev.mero.core.InvalidPolicyException;
import dev.mero.core.SecurityContext;
import dev.mero.core.policy.SecurityPolicy;
import dev.mero.core.approval.ApprovalBackend;
import dev.mero.core.approval.ConsoleApproval;
import dev.mero.core.ops.CallerNarrowing;
import dev.mero.core.ops.MeroOperations;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import io.modelcontextprotocol.spec.McpStreamableServerTransportProvider;
import io.modelcontextprotocol.json.TypeRef;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * Serves the tools of one {@link MeroOperations} over MCP.
 *
 * <pre>{@code
 * SecurityContext context = MeroMcpServer.loadPolicy(Path.of("mero-policy.yaml"));
 * MeroMcpServer server = MeroMcpServer.builder(MeroOperations.forContext(context)).build();
 * server.serveStdio(System.in, System.out);        // until the client closes stdin
 * // or on a transport of your own:
 * McpSyncServer running = server.start(transportProvider);
 * }</pre>
 *
 * <p>The tools are {@link MeroOperations#availableTools()}: the catalogue's names, descriptions and input
 * schemas, with the hints as MCP tool annotations. A call's arguments are checked by the core
 * ({@code Error: Invalid input: ...} results), not by the SDK's schema validation, so a malformed call gets
 * the same text in every binding. A {@link dev.mero.core.MeroToolsException} becomes a result with
 * {@code isError: true} and its {@code Denied: ...}/{@code Error: ...} text; any other exception becomes a
 * JSON-RPC internal error whose message is only {@code Internal error} (the details go to the log, on stderr).
 * Params of the wrong shape (an {@code arguments} array) are a JSON-RPC "invalid params" error. A call of a tool
 * the server does not list is answered like every other refusal: a result with {@code isError: true} whose
 * text names the tool ({@link MeroOperations#unoffered(String)}), the same text the other bindings give.
 *
 * <p>Client roots are ignored: the policy alone decides what the tools reach, and a client cannot widen it.
 * Requests are served concurrently; approvals that wait for a human hold only their own call.
 */
public final class MeroMcpServer {

    /** The server name announced to clients. */
    public static final String NAME = "langchain4j-mero-mcp";

    /** Default time a client's user has to answer an approval question. */
    public static final Duration DEFAULT_APPROVAL_TIMEOUT = Duration.ofMinutes(2);

    private static final Logger LOG = LoggerFactory.getLogger(MeroMcpServer.class);

    private final MeroOperations operations;
    private final CallerNarrowing callers;
    private final Duration approvalTimeout;
    private final String version;
    private final McpJsonMapper mapper = Json.MAPPER;

    private MeroMcpServer(Builder builder) {
        this.operations = builder.operations;
        this.callers = new CallerNarrowing(builder.operations);
        this.approvalTimeout = builder.approvalTimeout;
        this.version = builder.version;
    }

    /**
     * Starts a builder.
     *
     * @param operations the operations to serve, bound to their security context
     * @return a new builder
     */
    public static Builder builder(MeroOperations operations) {
        return new Builder(operations);
    }

    /**
     * Loads a policy file into the context an MCP server needs: approvals go to the calling client through
     * {@link ElicitationApproval}, with the policy's own backend as the fallback for clients that cannot be
     * asked. A {@code console} backend is dropped (deny instead): on a stdio server the terminal's input is the
     * protocol channel.
     *
     * @param policyFile a {@code .yaml}, {@code .yml} or {@code .json} policy file
     * @return the context
     * @throws InvalidPolicyException if the file cannot be read or is not a valid policy
     */
    public static SecurityContext loadPolicy(Path policyFile) {
        SecurityContext.Builder policy = SecurityPolicy.read(policyFile);
        try {
            ApprovalBackend configured = policy.build().approval().orElse(null);
            if (configured instanceof ConsoleApproval) {
                LOG.warn("Approval backend 'console' is not available to an MCP server (stdin carries the "
                        + "protocol): clients without elicitation get a refusal instead");
                configured = null;
            }
            return policy.approval(ElicitationApproval.builder().fallback(configured).build()).build();
        } catch (IllegalArgumentException e) {
            throw new InvalidPolicyException(policyFile, null, e.getMessage(), e);
        }
    }

    /**
     * The MCP tools this server lists, in catalogue order.
     *
     * @return the tools
     */
    public List<McpSchema.Tool> tools() {
        return bindings().stream().map(binding -> binding.tool(mapper)).toList();
    }

    /**
     * Builds the MCP server on a transport; it serves until closed.
     *
     * @param transport the transport provider, for instance a {@link StdioServerTransportProvider}
     * @return the running server
     */
    public McpSyncServer start(McpServerTransportProvider transport) {
        Objects.requireNonNull(transport, "transport");
        return server(transport instanceof GuardedTransportProvider guarded ? guarded
                : new GuardedTransportProvider(transport), false);
    }

    /**
     * Serves over stdio until the client closes the input, then shuts down.
     *
     * @param in  the protocol's input (the process's stdin)
     * @param out the protocol's output (the process's stdout); nothing else may write to it
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public void serveStdio(InputStream in, OutputStream out) throws InterruptedException {
        GuardedTransportProvider transport = new GuardedTransportProvider(
                new DirectStdioTransportProvider(mapper, in, out));
        McpSyncServer server = server(transport, true);
        try {
            while (!transport.awaitClosed(1, TimeUnit.HOURS)) {
                LOG.debug("still serving");
            }
        } finally {
            server.closeGracefully();
        }
    }

    /**
     * The server on a transport. {@code callsOnTransportThreads}: tool calls run on the thread that hands the
     * request over, which only a transport that reads on another thread meanwhile may ask for
     * ({@link DirectStdioTransportProvider}); otherwise they run on the SDK's worker threads.
     */
    private McpSyncServer server(GuardedTransportProvider transport, boolean callsOnTransportThreads) {
        transport.answerUnlistedTools(name -> ToolBinding.result(operations.unoffered(name)));
        return configured(McpServer.sync(transport), callsOnTransportThreads);
    }

    /**
     * The server on a Streamable HTTP transport ({@link MeroMcpHttpServer}): each call runs as the caller the
     * transport context names, on the SDK's worker threads.
     */
    McpSyncServer startStreamable(McpStreamableServerTransportProvider transport) {
        return configured(McpServer.sync(transport), false);
    }

    private McpSyncServer configured(McpServer.SyncSpecification<?> specification, boolean callsOnTransportThreads) {
        List<SyncToolSpecification> tools = bindings().stream().map(binding -> binding.specification(mapper)).toList();
        return specification
                .serverInfo(NAME, version)
                .instructions("File and command tools governed by a security policy. Call list_roots first to "
                        + "see which directories are mounted and what each allows. A result starting with "
                        + "'Denied:' is a security decision (try something else); 'Error:' is an ordinary "
                        + "failure (fix the arguments).")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .jsonMapper(mapper)
                .jsonSchemaValidator(new LazySchemaValidator())
                .validateToolInputs(false) // the core checks arguments and words the error for the model
                .requestTimeout(approvalTimeout) // server-to-client requests: the approval questions
                .rootsChangeHandler((exchange, roots) ->
                        LOG.info("Client roots ignored: the policy alone decides what the tools reach"))
                .tools(tools)
                .immediateExecution(callsOnTransportThreads)
                .build();
    }

    /**
     * Loads and links the classes a call goes through outside the core (JSON reading and writing of requests
     * and results, the reactive pipeline), with made-up messages and no effect, so that a thread started at
     * launch does it while the main thread loads the policy: it shortens the time to the first answers.
     */
    static void warmUp() {
        try {
            for (String line : List.of("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                    + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"w\",\"version\":\"1\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"read_file\","
                            + "\"arguments\":{\"path\":\"/w/a.txt\"}}}")) {
                McpSchema.JSONRPCRequest request = (McpSchema.JSONRPCRequest) McpSchema.deserializeJsonRpcMessage(Json.MAPPER, line);
                Object result = Mono.just(request)
                        .map(r -> r.method().equals(McpSchema.METHOD_INITIALIZE)
                                ? Json.MAPPER.convertValue(r.params(), new TypeRef<McpSchema.InitializeRequest>() { })
                                : Json.MAPPER.convertValue(r.params(), new TypeRef<McpSchema.CallToolRequest>() { }))
                        .flatMap(params -> Mono.<Object>just(params instanceof McpSchema.CallToolRequest call
                                ? McpSchema.CallToolResult.builder().addTextContent(call.name()).isError(false).build()
                                : new McpSchema.InitializeResult("2025-06-18",
                                        McpSchema.ServerCapabilities.builder().tools(false).build(),
                                        McpSchema.Implementation.builder(NAME, "w").build(), "w", null)))
                        .onErrorResume(error -> Mono.empty())
                        .block();
                Json.MAPPER.writeValueAsBytes(McpSchema.JSONRPCResponse.result(request.id(), result));
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("Warm-up failed (no harm done)", e);
        }
    }

    /** The operations this server serves, before any caller narrows them. */
    MeroOperations operations() {
        return operations;
    }

    /** The JSON mapper of every message. */
    McpJsonMapper mapper() {
        return mapper;
    }

    private List<ToolBinding> bindings() {
        return operations.availableTools().stream().map(tool -> new ToolBinding(callers, tool)).toList();
    }

    /**
     * One mapper for every server of this JVM (it is immutable and thread-safe), so that warming it up helps; in
     * a class of its own, so that building it (the warm-up thread's first work, some 500 Jackson classes) does not
     * hold up the main thread, which needs this class initialised to read the command line and load the policy.
     */
    private static final class Json {
        static final McpJsonMapper MAPPER = new StrictParamsMapper(new JacksonMcpJsonMapper(ProtocolJackson.mapper()));
    }

    /** Builds a {@link MeroMcpServer}. */
    public static final class Builder {

        private final MeroOperations operations;
        private Duration approvalTimeout = DEFAULT_APPROVAL_TIMEOUT;
        private String version = versionOfThisJar();

        private Builder(MeroOperations operations) {
            this.operations = Objects.requireNonNull(operations, "operations");
        }

        /**
         * Sets how long a client's user has to answer an approval question (default
         * {@link MeroMcpServer#DEFAULT_APPROVAL_TIMEOUT}); no answer in time refuses the action.
         *
         * @param approvalTimeout a positive duration
         * @return this builder
         */
        public Builder approvalTimeout(Duration approvalTimeout) {
            Objects.requireNonNull(approvalTimeout, "approvalTimeout");
            if (approvalTimeout.isZero() || approvalTimeout.isNegative()) {
                throw new IllegalArgumentException("The approval timeout must be positive, got " + approvalTimeout);
            }
            this.approvalTimeout = approvalTimeout;
            return this;
        }

        /**
         * Sets the server version announced to clients (default: this jar's version).
         *
         * @param version the version
         * @return this builder
         */
        public Builder version(String version) {
            this.version = Objects.requireNonNull(version, "version");
            return this;
        }

        /**
         * Builds the server.
         *
         * @return the server
         */
        public MeroMcpServer build() {
            return new MeroMcpServer(this);
        }

        private static String versionOfThisJar() {
            String version = MeroMcpServer.class.getPackage().getImplementationVersion();
            return version != null ? version : "dev";
        }
    }
}
