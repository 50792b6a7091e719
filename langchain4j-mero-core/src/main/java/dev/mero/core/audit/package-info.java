/**
 * The audit log: every security decision the library takes becomes an {@link dev.mero.core.audit.AuditEvent},
 * written to the SLF4J logger {@value dev.mero.core.audit.AuditLog#LOGGER_NAME} and to optional
 * {@link dev.mero.core.audit.AuditSink}s such as the append-only {@link dev.mero.core.audit.JsonLinesAuditSink}.
 *
 * <p>An event records who (context), what (action, subject, permissions) and the decision with its reason.
 * It has no field for file contents, command environments, approval details (diffs) or secrets, so none of
 * them can reach a log through this package.
 */
package dev.mero.core.audit;
