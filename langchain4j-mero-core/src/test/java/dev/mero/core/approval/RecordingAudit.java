package dev.mero.core.approval;

import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An audit log that keeps its events for assertions. */
final class RecordingAudit {

    final List<AuditEvent> events = new CopyOnWriteArrayList<>();
    final AuditLog log = AuditLog.builder().sink(events::add).build();

    List<AuditEventType> types() {
        return events.stream().map(AuditEvent::type).toList();
    }
}
