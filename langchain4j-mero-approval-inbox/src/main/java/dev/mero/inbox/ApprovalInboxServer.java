package dev.mero.inbox;

import dev.mero.core.message.Messages;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.security.SecurityHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * The approval inbox on an embedded Jetty 12, for applications without a servlet container of their own (an
 * agent in a terminal, a worker process): binds to loopback by default and refuses any other address unless
 * the inbox {@link ApprovalInboxServlet#authenticates() authenticates} approvers or a Jetty security handler
 * is given. Needs {@code org.eclipse.jetty.ee10:jetty-ee10-servlet} on the class path (an optional dependency
 * of this module).
 *
 * <pre>{@code
 * try (ApprovalInboxServer server = ApprovalInboxServer.builder().servlet(inbox).port(0).start()) {
 *     System.out.println("Approve at " + server.uri());
 *     ...
 * }
 * }</pre>
 */
public final class ApprovalInboxServer implements AutoCloseable {

    private final Server server;
    private final URI uri;

    private ApprovalInboxServer(Server server, URI uri) {
        this.server = server;
        this.uri = uri;
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
     * The page's address, for example {@code http://127.0.0.1:43817/mero/approvals}.
     *
     * @return the address
     */
    public URI uri() {
        return uri;
    }

    /** Stops the server; waiting requests stay in the store. */
    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("The approval inbox server did not stop cleanly", e);
        }
    }

    /** Builds and starts an {@link ApprovalInboxServer}; the servlet is required. */
    public static final class Builder {

        private ApprovalInboxServlet servlet;
        private String host = "127.0.0.1";
        private int port;
        private String path = ApprovalInboxServlet.DEFAULT_PATH;
        private SecurityHandler securityHandler;

        private Builder() {
        }

        /**
         * Sets the inbox to serve.
         *
         * @param servlet the inbox
         * @return this builder
         */
        public Builder servlet(ApprovalInboxServlet servlet) {
            this.servlet = Objects.requireNonNull(servlet, "servlet");
            return this;
        }

        /**
         * Sets the address to bind (default {@code 127.0.0.1}); a non-loopback one needs authentication.
         *
         * @param host an address literal or a host name
         * @return this builder
         */
        public Builder host(String host) {
            this.host = Objects.requireNonNull(host, "host");
            return this;
        }

        /**
         * Sets the port (default 0: any free port, see {@link ApprovalInboxServer#uri()}).
         *
         * @param port 0 to 65535
         * @return this builder
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("Invalid port " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * Sets the page's path (default {@value ApprovalInboxServlet#DEFAULT_PATH}).
         *
         * @param path an absolute path without a trailing slash
         * @return this builder
         */
        public Builder path(String path) {
            if (path == null || !path.matches("(/[A-Za-z0-9._~-]+)+")) {
                throw new IllegalArgumentException("Invalid inbox path " + Messages.quote(path)
                        + "; use something like " + ApprovalInboxServlet.DEFAULT_PATH);
            }
            this.path = path;
            return this;
        }

        /**
         * Protects the page with Jetty's security (for example a {@code ConstraintSecurityHandler} with a login
         * service); the request's principal is then the approver.
         *
         * @param securityHandler the security handler
         * @return this builder
         */
        public Builder securityHandler(SecurityHandler securityHandler) {
            this.securityHandler = Objects.requireNonNull(securityHandler, "securityHandler");
            return this;
        }

        /**
         * Starts the server.
         *
         * @return the running server
         * @throws IllegalStateException if the address is not loopback and nothing authenticates approvers, or the
         *                               server cannot start
         */
        public ApprovalInboxServer start() {
            if (servlet == null) {
                throw new IllegalArgumentException("ApprovalInboxServer needs the inbox; call servlet(...) on the builder");
            }
            InetAddress address;
            try {
                address = InetAddress.getByName(host);
            } catch (UnknownHostException e) {
                throw new IllegalStateException("The approval inbox cannot bind " + Messages.quote(host)
                        + ": unknown host", e);
            }
            if (!address.isLoopbackAddress() && securityHandler == null && !servlet.authenticates()) {
                throw new IllegalStateException("The approval inbox refuses to listen on " + Messages.quote(host)
                        + ", which is not a loopback address, without authentication: configure an authenticator, "
                        + "a required role with a security handler, or bind 127.0.0.1.");
            }
            Server server = new Server();
            ServerConnector connector = new ServerConnector(server);
            connector.setHost(address.getHostAddress());
            connector.setPort(port);
            server.addConnector(connector);
            ServletContextHandler context = new ServletContextHandler("/");
            context.addServlet(new ServletHolder("mero-approval-inbox", servlet), path);
            if (securityHandler != null) {
                context.setSecurityHandler(securityHandler);
            }
            server.setHandler(context);
            try {
                server.start();
            } catch (Exception e) {
                try {
                    server.stop();
                } catch (Exception ignored) {
                    // the start failure is what matters
                }
                throw new IllegalStateException("The approval inbox could not start on " + Messages.quote(host)
                        + ":" + port + ": " + e.getMessage(), e);
            }
            String literal = address.getHostAddress().contains(":") ? "[" + address.getHostAddress() + "]"
                    : address.getHostAddress();
            return new ApprovalInboxServer(server, URI.create("http://" + literal + ":" + connector.getLocalPort() + path));
        }
    }
}
