package dev.mero.inbox;

import jakarta.servlet.http.HttpServletRequest;

/**
 * Names the person behind a request to the approval inbox, for applications that authenticate outside the
 * servlet container (a single-sign-on filter, a session of their own). The name lands in the audit event of
 * every decision the person takes.
 *
 * <pre>{@code
 * ApprovalInboxServlet inbox = ApprovalInboxServlet.builder()
 *         .store(pending)
 *         .authenticator(request -> sso.userOf(request))   // null: not signed in
 *         .build();
 * }</pre>
 *
 * <p>Implementations must be thread-safe and must not trust anything a browser can set freely (a query
 * parameter, an unsigned cookie).
 */
@FunctionalInterface
public interface InboxAuthenticator {

    /**
     * The authenticated approver of a request.
     *
     * @param request the request
     * @return the approver's name, or {@code null} if the request is not authenticated (it is then refused,
     *         unless it comes over loopback with no authentication configured at all)
     */
    String approver(HttpServletRequest request);
}
