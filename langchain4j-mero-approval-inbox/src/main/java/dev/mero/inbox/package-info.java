/**
 * The approval inbox: a web page where people see the actions agents wait on (context, caller, action, the
 * diff or command line) and approve or deny them, one, several, or by a standing rule that expires. A plain
 * Jakarta servlet ({@link dev.mero.inbox.ApprovalInboxServlet}) over any
 * {@link dev.mero.core.approval.ApprovalStore}, so that a decision taken here reaches the waiting call on any
 * instance at once; {@link dev.mero.inbox.ApprovalInboxServer} serves it stand-alone on an embedded Jetty, and
 * an optional Spring Boot auto-configuration registers it in a Spring application.
 */
package dev.mero.inbox;
