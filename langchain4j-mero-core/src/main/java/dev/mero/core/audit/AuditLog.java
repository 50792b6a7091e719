package dev.mero.core.audit;

import dev.mero.core.MeroToolsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where every security decision is recorded: the SLF4J logger named {@value #LOGGER_NAME} and any number
 * of {@link AuditSink}s.
 *
 * <pre>{@code
 * JsonLinesAuditSink file = JsonLinesAuditSink.open(Path.of("/var/log/agent/audit.jsonl"));
 * AuditLog audit = AuditLog.builder().sink(file).build();
 * audit.record(AuditEvent.builder().type(AuditEventType.ALLOWED).contextName("worker_1")
 *         .action("READ: /ws/notes.txt").build());
 * }</pre>
 *
 * <p>Events whose outcome is {@code allowed} or {@code pending} are logged at INFO, refusals and failures
 * at WARN, each on one line with control characters escaped (see {@link AuditEvent#toString()}), so that
 * an agent-chosen file name cannot forge a log line. A sink that fails (throwing anything, an {@link Error}
 * included) never turns a decision into a crash: its failure is reported to the logger at ERROR (the first
 * time, then once more each time it recovers and fails again), and it is still called for later events (it may
 * recover, for example after a disk was freed).
 *
 * <p>By default recording never throws and the decision stands even when a sink could not write it (fail
 * open: the SLF4J logger still has the event). With {@link Builder#failClosed(boolean) failClosed(true)}, an
 * event that a sink could not write makes {@link #record(AuditEvent)} throw a denial instead, so that a
 * {@link dev.mero.core.SecurityContext} refuses an action it cannot account for. Instances are immutable and
 * thread-safe.
 */
public final class AuditLog {

    /** The name of the SLF4J logger every audit event is written to. */
    public static final String LOGGER_NAME = "dev.mero.audit";

    /** The model-facing text of a refusal because the audit log could not record a decision. */
    public static final String UNAVAILABLE_MESSAGE = "The action was refused because the audit log cannot record "
            + "it (the audit log fails closed). Nothing was done; try again later or ask an operator to check the "
            + "audit log.";

    private final Logger logger;
    private final List<GuardedSink> sinks;
    private final boolean failClosed;

    AuditLog(Logger logger, Collection<AuditSink> sinks) {
        this(logger, sinks, false);
    }

    AuditLog(Logger logger, Collection<AuditSink> sinks, boolean failClosed) {
        this.logger = Objects.requireNonNull(logger, "logger");
        this.failClosed = failClosed;
        List<GuardedSink> guarded = new ArrayList<>();
        for (AuditSink sink : sinks) {
            guarded.add(new GuardedSink(sink));
        }
        this.sinks = List.copyOf(guarded);
    }

    /**
     * An audit log that writes to the SLF4J logger only.
     *
     * @return a new audit log without sinks
     */
    public static AuditLog create() {
        return builder().build();
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
     * Records an event: logs it, then hands it to every sink in order. Unless the log {@link #failClosed() fails
     * closed}, never throws for a failing sink.
     *
     * @param event the event
     * @throws MeroToolsException with {@link #UNAVAILABLE_MESSAGE} if the log fails closed and a sink could not
     *                            write the event (every sink is still tried)
     */
    public void record(AuditEvent event) {
        Objects.requireNonNull(event, "event");
        if (isAllowedOrPending(event.type())) {
            logger.info("{}", event);
        } else {
            logger.warn("{}", event);
        }
        boolean written = true;
        for (GuardedSink sink : sinks) {
            written &= sink.write(event, logger);
        }
        if (!written && failClosed) {
            throw new MeroToolsException(UNAVAILABLE_MESSAGE);
        }
    }

    /**
     * Whether an event of a type would be written anywhere: by a sink, or by the logger at the type's level. A
     * caller on a hot path may skip building an event that nothing records; {@link #record(AuditEvent)} itself
     * never asks.
     *
     * @param type the event's type
     * @return {@code true} if a sink or the logger would take it
     */
    public boolean records(AuditEventType type) {
        return !sinks.isEmpty() || (isAllowedOrPending(type) ? logger.isInfoEnabled() : logger.isWarnEnabled());
    }

    /**
     * Whether an event a sink could not write makes {@link #record(AuditEvent)} throw (deny) rather than let the
     * decision stand.
     *
     * @return {@code true} if the log fails closed
     */
    public boolean failClosed() {
        return failClosed;
    }

    /**
     * This log with one more sink after its own, failing open or closed as this one does; this log is unchanged.
     *
     * @param sink the sink to add
     * @return a new audit log
     */
    public AuditLog withSink(AuditSink sink) {
        Objects.requireNonNull(sink, "sink");
        List<AuditSink> all = new ArrayList<>();
        sinks.forEach(guarded -> all.add(guarded.sink));
        all.add(sink);
        return new AuditLog(logger, all, failClosed);
    }

    /**
     * The number of sinks this log writes to besides the logger.
     *
     * @return the sink count
     */
    public int sinkCount() {
        return sinks.size();
    }

    private static boolean isAllowedOrPending(AuditEventType type) {
        return switch (type) {
            case ALLOWED, APPROVAL_REQUESTED, APPROVAL_GRANTED -> true;
            default -> false;
        };
    }

    /** A sink with the memory of whether its failure has already been reported. */
    private static final class GuardedSink {

        private final AuditSink sink;
        private final AtomicBoolean failureReported = new AtomicBoolean();

        GuardedSink(AuditSink sink) {
            this.sink = sink;
        }

        /** Writes the event; {@code false} if the sink failed, whatever it threw. */
        boolean write(AuditEvent event, Logger logger) {
            try {
                sink.write(event);
                failureReported.set(false);
                return true;
            } catch (Throwable e) {
                // A broken sink must never turn a decision into a crash, nor flood the log.
                if (failureReported.compareAndSet(false, true)) {
                    reportQuietly(logger, e);
                }
                return false;
            }
        }

        private void reportQuietly(Logger logger, Throwable failure) {
            try {
                logger.error("Audit sink {} failed; later failures of this sink are not reported until it has "
                        + "written an event again", sink, failure);
            } catch (Throwable ignored) {
                // the logger itself is broken: nothing is left to report to
            }
        }
    }

    /** Builds an {@link AuditLog}. */
    public static final class Builder {

        private final List<AuditSink> sinks = new ArrayList<>();
        private boolean failClosed;

        private Builder() {
        }

        /**
         * Makes the log fail closed (default {@code false}, fail open): an event that a sink cannot write makes
         * {@link AuditLog#record(AuditEvent)} throw a denial, so a security context refuses what it cannot
         * record.
         *
         * @param failClosed whether to deny when the audit cannot be written
         * @return this builder
         */
        public Builder failClosed(boolean failClosed) {
            this.failClosed = failClosed;
            return this;
        }

        /**
         * Adds a sink; call once per sink. Sinks are called in the order they were added.
         *
         * @param sink the sink
         * @return this builder
         */
        public Builder sink(AuditSink sink) {
            sinks.add(Objects.requireNonNull(sink, "sink"));
            return this;
        }

        /**
         * Adds several sinks, in iteration order.
         *
         * @param sinks the sinks
         * @return this builder
         */
        public Builder sinks(Collection<? extends AuditSink> sinks) {
            Objects.requireNonNull(sinks, "sinks").forEach(this::sink);
            return this;
        }

        /**
         * Builds the audit log.
         *
         * @return the audit log
         */
        public AuditLog build() {
            return new AuditLog(LoggerFactory.getLogger(LOGGER_NAME), sinks, failClosed);
        }
    }
}
