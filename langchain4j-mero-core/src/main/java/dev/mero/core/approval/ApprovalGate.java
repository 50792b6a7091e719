package dev.mero.core.approval;

import dev.mero.core.ApprovalDeniedException;
import dev.mero.core.ApprovalTimeoutException;
import dev.mero.core.MeroToolsException;
import dev.mero.core.message.Messages;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditEventType;
import dev.mero.core.audit.AuditLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.Optional;

/**
 * The single place where an action that needs approval is approved or refused: asks the configured
 * backend, records the outcome in the audit log, and either returns (approved) or throws.
 *
 * <pre>{@code
 * ApprovalGate gate = ApprovalGate.builder()
 *         .backend(ChainedApproval.of(Duration.ofMinutes(2), ConsoleApproval.create(), ApprovalBackends.alwaysDeny()))
 *         .auditLog(auditLog)
 *         .build();
 *
 * // after every deny rule passed:
 * gate.approve(ApprovalRequest.builder().contextName(name).permissions(WRITE).target(resolved).build());
 * resolved = context.recheck(resolved);     // what runs is what was approved
 * }</pre>
 *
 * <p>Fail-safe rules:
 * <ul>
 *   <li>no backend configured: {@link ApprovalDeniedException}
 *       {@code Action 'WRITE: /ws/a.txt' requires approval for ['WRITE'] but no approval backend is configured
 *       (fail-safe deny).};</li>
 *   <li>{@link ApprovalDecision#DENIED}, {@link ApprovalDecision#ABSTAIN} or {@code null} (nobody approved),
 *       an exception or error thrown by the backend (an exception is kept as the cause, for logs only; a
 *       {@link VirtualMachineError} is rethrown once the refusal is recorded), or an interrupt of the waiting
 *       thread (the interrupt flag is restored): {@link ApprovalDeniedException}
 *       {@code Action 'WRITE: /ws/a.txt' was not approved for context 'name'.};</li>
 *   <li>an {@link ApprovalTimeoutException} (a {@link ChainedApproval} in which no backend decided)
 *       propagates unchanged;</li>
 *   <li>a {@link PolicyStoreUnavailableException} (a shared {@link ApprovalStore} that cannot reach its
 *       database) propagates unchanged, so the model is told that the store, not a person, refused.</li>
 * </ul>
 * Only {@link ApprovalDecision#APPROVED} lets the call return. The gate records
 * {@link AuditEventType#APPROVAL_REQUESTED} before asking and then exactly one of
 * {@link AuditEventType#APPROVAL_GRANTED}, {@link AuditEventType#APPROVAL_REFUSED} or
 * {@link AuditEventType#APPROVAL_TIMED_OUT}; the request's details (a diff) are never put into an event.
 *
 * <p>The gate runs the backend on the calling thread; wrap a backend that may block indefinitely in a
 * {@link ChainedApproval} to bound the wait. Instances are immutable and thread-safe.
 */
public final class ApprovalGate {

    private static final Logger LOG = LoggerFactory.getLogger(ApprovalGate.class);

    private final ApprovalBackend backend;
    private final AuditLog auditLog;

    private ApprovalGate(Builder builder) {
        this.backend = builder.backend;
        this.auditLog = builder.auditLog != null ? builder.auditLog : AuditLog.create();
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
     * The configured backend.
     *
     * @return the backend, absent when every approval is refused (fail-safe)
     */
    public Optional<ApprovalBackend> backend() {
        return Optional.ofNullable(backend);
    }

    /**
     * The audit log the gate records its decisions in.
     *
     * @return the audit log
     */
    public AuditLog auditLog() {
        return auditLog;
    }

    /**
     * Asks for approval and returns only if the action was approved.
     *
     * @param request the action to approve; every deny rule must already have passed
     * @throws ApprovalDeniedException  if the backend refused, abstained or failed, the caller was interrupted,
     *                                  or no backend is configured
     * @throws ApprovalTimeoutException if no backend of a chain could decide
     */
    public void approve(ApprovalRequest request) {
        Objects.requireNonNull(request, "request");
        if (backend == null) {
            throw refused(request, new ApprovalDeniedException("Action " + Messages.quote(request.action())
                    + " requires approval for " + Messages.permissions(request.permissions())
                    + " but no approval backend is configured (fail-safe deny)."));
        }
        record(request, AuditEventType.APPROVAL_REQUESTED, null);
        ApprovalDecision decision;
        try {
            decision = backend.decide(request);
        } catch (ApprovalTimeoutException e) {
            record(request, AuditEventType.APPROVAL_TIMED_OUT, e);
            throw e;
        } catch (PolicyStoreUnavailableException e) {
            LOG.warn("Approval store {} is unavailable for request {}; refusing the action (fail-safe)",
                    backend, request.id(), e);
            record(request, AuditEventType.APPROVAL_REFUSED, e);
            throw e;
        } catch (InterruptedException e) {
            ApprovalDeniedException denied = refused(request, notApproved(request, e));
            Thread.currentThread().interrupt();
            throw denied;
        } catch (Exception e) {
            LOG.warn("Approval backend {} failed for request {}; refusing the action (fail-safe)",
                    backend, request.id(), e);
            throw refused(request, notApproved(request, e));
        } catch (Error e) {
            // a broken backend still ends in a recorded refusal; only the JVM's own failures propagate
            LOG.error("Approval backend {} failed with an error for request {}; refusing the action (fail-safe)",
                    backend, request.id(), e);
            ApprovalDeniedException denied = refused(request, notApproved(request, null));
            if (e instanceof VirtualMachineError) {
                throw e;
            }
            throw denied;
        }
        if (decision != ApprovalDecision.APPROVED) {
            throw refused(request, notApproved(request, null));
        }
        record(request, AuditEventType.APPROVAL_GRANTED, null);
    }

    @Override
    public String toString() {
        return "ApprovalGate{backend=" + backend + "}";
    }

    private static ApprovalDeniedException notApproved(ApprovalRequest request, Exception cause) {
        String message = "Action " + Messages.quote(request.action()) + " was not approved for context "
                + Messages.quote(request.contextName()) + ".";
        return cause == null ? new ApprovalDeniedException(message) : new ApprovalDeniedException(message, cause);
    }

    private ApprovalDeniedException refused(ApprovalRequest request, ApprovalDeniedException denial) {
        record(request, AuditEventType.APPROVAL_REFUSED, denial);
        return denial;
    }

    private void record(ApprovalRequest request, AuditEventType type, MeroToolsException failure) {
        AuditEvent.Builder event = AuditEvent.builder()
                .type(type)
                .contextName(request.contextName())
                .action(request.action())
                .subject(request.subject().orElse(null))
                .permissions(request.permissions())
                .requestId(request.id());
        if (failure != null) {
            event.failure(failure);
        }
        auditLog.record(event.build());
    }

    /** Builds an {@link ApprovalGate}. */
    public static final class Builder {

        private ApprovalBackend backend;
        private AuditLog auditLog;

        private Builder() {
        }

        /**
         * Sets the backend that decides requests; without one (or with {@code null}) every request is
         * refused.
         *
         * @param backend the backend, may be {@code null}
         * @return this builder
         */
        public Builder backend(ApprovalBackend backend) {
            this.backend = backend;
            return this;
        }

        /**
         * Sets the audit log (default: {@link AuditLog#create()}, the SLF4J logger only).
         *
         * @param auditLog the audit log
         * @return this builder
         */
        public Builder auditLog(AuditLog auditLog) {
            this.auditLog = Objects.requireNonNull(auditLog, "auditLog");
            return this;
        }

        /**
         * Builds the gate.
         *
         * @return the gate
         */
        public ApprovalGate build() {
            return new ApprovalGate(this);
        }
    }
}
