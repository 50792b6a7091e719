package dev.mero.core.audit;

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
 * an agent-chosen file name cannot forge a log line. Recording never throws: a sink that fails is reported
 * once, at ERROR, and is still called for later events (it may recover, for example after a disk was
 * freed). Instances are immutable and thread-safe.
 */
public final class AuditLog {

    /** The name of the SLF4J logger every audit event is written to. */
    public static final String LOGGER_NAME = "dev.mero.audit";

    private final Logger logger;
    private final List<GuardedSink> sinks;

    AuditLog(Logger logger, Collection<AuditSink> sinks) {
        this.logger = Objects.requireNonNull(logger, "logger");
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
     * Records an event: logs it, then hands it to every sink in order. Never throws for a failing sink.
     *
     * @param event the event
     */
    public void record(AuditEvent event) {
        Objects.requireNonNull(event, "event");
        if (isAllowedOrPending(event.type())) {
            logger.info("{}", event);
        } else {
            logger.warn("{}", event);
        }
        for (GuardedSink sink : sinks) {
            sink.write(event, logger);
        }
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

        void write(AuditEvent event, Logger logger) {
            try {
                sink.write(event);
            } catch (Exception e) {
                // A broken sink must never turn a decision into a crash, nor flood the log.
                if (failureReported.compareAndSet(false, true)) {
                    logger.error("Audit sink {} failed; the decision stands, and later failures of this sink "
                            + "are not reported again", sink, e);
                }
            }
        }
    }

    /** Builds an {@link AuditLog}. */
    public static final class Builder {

        private final List<AuditSink> sinks = new ArrayList<>();

        private Builder() {
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
            return new AuditLog(LoggerFactory.getLogger(LOGGER_NAME), sinks);
        }
    }
}
