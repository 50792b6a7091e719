package dev.mero.core.audit;

import dev.mero.core.MeroToolsException;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.same;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoMoreInteractions;

class AuditLogTest {

    private final Logger logger = mock(Logger.class);
    private final List<AuditEvent> recorded = new CopyOnWriteArrayList<>();

    private static AuditEvent event(AuditEventType type) {
        return AuditEvent.builder().type(type).contextName("worker_1").action("WRITE: /ws/a.txt").build();
    }

    @Test
    void theLoggerIsNamedDevMeroAudit() {
        assertThat(AuditLog.LOGGER_NAME).isEqualTo("dev.mero.audit");
        assertThat(LoggerFactory.getLogger(AuditLog.LOGGER_NAME)).isNotNull();
    }

    @Test
    void allowedAndPendingEventsAreLoggedAtInfo() {
        AuditLog log = new AuditLog(logger, List.of());
        for (AuditEventType type : List.of(AuditEventType.ALLOWED, AuditEventType.APPROVAL_REQUESTED,
                AuditEventType.APPROVAL_GRANTED)) {
            AuditEvent event = event(type);
            log.record(event);
            verify(logger).info("{}", event);
        }
        verifyNoMoreInteractions(logger);
    }

    @Test
    void refusalsAndFailuresAreLoggedAtWarn() {
        AuditLog log = new AuditLog(logger, List.of());
        for (AuditEventType type : List.of(AuditEventType.DENIED, AuditEventType.APPROVAL_REFUSED,
                AuditEventType.APPROVAL_TIMED_OUT, AuditEventType.RATE_LIMITED, AuditEventType.FAILED)) {
            AuditEvent event = event(type);
            log.record(event);
            verify(logger).warn("{}", event);
        }
    }

    @Test
    void everySinkReceivesEveryEventInOrder() {
        List<String> order = new CopyOnWriteArrayList<>();
        AuditLog log = AuditLog.builder()
                .sink(e -> order.add("first " + e.type()))
                .sinks(List.of(e -> order.add("second " + e.type())))
                .build();

        log.record(event(AuditEventType.ALLOWED));
        log.record(event(AuditEventType.DENIED));

        assertThat(log.sinkCount()).isEqualTo(2);
        assertThat(order).containsExactly("first ALLOWED", "second ALLOWED", "first DENIED", "second DENIED");
    }

    @Test
    void aFailingSinkNeverBreaksRecordingAndIsReportedOnce() {
        IOException failure = new IOException("disk full");
        AuditSink broken = e -> {
            throw failure;
        };
        AuditLog log = new AuditLog(logger, List.of(broken, recorded::add));

        assertThatCode(() -> {
            log.record(event(AuditEventType.DENIED));
            log.record(event(AuditEventType.DENIED));
            log.record(event(AuditEventType.ALLOWED));
        }).doesNotThrowAnyException();

        assertThat(recorded).hasSize(3);
        verify(logger, times(1)).error(eq("Audit sink {} failed; later failures of this sink are not reported "
                + "until it has written an event again"), same(broken), same(failure));
    }

    @Test
    void aSinkThatRecoveredIsReportedAgainWhenItFailsAgain() {
        IOException failure = new IOException("disk full");
        AtomicBoolean failing = new AtomicBoolean(true);
        AuditSink flaky = e -> {
            if (failing.get()) {
                throw failure;
            }
        };
        AuditLog log = new AuditLog(logger, List.of(flaky));

        log.record(event(AuditEventType.DENIED));
        log.record(event(AuditEventType.DENIED));
        failing.set(false);
        log.record(event(AuditEventType.ALLOWED));
        failing.set(true);
        log.record(event(AuditEventType.DENIED));

        verify(logger, times(2)).error(anyString(), same(flaky), same(failure));
    }

    @Test
    void aSinkThrowingAnErrorIsContainedAndReported() {
        AssertionError failure = new AssertionError("sink bug");
        AuditSink broken = e -> {
            throw failure;
        };
        AuditLog log = new AuditLog(logger, List.of(broken, recorded::add));

        assertThatCode(() -> log.record(event(AuditEventType.ALLOWED))).doesNotThrowAnyException();

        assertThat(recorded).hasSize(1);
        verify(logger).error(anyString(), same(broken), same(failure));
    }

    @Test
    void aLogThatFailsClosedDeniesWhenASinkCannotWrite() {
        AtomicBoolean broken = new AtomicBoolean(true);
        AuditLog log = AuditLog.builder().failClosed(true).sink(e -> {
            if (broken.get()) {
                throw new StackOverflowError();
            }
        }).sink(recorded::add).build();

        assertThat(log.failClosed()).isTrue();
        assertThatThrownBy(() -> log.record(event(AuditEventType.ALLOWED)))
                .isInstanceOf(MeroToolsException.class)
                .hasMessage(AuditLog.UNAVAILABLE_MESSAGE)
                .satisfies(e -> assertThat(((MeroToolsException) e).isDenial()).isTrue());
        assertThat(recorded).hasSize(1); // every sink is still tried

        broken.set(false);
        assertThatCode(() -> log.record(event(AuditEventType.ALLOWED))).doesNotThrowAnyException();
        assertThat(AuditLog.create().failClosed()).isFalse();
    }

    @Test
    void aSinkThrowingARuntimeExceptionIsContainedToo() {
        AuditLog log = new AuditLog(logger, List.of(e -> {
            throw new IllegalStateException("closed");
        }, recorded::add));

        assertThatCode(() -> log.record(event(AuditEventType.ALLOWED))).doesNotThrowAnyException();
        assertThat(recorded).hasSize(1);
    }

    @Test
    void createLogsWithoutSinks() {
        assertThat(AuditLog.create().sinkCount()).isZero();
        assertThatCode(() -> AuditLog.create().record(event(AuditEventType.ALLOWED))).doesNotThrowAnyException();
    }
}
