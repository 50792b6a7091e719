/**
 * Metrics without a metrics library: {@link dev.mero.core.metrics.MeroMetrics} receives what the library did
 * (tool calls with their outcome and duration, decisions per permission, approvals, command runs) so that a
 * binding can count it in the application's metrics system (the Spring Boot starter binds it to Micrometer).
 *
 * <p>Decisions and approvals are derived from the audit events ({@link
 * dev.mero.core.metrics.MeroMetrics#auditSink(MeroMetrics)}): the audit log stays the record of truth and the
 * metrics count what it recorded. Tool calls and command runs are reported by the operations themselves,
 * because only they know the duration and the exit code.
 */
package dev.mero.core.metrics;
