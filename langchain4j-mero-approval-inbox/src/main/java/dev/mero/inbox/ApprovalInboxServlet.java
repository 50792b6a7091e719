package dev.mero.inbox;

import dev.mero.core.Permission;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.approval.ApprovalDecision;
import dev.mero.core.approval.ApprovalRequest;
import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.approval.CallbackApproval;
import dev.mero.core.approval.StandingApproval;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import dev.mero.core.message.Messages;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The approval inbox as a plain Jakarta servlet: a page that lists the requests waiting in an
 * {@link ApprovalStore} (newest first, with context, action, paths or command line, the diff, age and
 * time-out) and lets a person approve or deny one or several, or approve one and grant a
 * {@link StandingApproval} rule for the caller's writes below a directory for a while. Decisions go through
 * {@link ApprovalStore#complete(String, ApprovalDecision)}, so the waiting call continues at once on whichever
 * instance it waits (with the PostgreSQL store, on any).
 *
 * <pre>{@code
 * ApprovalInboxServlet inbox = ApprovalInboxServlet.builder()
 *         .store(pending)                      // the store the contexts' approval backend waits in
 *         .standingApproval(standing)          // optional: offers "approve ... for the next 30 minutes"
 *         .auditLog(auditLog)                  // where decisions and their approvers are recorded
 *         .build();
 * servletContext.addServlet("mero-inbox", inbox).addMapping(ApprovalInboxServlet.DEFAULT_PATH);
 * }</pre>
 *
 * <p>Security: every form carries a per-session CSRF token (the inbox's own {@code SameSite=Strict},
 * {@code HttpOnly} cookie), a post from another origin or without the session's token changes nothing, and an
 * id that is unknown, decided, timed out or another context's is refused by name. Text from requests is
 * HTML-escaped wherever it is shown and the page allows no script but its own (a Content-Security-Policy
 * with a nonce). The approver is the configured {@link InboxAuthenticator}'s answer, else the servlet
 * request's principal, else, only when {@link Builder#approverHeader(String) explicitly enabled}, a header set
 * by an authenticating proxy. A request without any of them is served only over loopback (both ends) and
 * recorded as {@code anonymous@loopback}; with {@link Builder#requiredRole(String)} only a principal in that
 * role is served. Each decision adds one audit event (type {@link AuditEventType#APPROVER_GRANTED} or
 * {@link AuditEventType#APPROVER_REFUSED}, the request's id, detail {@code decided in the approval inbox by
 * 'name'}) on the instance that decided; the waiting instance's gate records its own outcome as ever.
 * Thread-safe.
 */
public final class ApprovalInboxServlet extends HttpServlet {

    /** Where the inbox is served unless configured otherwise. */
    public static final String DEFAULT_PATH = "/mero/approvals";
    /** The default length of a standing rule granted from the page. */
    public static final Duration DEFAULT_RULE_DURATION = Duration.ofMinutes(30);
    /** The approver recorded for a request served anonymously over loopback. */
    public static final String ANONYMOUS_LOOPBACK = "anonymous@loopback";

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ApprovalInboxServlet.class);
    private static final int MAX_IDS = 100;
    private static final int MAX_NAME = 128;

    private final transient ApprovalStore store;
    private final transient StandingApproval standing;
    private final transient AuditLog auditLog;
    private final transient InboxAuthenticator authenticator;
    private final Set<String> contexts;
    private final String approverHeader;
    private final String requiredRole;
    private final Duration timeout;
    private final transient Clock clock;
    private final transient CsrfSessions sessions;

    private ApprovalInboxServlet(Builder builder) {
        if (builder.store == null) {
            throw new IllegalArgumentException("ApprovalInboxServlet needs the approval store to read and decide; "
                    + "call store(...) on the builder");
        }
        this.store = builder.store;
        this.standing = builder.standing;
        this.auditLog = builder.auditLog != null ? builder.auditLog : AuditLog.create();
        this.authenticator = builder.authenticator;
        this.contexts = Set.copyOf(builder.contexts);
        this.approverHeader = builder.approverHeader;
        this.requiredRole = builder.requiredRole;
        this.timeout = builder.timeout;
        this.clock = builder.clock;
        this.sessions = new CsrfSessions(clock);
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
     * Whether anything but loopback may be served: an authenticator, an approver header or a required role is
     * configured. {@link ApprovalInboxServer} refuses a non-loopback address without it (or a security handler).
     *
     * @return whether the inbox identifies approvers itself or through the container's security
     */
    public boolean authenticates() {
        return authenticator != null || approverHeader != null || requiredRole != null;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Optional<String> approver = admit(request, response);
        if (approver.isEmpty()) {
            return;
        }
        render(request, response, HttpServletResponse.SC_OK, approver.get(), sessionOrNew(request, response, null),
                List.of());
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Optional<String> approver = admit(request, response);
        if (approver.isEmpty()) {
            return;
        }
        CsrfSessions.Session session = sessions.find(cookie(request));
        String refusal = null;
        if (!sameOrigin(request)) {
            refusal = "Refused: the form was posted from another origin; nothing was changed.";
        } else if (session == null) {
            refusal = "Refused: this browser has no inbox session (no cookie, or it expired); nothing was changed. "
                    + "Reload the page and decide again.";
        } else if (!CsrfSessions.matches(session, request.getParameter("token"))) {
            refusal = "Refused: the form's security token is missing or is not this session's; nothing was changed. "
                    + "Reload the page and decide again.";
        }
        if (refusal != null) {
            LOG.warn("Approval inbox post refused for {}: {}", Messages.quote(approver.get()), refusal);
            render(request, response, HttpServletResponse.SC_FORBIDDEN, approver.get(),
                    sessionOrNew(request, response, session), List.of(refusal));
            return;
        }
        render(request, response, HttpServletResponse.SC_OK, approver.get(), session, decide(request, approver.get()));
    }

    /** The browser's live session (the one given, else the one its cookie names), or a new one with its cookie set. */
    private CsrfSessions.Session sessionOrNew(HttpServletRequest request, HttpServletResponse response,
                                              CsrfSessions.Session known) {
        CsrfSessions.Session session = known != null ? known : sessions.find(cookie(request));
        if (session == null) {
            session = sessions.start();
            setCookie(request, response, session);
        }
        return session;
    }

    /** The approver, or empty after a refusal was sent. */
    private Optional<String> admit(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String approver = approver(request);
        String refusal = null;
        if (requiredRole != null && (request.getUserPrincipal() == null || !request.isUserInRole(requiredRole))) {
            refusal = "Denied: the approval inbox needs an authenticated user in role " + requiredRole + ".";
        } else if (approver == null && (authenticates() || !loopback(request))) {
            refusal = authenticates() ? "Denied: the approval inbox needs an authenticated user."
                    : "Denied: without authentication the approval inbox is served over loopback only.";
        } else if (approver == null && !loopbackHost(request.getHeader("Host"))) {
            // a name another site controls could resolve to 127.0.0.1 (DNS rebinding): only loopback names count
            refusal = "Denied: without authentication the approval inbox answers only to a loopback host name "
                    + "(127.0.0.1, [::1] or localhost).";
        }
        if (refusal != null) {
            headers(response, null);
            response.setStatus(HttpServletResponse.SC_FORBIDDEN);
            response.setContentType("text/plain;charset=UTF-8");
            response.getWriter().write(refusal + "\n");
            return Optional.empty();
        }
        return Optional.of(approver != null ? approver : ANONYMOUS_LOOPBACK);
    }

    private String approver(HttpServletRequest request) {
        String name = authenticator != null ? authenticator.approver(request) : null;
        if (name == null && request.getUserPrincipal() != null) {
            name = request.getUserPrincipal().getName();
        }
        if (name == null && approverHeader != null) {
            name = request.getHeader(approverHeader);
        }
        if (name == null || name.isBlank() || name.length() > MAX_NAME
                || name.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            return null;
        }
        return name.strip();
    }

    /** Whether a Host header names loopback: an address literal or {@code localhost}, with or without a port. */
    static boolean loopbackHost(String host) {
        if (host == null) {
            return false;
        }
        String name = host.matches(".*:[0-9]{1,5}") && !host.endsWith("]") ? host.substring(0, host.lastIndexOf(':'))
                : host;
        if (name.startsWith("[") && name.endsWith("]")) {
            name = name.substring(1, name.length() - 1);
        } else if (name.contains(":")) {
            return false; // an IPv6 literal must be bracketed in a Host header
        }
        return name.equalsIgnoreCase("localhost") || isLoopback(name);
    }

    private static boolean loopback(HttpServletRequest request) {
        return isLoopback(request.getRemoteAddr()) && isLoopback(request.getLocalAddr());
    }

    /** Whether a literal address is a loopback one (no name is looked up). */
    static boolean isLoopback(String address) {
        if (address == null) {
            return false;
        }
        String literal = address.startsWith("[") && address.endsWith("]")
                ? address.substring(1, address.length() - 1) : address;
        if (!literal.matches("[0-9.]+") && !literal.matches("[0-9A-Fa-f.]*:[0-9A-Fa-f:.]*(%[A-Za-z0-9]+)?")) {
            return false; // a host name: never looked up here
        }
        try {
            return InetAddress.getByName(literal).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** A post must come from the page's own origin when the browser names one. */
    private static boolean sameOrigin(HttpServletRequest request) {
        String origin = request.getHeader("Origin");
        if (origin == null) {
            return true; // not a browser, or an old one; the token still decides
        }
        try {
            URI uri = URI.create(origin);
            String host = request.getHeader("Host");
            return uri.getHost() != null && host != null
                    && (uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort())).equalsIgnoreCase(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private List<String> decide(HttpServletRequest request, String approver) {
        List<String> messages = new ArrayList<>();
        String one;
        if ((one = request.getParameter("approve")) != null) {
            messages.add(complete(one, ApprovalDecision.APPROVED, approver));
        } else if ((one = request.getParameter("deny")) != null) {
            messages.add(complete(one, ApprovalDecision.DENIED, approver));
        } else if ((one = request.getParameter("rule")) != null) {
            messages.add(grantAndApprove(one, request.getParameter("pattern-" + one),
                    request.getParameter("minutes-" + one), approver));
        } else {
            String decision = request.getParameter("decision");
            String[] ids = request.getParameterValues("id");
            if (!"approve".equals(decision) && !"deny".equals(decision)) {
                messages.add("Error: choose Approve or Deny; nothing was changed.");
            } else if (ids == null || ids.length == 0) {
                messages.add("Error: no request was selected; nothing was changed.");
            } else if (ids.length > MAX_IDS) {
                messages.add("Error: at most " + MAX_IDS + " requests can be decided at once; nothing was changed.");
            } else {
                for (String id : new LinkedHashSet<>(List.of(ids))) {
                    messages.add(complete(id, "approve".equals(decision) ? ApprovalDecision.APPROVED
                            : ApprovalDecision.DENIED, approver));
                }
            }
        }
        return messages;
    }

    private String complete(String id, ApprovalDecision decision, String approver) {
        Served found = served(id);
        if (found.refusal() != null) {
            return found.refusal();
        }
        ApprovalRequest request = found.request();
        return complete(request, decision, approver, "decided in the approval inbox by " + Messages.quote(approver));
    }

    private String complete(ApprovalRequest request, ApprovalDecision decision, String approver, String detail) {
        boolean done;
        try {
            done = store.complete(request.id(), decision);
        } catch (PolicyStoreUnavailableException e) {
            LOG.warn("Approval store unavailable while {} decided {}", Messages.quote(approver), request.id(), e);
            return "Error: the approval store is unavailable; " + Messages.quote(request.action())
                    + " was not decided. Try again.";
        }
        if (!done) {
            return "Not changed: " + Messages.quote(request.action()) + " (request " + Messages.quote(request.id())
                    + ") was decided elsewhere or timed out meanwhile.";
        }
        auditLog.record(AuditEvent.builder()
                .type(decision == ApprovalDecision.APPROVED ? AuditEventType.APPROVER_GRANTED
                        : AuditEventType.APPROVER_REFUSED)
                .contextName(request.contextName()).action(request.action()).subject(request.subject().orElse(null))
                .permissions(request.permissions()).requestId(request.id()).detail(detail).build());
        return (decision == ApprovalDecision.APPROVED ? "Approved " : "Denied ") + Messages.quote(request.action())
                + " for " + Messages.quote(request.contextName()) + ".";
    }

    private String grantAndApprove(String id, String pattern, String minutes, String approver) {
        if (standing == null) {
            return "Error: standing rules are not enabled for this inbox; nothing was changed.";
        }
        Served found = served(id);
        if (found.refusal() != null) {
            return found.refusal();
        }
        ApprovalRequest request = found.request();
        Duration duration;
        try {
            duration = Duration.ofMinutes(Long.parseLong(minutes == null ? "" : minutes.strip()));
        } catch (NumberFormatException e) {
            return "Error: the rule's length must be a number of minutes; nothing was changed.";
        }
        if (!request.argv().isEmpty() || request.permissions().contains(Permission.EXECUTE)) {
            return "Error: a standing rule covers file actions only, not " + Messages.quote(request.action())
                    + "; nothing was changed.";
        }
        StandingApproval.Rule rule;
        try {
            StandingApproval.requirePattern(pattern);
            StandingApproval.Rule candidate = new StandingApproval.Rule("candidate", request.contextName(),
                    request.permissions(), pattern, approver, clock.instant(), clock.instant().plusSeconds(1));
            if (!candidate.covers(request)) {
                return "Error: the pattern " + Messages.quote(pattern) + " does not cover "
                        + Messages.quote(request.action()) + "; nothing was changed.";
            }
            rule = standing.grant(request.contextName(), request.permissions(), pattern, duration, approver);
        } catch (IllegalArgumentException e) {
            return "Error: " + e.getMessage() + "; nothing was changed.";
        }
        String approved = complete(request, ApprovalDecision.APPROVED, approver, "decided in the approval inbox by "
                + Messages.quote(approver) + " with standing rule " + rule.id());
        return approved + " Standing rule: " + Messages.quote(rule.action()) + " for " + Messages.quote(rule.contextName())
                + " until " + rule.expiresAt() + ".";
    }

    /** The waiting request an id names, if this inbox serves it; otherwise why not. */
    private Served served(String id) {
        if (id == null || id.isBlank() || id.length() > MAX_NAME || id.chars().anyMatch(c -> c < 0x21 || c == 0x7f)) {
            String shown = id == null ? "" : id.length() > MAX_NAME ? id.substring(0, MAX_NAME) : id;
            return Served.refused("Not changed: " + Messages.quote(shown) + " is not a request id.");
        }
        Optional<ApprovalRequest> request;
        try {
            request = store.pending(id);
        } catch (PolicyStoreUnavailableException e) {
            return Served.refused("Error: the approval store is unavailable; request " + Messages.quote(id)
                    + " was not decided.");
        }
        if (request.isEmpty()) {
            return Served.refused("Not changed: request " + Messages.quote(id) + " is not waiting (unknown, already "
                    + "decided or timed out).");
        }
        if (!serves(request.get())) {
            return Served.refused("Not changed: request " + Messages.quote(id)
                    + " belongs to a context this inbox does not serve.");
        }
        return new Served(request.get(), null);
    }

    /** A waiting request this inbox serves, or why an id names none. */
    private record Served(ApprovalRequest request, String refusal) {

        static Served refused(String refusal) {
            return new Served(null, refusal);
        }
    }

    private boolean serves(ApprovalRequest request) {
        return contexts.isEmpty() || contexts.contains(request.contextName());
    }

    private void render(HttpServletRequest request, HttpServletResponse response, int status, String approver,
                        CsrfSessions.Session session, List<String> messages) throws IOException {
        List<ApprovalRequest> waiting;
        String storeProblem = null;
        try {
            waiting = new ArrayList<>(store.pending().stream().filter(this::serves).toList());
        } catch (PolicyStoreUnavailableException e) {
            waiting = new ArrayList<>();
            storeProblem = "Error: the approval store is unavailable; the list is empty until it is back.";
        }
        waiting.sort((a, b) -> b.requestedAt().compareTo(a.requestedAt()));
        List<String> shown = new ArrayList<>(messages);
        if (storeProblem != null) {
            shown.add(storeProblem);
        }
        String nonce = InboxPage.nonce();
        headers(response, nonce);
        response.setStatus(status);
        response.setContentType("text/html;charset=UTF-8");
        response.getWriter().write(new InboxPage(clock.instant(), timeout, standing != null, contexts)
                .render(approver, session.token(), HostCsrfToken.hiddenField(request), nonce, shown, waiting,
                        standing == null ? List.of() : standing.rules()));
    }

    /** Security headers; {@code nonce} is {@code null} for a page without script or style. */
    private static void headers(HttpServletResponse response, String nonce) {
        response.setHeader("Content-Security-Policy", nonce == null ? "default-src 'none'; frame-ancestors 'none'"
                : "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'nonce-" + nonce
                + "'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("X-Frame-Options", "DENY");
        response.setHeader("Referrer-Policy", "same-origin");
        response.setHeader("Cache-Control", "no-store");
    }

    private static String cookie(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie cookie : cookies) {
                if (CsrfSessions.COOKIE.equals(cookie.getName())) {
                    return cookie.getValue();
                }
            }
        }
        return null;
    }

    private static void setCookie(HttpServletRequest request, HttpServletResponse response,
                                  CsrfSessions.Session session) {
        String path = request.getContextPath() + request.getServletPath();
        response.addHeader("Set-Cookie", CsrfSessions.COOKIE + "=" + session.id() + "; Path="
                + (path.isEmpty() ? "/" : path) + "; Max-Age=" + CsrfSessions.LIFETIME.toSeconds()
                + "; HttpOnly; SameSite=Strict" + (request.isSecure() ? "; Secure" : ""));
    }

    /** Builds an {@link ApprovalInboxServlet}; the store is required. */
    public static final class Builder {

        private ApprovalStore store;
        private StandingApproval standing;
        private AuditLog auditLog;
        private InboxAuthenticator authenticator;
        private final Set<String> contexts = new LinkedHashSet<>();
        private String approverHeader;
        private String requiredRole;
        private Duration timeout = CallbackApproval.DEFAULT_TIMEOUT;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /**
         * Sets the store whose waiting requests the page lists and decides: the one the contexts' approval
         * backend waits in ({@link dev.mero.core.approval.PendingApprovals} in one JVM, the PostgreSQL store across
         * instances).
         *
         * @param store the store
         * @return this builder
         */
        public Builder store(ApprovalStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * Enables "approve and allow this caller's writes under a directory for a while": rules are granted in
         * this standing approval, which must wrap the store in the contexts' approval backend. Its rules live in
         * this JVM's memory (see {@link StandingApproval}).
         *
         * @param standing the standing approval
         * @return this builder
         */
        public Builder standingApproval(StandingApproval standing) {
            this.standing = Objects.requireNonNull(standing, "standing");
            return this;
        }

        /**
         * Sets the audit log that records each decision with its approver (default {@link AuditLog#create()});
         * use the contexts' own.
         *
         * @param auditLog the audit log
         * @return this builder
         */
        public Builder auditLog(AuditLog auditLog) {
            this.auditLog = Objects.requireNonNull(auditLog, "auditLog");
            return this;
        }

        /**
         * Limits the page to requests of these context names (default: every request the store lists).
         *
         * @param contexts context names
         * @return this builder
         */
        public Builder contexts(Collection<String> contexts) {
            Objects.requireNonNull(contexts, "contexts").forEach(name -> this.contexts.add(
                    Objects.requireNonNull(name, "context name")));
            return this;
        }

        /**
         * Sets who the approver of a request is, for applications that authenticate outside the container.
         *
         * @param authenticator the authenticator
         * @return this builder
         */
        public Builder authenticator(InboxAuthenticator authenticator) {
            this.authenticator = Objects.requireNonNull(authenticator, "authenticator");
            return this;
        }

        /**
         * Trusts a request header for the approver's name when the request has no principal. Enable it only
         * behind a proxy that authenticates every request and sets (and strips) this header itself: anybody who
         * reaches the servlet directly can set it.
         *
         * @param header the header's name, for example {@code X-Forwarded-User}
         * @return this builder
         */
        public Builder approverHeader(String header) {
            if (header == null || !header.matches("[A-Za-z0-9-]{1,64}")) {
                throw new IllegalArgumentException("Invalid approver header name " + Messages.quote(header));
            }
            this.approverHeader = header;
            return this;
        }

        /**
         * Serves only authenticated users in this role of the container's (or Spring Security's) security,
         * for example {@code MERO_APPROVER}.
         *
         * @param role the role
         * @return this builder
         */
        public Builder requiredRole(String role) {
            if (role == null || !role.matches("[A-Za-z0-9_.-]{1,64}")) {
                throw new IllegalArgumentException("Invalid role " + Messages.quote(role));
            }
            this.requiredRole = role;
            return this;
        }

        /**
         * Sets the store's time-out, so the page can show when each request times out (default
         * {@link CallbackApproval#DEFAULT_TIMEOUT}, that of {@link dev.mero.core.approval.PendingApprovals}).
         *
         * @param timeout a positive duration
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("The inbox's timeout must be positive, got " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets the clock ages, time-outs and sessions are computed with (default the system clock in UTC).
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * Builds the servlet.
         *
         * @return the servlet
         */
        public ApprovalInboxServlet build() {
            return new ApprovalInboxServlet(this);
        }
    }
}
