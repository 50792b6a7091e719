package dev.mero.mcp;

import dev.mero.core.policy.ServerSettings;
import dev.mero.core.ops.CallerNarrowing;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.BlockingArrayQueue;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Serves a {@link MeroMcpServer} over MCP Streamable HTTP at {@value #ENDPOINT}, for many callers: the SDK's own
 * servlet transport ({@link HttpServletStreamableServerTransportProvider}) on embedded Jetty, behind a gate that
 * authenticates every request with the policy's {@code server.auth} credentials (API keys, JWTs).
 *
 * <pre>{@code
 * Path policy = Path.of("mero-policy.yaml");
 * MeroMcpServer tools = MeroMcpServer.builder(MeroOperations.forContext(MeroMcpServer.loadPolicy(policy))).build();
 * try (MeroMcpHttpServer http = MeroMcpHttpServer.builder(tools, SecurityPolicy.serverSettings(policy).orElseThrow())
 *         .port(8080).build()) {
 *     http.start();
 *     http.join();
 * }
 * }</pre>
 *
 * <p>Each call runs as its caller: the policy's context narrowed to the caller's name and the scopes of its
 * credential ({@link CallerNarrowing}), so it never gets more than the policy, nor more than its scopes. A session
 * belongs to the principal that opened it; requests are bounded (body {@value #MAX_BODY_BYTES} bytes, headers
 * {@value #MAX_HEADER_BYTES} bytes, {@value #SESSIONS_PER_CALLER} sessions and {@value #CALLS_PER_CALLER} calls in
 * flight per caller). {@value #METADATA_PATH} serves the RFC 9728 protected-resource metadata. Plain HTTP: put TLS
 * in front (a reverse proxy) for anything beyond the loopback interface.
 */
public final class MeroMcpHttpServer implements AutoCloseable {

    /** The MCP endpoint's path. */
    public static final String ENDPOINT = "/mcp";
    /** The path of the OAuth protected-resource metadata (RFC 9728). */
    public static final String METADATA_PATH = "/.well-known/oauth-protected-resource";
    /** The default interface: the loopback one, so nothing outside the machine can connect unless told. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** The largest request body accepted. */
    public static final int MAX_BODY_BYTES = 1024 * 1024;
    /** The largest request header block accepted (Jetty answers 431 beyond it). */
    public static final int MAX_HEADER_BYTES = 16 * 1024;
    /** The most sessions one caller may hold open. */
    public static final int SESSIONS_PER_CALLER = 32;
    /** The most requests of one caller served at once. */
    public static final int CALLS_PER_CALLER = 64;
    /** How long an unused session is kept. */
    public static final Duration SESSION_IDLE = Duration.ofMinutes(30);
    private static final int MAX_THREADS = 200;
    private static final int MAX_QUEUED = 256;

    private final MeroMcpServer tools;
    private final ServerSettings settings;
    private final String host;
    private final int port;
    private final Clock clock;
    private Server jetty;
    private McpSyncServer mcp;
    private SdkSweeper sweeper;

    private MeroMcpHttpServer(Builder builder) {
        this.tools = builder.tools;
        this.settings = builder.settings;
        this.host = builder.host;
        this.port = builder.port;
        this.clock = builder.clock;
    }

    /**
     * Starts a builder.
     *
     * @param tools    the MCP server whose tools to serve
     * @param settings the policy's {@code server:} section; it must accept some credential
     * @return a new builder
     */
    public static Builder builder(MeroMcpServer tools, ServerSettings settings) {
        return new Builder(tools, settings);
    }

    /**
     * Binds the port and starts serving.
     *
     * @throws IllegalArgumentException if the JWKS file cannot be read
     * @throws IOException              if the port cannot be bound
     */
    public synchronized void start() throws IOException {
        if (jetty != null) {
            throw new IllegalStateException("already started");
        }
        HttpAuthenticator authenticator = new HttpAuthenticator(settings, clock); // a bad JWKS stops here
        // a bounded queue: beyond it Jetty refuses work instead of queueing without end
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 4, 60_000,
                new BlockingArrayQueue<>(MAX_QUEUED, MAX_QUEUED, MAX_QUEUED * 4));
        threads.setName("mero-http");
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setRequestHeaderSize(MAX_HEADER_BYTES);
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        ErrorHandler quiet = new ErrorHandler();
        quiet.setShowStacks(false);
        quiet.setShowCauses(false);
        quiet.setShowMessageInTitle(false);
        server.setErrorHandler(quiet);

        SdkSweeper.Built<HttpServletStreamableServerTransportProvider> built = SdkSweeper.build(
                () -> HttpServletStreamableServerTransportProvider.builder()
                        .jsonMapper(new HttpMessageMapper(tools.mapper(),
                                name -> ToolBinding.result(tools.operations().unoffered(name))))
                        .mcpEndpoint(ENDPOINT)
                        .maxRequestSize(MAX_BODY_BYTES)
                        .contextExtractor(MeroMcpHttpServer::callerContext)
                        .build());
        HttpServletStreamableServerTransportProvider transport = built.value();
        this.sweeper = built.sweeper();
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        org.eclipse.jetty.ee10.servlet.ErrorHandler servletErrors = new org.eclipse.jetty.ee10.servlet.ErrorHandler();
        servletErrors.setShowStacks(false);
        servletErrors.setShowMessageInTitle(false);
        context.setErrorHandler(servletErrors);
        ServletHolder endpoint = new ServletHolder("mcp", transport);
        endpoint.setAsyncSupported(true);
        context.addServlet(endpoint, ENDPOINT);
        context.addServlet(new ServletHolder("metadata", new MetadataServlet(this::metadataJson)), METADATA_PATH);

        FilterHolder gate = new FilterHolder(new HttpGate(new HttpMessageCheck(tools.mapper()), authenticator, settings.allowedOrigins(),
                new SessionOwners(SESSIONS_PER_CALLER, SESSION_IDLE, clock), MAX_BODY_BYTES, CALLS_PER_CALLER,
                () -> baseUrl() + METADATA_PATH));
        gate.setAsyncSupported(true);
        context.addFilter(gate, ENDPOINT, EnumSet.of(DispatcherType.REQUEST));
        server.setHandler(context);

        this.mcp = tools.startStreamable(transport);
        this.jetty = server;
        try {
            server.start();
        } catch (Exception e) {
            close();
            throw e instanceof IOException io ? io : new IOException("The HTTP server did not start: " + e.getMessage(), e);
        }
    }

    /**
     * The port the server listens on (the bound one when built with port 0).
     *
     * @return the port
     */
    public synchronized int port() {
        if (jetty == null) {
            throw new IllegalStateException("not started");
        }
        return ((ServerConnector) jetty.getConnectors()[0]).getLocalPort();
    }

    /**
     * The URL of the MCP endpoint, e.g. {@code http://127.0.0.1:8080/mcp}.
     *
     * @return the URL
     */
    public String endpoint() {
        return baseUrl() + ENDPOINT;
    }

    /**
     * Waits until the server stops.
     *
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public void join() throws InterruptedException {
        Server server;
        synchronized (this) {
            server = jetty;
        }
        if (server != null) {
            server.join();
        }
    }

    /** Stops serving: open sessions end, the port is released. */
    @Override
    public synchronized void close() {
        if (mcp != null) {
            mcp.close();
            mcp = null;
        }
        if (sweeper != null) {
            sweeper.shutdown(); // the SDK disposes the sweeps, never their thread
        }
        if (jetty != null) {
            try {
                jetty.stop();
            } catch (Exception e) {
                throw new IllegalStateException("The HTTP server did not stop cleanly", e);
            } finally {
                jetty = null;
            }
        }
    }

    /** The thread of the SDK's session sweeps, once started. */
    synchronized SdkSweeper sweeper() {
        return sweeper;
    }

    /** The MCP server whose tools this serves. */
    MeroMcpServer tools() {
        return tools;
    }

    private String baseUrl() {
        String shown = host.contains(":") ? "[" + host + "]" : host;
        return "http://" + shown + ":" + port();
    }

    /** The caller the gate authenticated, as the entries {@link CallerNarrowing} reads. */
    static McpTransportContext callerContext(HttpServletRequest request) {
        if (!(request.getAttribute(HttpGate.CALLER_ATTRIBUTE) instanceof HttpCaller caller)) {
            // not through the gate: no identity, and so no tool runs as anybody
            return McpTransportContext.create(Map.of(CallerNarrowing.CALLER, "", CallerNarrowing.SCOPES, List.of()));
        }
        Map<String, Object> entries = new HashMap<>();
        entries.put(CallerNarrowing.CALLER, caller.name());
        if (caller.scopes() != null) {
            entries.put(CallerNarrowing.SCOPES, caller.scopes());
        }
        return McpTransportContext.create(entries);
    }

    /** RFC 9728 metadata: the resource, who issues its tokens, and the scopes it knows. */
    private Map<String, Object> metadata() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("resource", settings.jwt().map(ServerSettings.Jwt::audience).orElse(endpoint()));
        metadata.put("authorization_servers", settings.jwt().map(jwt -> List.of(jwt.issuer())).orElse(List.of()));
        TreeSet<String> scopes = new TreeSet<>();
        settings.apiKeys().forEach(key -> key.scopes().ifPresent(scopes::addAll));
        tools.operations().context().scopes().grants().forEach(scope -> scopes.add(scope.toString()));
        metadata.put("scopes_supported", List.copyOf(scopes));
        metadata.put("bearer_methods_supported", List.of("header"));
        return metadata;
    }

    private String metadataJson() {
        try {
            return tools.mapper().writeValueAsString(metadata());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Serves the metadata document. */
    private static final class MetadataServlet extends HttpServlet {

        private static final long serialVersionUID = 1L;
        private final transient java.util.function.Supplier<String> metadata;

        MetadataServlet(java.util.function.Supplier<String> metadata) {
            this.metadata = metadata;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            byte[] body = metadata.get().getBytes(StandardCharsets.UTF_8);
            response.setContentType("application/json");
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }

    /** Builds a {@link MeroMcpHttpServer}. */
    public static final class Builder {

        private final MeroMcpServer tools;
        private final ServerSettings settings;
        private String host = DEFAULT_HOST;
        private int port = 8080;
        private Clock clock = Clock.systemUTC();

        private Builder(MeroMcpServer tools, ServerSettings settings) {
            this.tools = Objects.requireNonNull(tools, "tools");
            this.settings = Objects.requireNonNull(settings, "settings");
            if (!settings.acceptsCredentials()) {
                throw new IllegalArgumentException("The policy's server.auth section accepts no credential "
                        + "(no api_keys, no jwt): an HTTP server would serve nobody");
            }
        }

        /**
         * Sets the interface to listen on (default {@value MeroMcpHttpServer#DEFAULT_HOST}).
         *
         * @param host a host name or address
         * @return this builder
         */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /**
         * Sets the port (default 8080; 0 picks a free one, see {@link MeroMcpHttpServer#port()}).
         *
         * @param port 0 to 65535
         * @return this builder
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("Port " + port + " is not between 0 and 65535");
            }
            this.port = port;
            return this;
        }

        Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Builds the server; {@link MeroMcpHttpServer#start()} starts it.
         *
         * @return the server
         */
        public MeroMcpHttpServer build() {
            return new MeroMcpHttpServer(this);
        }
    }
}
