package dev.mero.springboot;

import dev.mero.core.Permission;
import dev.mero.core.metrics.MeroMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;

/**
 * {@link MeroMetrics} in Micrometer: {@value #TOOL_CALLS} (timer; tags {@code tool}, {@code outcome}),
 * {@value #DECISIONS} (counter; {@code permission}, {@code outcome}), {@value #APPROVALS} (counter;
 * {@code outcome}) and {@value #SANDBOX_RUNS} (counter; {@code exit}). Every tag value comes from a bounded set
 * (see {@link MeroMetrics}). Thread-safe.
 */
final class MicrometerMeroMetrics implements MeroMetrics {

    static final String TOOL_CALLS = "mero.tool.calls";
    static final String DECISIONS = "mero.decisions";
    static final String APPROVALS = "mero.approvals";
    static final String SANDBOX_RUNS = "mero.sandbox.runs";

    private final MeterRegistry registry;

    MicrometerMeroMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void toolCall(String tool, String outcome, Duration duration) {
        Timer.builder(TOOL_CALLS).description("Tool calls by tool and outcome (success, denied, failed)")
                .tags("tool", tool, "outcome", outcome).register(registry).record(duration);
    }

    @Override
    public void decision(Permission permission, String outcome) {
        registry.counter(DECISIONS, "permission", permission.name().toLowerCase(Locale.ROOT), "outcome", outcome)
                .increment();
    }

    @Override
    public void approval(String outcome) {
        registry.counter(APPROVALS, "outcome", outcome).increment();
    }

    @Override
    public void sandboxRun(String exit) {
        registry.counter(SANDBOX_RUNS, "exit", exit).increment();
    }

    @Override
    public String toString() {
        return "MicrometerMeroMetrics{" + registry.getClass().getSimpleName() + "}";
    }
}
