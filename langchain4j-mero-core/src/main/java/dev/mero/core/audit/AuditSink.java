package dev.mero.core.audit;

/**
 * A destination for audit events besides the SLF4J logger, for example a {@link JsonLinesAuditSink}, a
 * database table or a metrics counter.
 *
 * <p>A sink is called on the thread that took the decision, possibly by several threads at once, so it
 * must be thread-safe. A sink that throws never changes a decision: {@link AuditLog} reports its first
 * failure to the logger and carries on.
 */
@FunctionalInterface
public interface AuditSink {

    /**
     * Writes one event.
     *
     * @param event the event
     * @throws Exception if the event could not be written
     */
    void write(AuditEvent event) throws Exception;
}
