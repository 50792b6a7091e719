package dev.mero.mcp;

import dev.mero.core.error.ErrorCode;
import dev.mero.core.error.ToolError;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything the HTTP transport checks before the SDK's servlet sees a request, in this order:
 * <ol>
 *   <li>an {@code Origin} header not in {@code server.allowed_origins}: 403 (DNS rebinding: a web page must not
 *       reach a server on the user's machine);</li>
 *   <li>no credential, or one that is not accepted: 401 with {@code WWW-Authenticate: Bearer resource_metadata=...}
 *       and the {@code auth_failed} {@link ToolError} as the body;</li>
 *   <li>a body declared larger than the bound: 413;</li>
 *   <li>an {@code Mcp-Session-Id} that this principal did not open (another caller's, or unknown): 404; a new
 *       session beyond the principal's bound: 429;</li>
 *   <li>a body that is no single valid JSON-RPC message (400, a JSON-RPC parse error or invalid request), or a
 *       request that needs a params object without one (400, invalid params): {@link HttpMessageCheck};</li>
 *   <li>more calls in flight for this principal than its bound: 429 {@code rate_limited}.</li>
 * </ol>
 * A failure of the servlet itself is answered with the {@code internal_error} envelope, which says nothing more.
 * The caller goes on as a request attribute, from which the transport's context extractor takes it.
 */
final class HttpGate implements Filter {

    static final String CALLER_ATTRIBUTE = HttpCaller.class.getName();
    static final String SESSION_HEADER = "Mcp-Session-Id";
    private static final int MAX_TRACKED_PRINCIPALS = 4096;
    /** How much of a body refused before it was read is read and dropped to keep the connection usable. */
    static final long UNREAD_BODY_DRAIN = 64 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(HttpGate.class);

    private final HttpAuthenticator authenticator;
    private final List<String> allowedOrigins;
    private final SessionOwners sessions;
    private final long maxBodyBytes;
    private final int callsInFlight;
    private final java.util.function.Supplier<String> resourceMetadata;
    private final Map<String, Semaphore> inFlight = new ConcurrentHashMap<>();
    private final HttpMessageCheck messages;

    HttpGate(HttpMessageCheck messages, HttpAuthenticator authenticator, List<String> allowedOrigins, SessionOwners sessions, long maxBodyBytes,
             int callsInFlight, java.util.function.Supplier<String> resourceMetadata) {
        this.messages = messages;
        this.authenticator = authenticator;
        this.allowedOrigins = List.copyOf(allowedOrigins);
        this.sessions = sessions;
        this.maxBodyBytes = maxBodyBytes;
        this.callsInFlight = callsInFlight;
        this.resourceMetadata = resourceMetadata;
    }

    @Override
    public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) servletRequest;
        HttpServletResponse response = (HttpServletResponse) servletResponse;
        String origin = request.getHeader("Origin");
        if (origin != null && !allowedOrigins.contains(origin.toLowerCase(Locale.ROOT))) {
            LOG.warn("Refused a request from origin {}", origin);
            refuseUnread(request, response, 403, ToolError.of(ErrorCode.DENIED, "Denied: requests from this web "
                    + "origin are not allowed (server.allowed_origins)."), null);
            return;
        }
        HttpCaller caller;
        try {
            caller = authenticator.authenticate(request.getHeader("Authorization"));
        } catch (AuthenticationFailure failure) {
            refuseUnread(request, response, 401, ToolError.of(ErrorCode.AUTH_FAILED, "Authentication failed: "
                    + failure.getMessage()), "Bearer resource_metadata=\"" + resourceMetadata.get() + "\""
                    + (failure.presented() ? ", error=\"invalid_token\"" : ""));
            return;
        }
        if (request.getContentLengthLong() > maxBodyBytes) {
            refuse(response, 413, !discardBody(request, 2 * maxBodyBytes), ToolError.of(ErrorCode.INVALID_INPUT,
                    "Error: Invalid input: the request body is larger than " + maxBodyBytes + " bytes."), null);
            return;
        }
        String session = request.getHeader(SESSION_HEADER);
        boolean post = request.getMethod().equals("POST");
        if (session != null) {
            if (!sessions.owns(session, caller.principal())) {
                refuseUnread(request, response, 404, ToolError.of(ErrorCode.INVALID_INPUT, "Error: Invalid input: "
                        + "no such session for this caller; start a new one with initialize."), null);
                return;
            }
        } else if (post && !sessions.mayOpen(caller.principal())) {
            refuseUnread(request, response, 429, ToolError.builder().errorCode(ErrorCode.RATE_LIMITED)
                    .message("Error: too many open sessions for caller '" + caller.name() + "'; close one (DELETE) "
                            + "or let it expire.").retryAfterSeconds(60).build(), null);
            return;
        }
        request.setAttribute(CALLER_ATTRIBUTE, caller);
        if (post) {
            BufferedRequest buffered = BufferedRequest.read(request, (int) maxBodyBytes);
            if (buffered == null) {
                refuse(response, 413, !discardBody(request, maxBodyBytes), ToolError.of(ErrorCode.INVALID_INPUT,
                        "Error: Invalid input: the request body is larger than " + maxBodyBytes + " bytes."), null);
                return;
            }
            Map<String, Object> invalid = messages.invalid(buffered.body());
            if (invalid != null) {
                writeJson(response, 400, invalid);
                return;
            }
            request = buffered;
        }
        if (!post) {
            chain.doFilter(request, response);
            if (session != null && request.getMethod().equals("DELETE") && response.getStatus() < 300) {
                sessions.closed(session);
            }
            return;
        }
        if (inFlight.size() > MAX_TRACKED_PRINCIPALS) {
            // forget the idle ones: one semaphore per principal ever seen would grow without end
            inFlight.values().removeIf(idle -> idle.availablePermits() == callsInFlight);
        }
        Semaphore calls = inFlight.computeIfAbsent(caller.principal(), p -> new Semaphore(callsInFlight));
        if (!calls.tryAcquire()) {
            refuse(response, 429, false, ToolError.builder().errorCode(ErrorCode.RATE_LIMITED)
                    .message("Error: too many calls in flight for caller '" + caller.name() + "' (at most "
                            + callsInFlight + "); wait for one to finish.").retryAfterSeconds(1).build(), null);
            return;
        }
        AtomicBoolean released = new AtomicBoolean();
        Runnable release = () -> {
            if (released.compareAndSet(false, true)) {
                calls.release();
            }
        };
        try {
            chain.doFilter(request, session == null ? new SessionCapture(response, caller, sessions) : response);
        } catch (IOException | ServletException | RuntimeException e) {
            LOG.error("The MCP servlet failed on a request of caller {}; the client gets an internal error",
                    caller.name(), e);
            refuse(response, 500, false, ToolError.from(e), null);
        } finally {
            if (request.isAsyncStarted()) {
                request.getAsyncContext().addListener(new AsyncListener() {
                    @Override
                    public void onComplete(AsyncEvent event) {
                        release.run();
                    }

                    @Override
                    public void onTimeout(AsyncEvent event) {
                        release.run();
                    }

                    @Override
                    public void onError(AsyncEvent event) {
                        release.run();
                    }

                    @Override
                    public void onStartAsync(AsyncEvent event) {
                        // still the same call
                    }
                });
            } else {
                release.run();
            }
        }
    }

    /** Writes a JSON body with a status. */
    private void writeJson(HttpServletResponse response, int status, Object body) throws IOException {
        byte[] bytes = messages.json(body).getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("application/json");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /**
     * Refuses a request whose body nobody has read yet. The body is read and dropped first, up to
     * {@link #UNREAD_BODY_DRAIN} bytes: Jetty closes a connection whose request body is left unread after the
     * response, without saying so in the response, and a client that sends its next request on that kept-alive
     * connection then finds it closed. A body beyond the bound is not read; the refusal then says
     * {@code Connection: close}, so the client opens a new connection instead.
     */
    private static void refuseUnread(HttpServletRequest request, HttpServletResponse response, int status,
                                     ToolError error, String challenge) throws IOException {
        long declared = request.getContentLengthLong();
        boolean drained = declared <= UNREAD_BODY_DRAIN && discardBody(request, UNREAD_BODY_DRAIN);
        refuse(response, status, !drained, error, challenge);
    }

    /**
     * Reads and drops what is left of a refused request's body, up to a bound, before the refusal is written.
     * A server that answers and closes while the client still sends makes the kernel reset the connection,
     * and the client then sees a reset instead of the refusal; past the bound the connection is closed anyway.
     *
     * @return whether the body was read to its end within the bound
     */
    private static boolean discardBody(HttpServletRequest request, long bound) {
        try {
            InputStream in = request.getInputStream();
            long left = bound;
            byte[] scratch = new byte[8192];
            while (true) {
                int read = in.read(scratch, 0, (int) Math.min(scratch.length, Math.max(left, 1)));
                if (read < 0) {
                    return true;
                }
                left -= read;
                if (left < 0) {
                    return false;
                }
            }
        } catch (IOException | IllegalStateException gone) {
            // the client went away or the body was taken already: the refusal is written or dropped as before
            return false;
        }
    }

    /** Writes a refusal: the status, the envelope as JSON, and the authentication challenge if any. */
    static void refuse(HttpServletResponse response, int status, boolean close, ToolError error, String challenge)
            throws IOException {
        if (response.isCommitted()) {
            return;
        }
        response.reset();
        response.setStatus(status);
        if (close) {
            response.setHeader("Connection", "close");
        }
        if (challenge != null) {
            response.setHeader("WWW-Authenticate", challenge);
        }
        if (error.retryAfterSeconds() != null) {
            response.setHeader("Retry-After", String.valueOf(error.retryAfterSeconds()));
        }
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        byte[] body = error.toJson().getBytes(StandardCharsets.UTF_8);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** Records the session id the SDK gives a new session as owned by the caller that opened it. */
    private static final class SessionCapture extends HttpServletResponseWrapper {

        private final HttpCaller caller;
        private final SessionOwners sessions;

        SessionCapture(HttpServletResponse response, HttpCaller caller, SessionOwners sessions) {
            super(response);
            this.caller = caller;
            this.sessions = sessions;
        }

        @Override
        public void setHeader(String name, String value) {
            capture(name, value);
            super.setHeader(name, value);
        }

        @Override
        public void addHeader(String name, String value) {
            capture(name, value);
            super.addHeader(name, value);
        }

        private void capture(String name, String value) {
            if (SESSION_HEADER.equalsIgnoreCase(name) && value != null) {
                sessions.opened(value, caller.principal());
            }
        }
    }
}
