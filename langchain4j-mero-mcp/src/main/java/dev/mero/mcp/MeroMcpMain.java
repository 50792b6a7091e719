package dev.mero.mcp;

import dev.mero.core.path.FileNameEncoding;
import dev.mero.core.InvalidPolicyException;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.SecurityContext;
import dev.mero.core.policy.SecurityPolicy;
import dev.mero.core.policy.ServerSettings;
import dev.mero.core.ops.MeroOperations;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;

/**
 * The command line of the stdio MCP server:
 * <pre>
 * java -jar langchain4j-mero-mcp.jar --policy mero-policy.yaml [--approval-timeout PT2M] [--http [host:]port]
 * </pre>
 *
 * <p>With {@code --http}, the server speaks MCP Streamable HTTP at {@code /mcp} on that interface (default
 * {@value MeroMcpHttpServer#DEFAULT_HOST}) instead of stdio, for the callers the policy's {@code server:} section
 * accepts ({@link MeroMcpHttpServer}); a policy without accepted credentials, or whose JWKS file cannot be read,
 * exits with {@value #EXIT_POLICY}. It serves until the process is stopped.
 *
 * <p>Stdout carries the MCP protocol and nothing else: before anything runs, {@link System#out} is pointed at
 * stderr, so a stray print cannot corrupt the protocol; logs and audit lines go to stderr (or to the policy's
 * audit file). A policy whose store cannot be reached exits with {@value #EXIT_POLICY} as well. The JVM's own output (a {@code SIGQUIT} thread dump, its log warnings) goes to stdout unless the
 * command line says otherwise, and a jar cannot: docs/mcp.md's launch line adds
 * {@code -XX:+DisplayVMOutputToStderr -Xlog:disable -Xlog:all=warning:stderr}. A missing or broken policy exits with status {@value #EXIT_POLICY} and the loader's message
 * on stderr; a wrong command line exits with {@value #EXIT_USAGE}. When the client closes stdin, the server
 * shuts down and exits with status 0.
 */
public final class MeroMcpMain {

    /** Exit status for a policy file that is missing or invalid. */
    public static final int EXIT_POLICY = 1;

    /** Exit status for a wrong command line. */
    public static final int EXIT_USAGE = 2;

    private static final String USAGE = "Usage: java -jar langchain4j-mero-mcp.jar --policy <file.yaml|file.json> "
            + "[--approval-timeout <ISO-8601 duration, default PT2M>] [--http [<host>:]<port>]";

    private MeroMcpMain() {
    }

    /**
     * Runs the server until the client closes stdin.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        Thread warmUp = new Thread(MeroMcpServer::warmUp, "mero-mcp-warm-up");
        warmUp.setDaemon(true);
        warmUp.start(); // beside the policy loading, on the second core
        OutputStream protocol = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out));
        System.setOut(System.err);
        int status;
        try {
            status = run(args, System.err, System.in, protocol);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            status = EXIT_POLICY;
        }
        System.err.flush();
        System.exit(status);
    }

    static int run(String[] args, PrintStream err, InputStream in, OutputStream out) throws InterruptedException {
        Path policy = null;
        Duration approvalTimeout = MeroMcpServer.DEFAULT_APPROVAL_TIMEOUT;
        String http = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            switch (arg) {
                case "-h", "--help" -> {
                    err.println(USAGE);
                    return 0;
                }
                case "--policy", "--approval-timeout", "--http" -> {
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            return usage(err, arg + " needs a value");
                        }
                        value = args[++i];
                    }
                    if (arg.equals("--http")) {
                        http = value;
                        if (HttpAddress.parse(http) == null) {
                            return usage(err, "--http " + value + " is not [<host>:]<port> (port 1-65535)");
                        }
                    } else if (arg.equals("--policy")) {
                        try {
                            policy = Path.of(value);
                        } catch (InvalidPathException e) {
                            return usage(err, "--policy " + value + " is not a file name");
                        }
                    } else {
                        try {
                            approvalTimeout = Duration.parse(value);
                        } catch (DateTimeParseException e) {
                            return usage(err, "--approval-timeout " + value + " is not an ISO-8601 duration such as PT2M");
                        }
                        if (approvalTimeout.isZero() || approvalTimeout.isNegative()) {
                            return usage(err, "--approval-timeout must be positive");
                        }
                    }
                }
                default -> {
                    return usage(err, "unknown argument " + args[i]);
                }
            }
        }
        if (policy == null) {
            return usage(err, "--policy is required");
        }
        SecurityContext context;
        try {
            context = MeroMcpServer.loadPolicy(policy);
        } catch (InvalidPolicyException | PolicyStoreUnavailableException e) {
            err.println(MeroMcpServer.NAME + ": " + e.getMessage());
            return EXIT_POLICY;
        }
        // clients often start servers without a locale: say so once, where the operator looks (stderr)
        FileNameEncoding.startupWarning().ifPresent(warning -> err.println(MeroMcpServer.NAME + ": warning: " + warning));
        MeroMcpServer server = MeroMcpServer.builder(MeroOperations.forContext(context))
                .approvalTimeout(approvalTimeout)
                .build();
        if (http != null) {
            return serveHttp(server, policy, HttpAddress.parse(http), err);
        }
        server.serveStdio(in, out);
        return 0;
    }

    private static int serveHttp(MeroMcpServer server, Path policy, HttpAddress address, PrintStream err)
            throws InterruptedException {
        ServerSettings settings;
        try {
            settings = SecurityPolicy.serverSettings(policy).orElse(null);
        } catch (InvalidPolicyException e) {
            err.println(MeroMcpServer.NAME + ": " + e.getMessage());
            return EXIT_POLICY;
        }
        if (settings == null || !settings.acceptsCredentials()) {
            err.println(MeroMcpServer.NAME + ": --http needs the policy's server.auth section (api_keys or jwt): "
                    + "an HTTP server without credentials would serve nobody");
            return EXIT_POLICY;
        }
        MeroMcpHttpServer httpServer = MeroMcpHttpServer.builder(server, settings)
                .host(address.host()).port(address.port()).build();
        try {
            httpServer.start();
        } catch (IllegalArgumentException e) {
            err.println(MeroMcpServer.NAME + ": " + e.getMessage());
            return EXIT_POLICY;
        } catch (IOException e) {
            err.println(MeroMcpServer.NAME + ": cannot listen on " + address.host() + ":" + address.port() + ": "
                    + e.getMessage());
            return EXIT_POLICY;
        }
        err.println(MeroMcpServer.NAME + ": serving MCP at " + httpServer.endpoint());
        Runtime.getRuntime().addShutdownHook(new Thread(httpServer::close, "mero-http-stop"));
        httpServer.join();
        return 0;
    }

    /** {@code --http}'s value: {@code port}, {@code host:port} or {@code [v6-address]:port}. */
    record HttpAddress(String host, int port) {

        static HttpAddress parse(String text) {
            String host = MeroMcpHttpServer.DEFAULT_HOST;
            String port = text;
            int colon = text.lastIndexOf(':');
            if (colon >= 0) {
                host = text.substring(0, colon);
                port = text.substring(colon + 1);
                if (host.startsWith("[") && host.endsWith("]")) {
                    host = host.substring(1, host.length() - 1);
                }
                if (host.isEmpty() || host.contains("[") || host.contains("]")
                        || (host.contains(":") && !text.startsWith("["))) {
                    return null;
                }
            }
            if (!port.matches("[0-9]{1,5}")) {
                return null;
            }
            int number = Integer.parseInt(port);
            return number >= 1 && number <= 65535 ? new HttpAddress(host, number) : null;
        }
    }

    private static int usage(PrintStream err, String problem) {
        err.println(MeroMcpServer.NAME + ": " + problem);
        err.println(USAGE);
        return EXIT_USAGE;
    }
}
