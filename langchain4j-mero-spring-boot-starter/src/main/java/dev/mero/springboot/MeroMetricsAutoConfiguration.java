package dev.mero.springboot;

import dev.mero.core.metrics.MeroMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * Micrometer metrics, when Micrometer is on the class path and the application has a {@link MeterRegistry}:
 * a {@link MeroMetrics} bean that the {@code SecurityContext} (decisions and approvals, derived from its audit
 * events) and the {@code MeroOperations} (tool calls and command runs) count into. The audit log stays the
 * record of truth. Off with {@code mero.metrics.enabled=false}.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = "mero.metrics.enabled", matchIfMissing = true)
@Conditional(PolicyPresent.class)
public class MeroMetricsAutoConfiguration {

    /** Creates the configuration; Spring calls it. */
    public MeroMetricsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    MeroMetrics meroMetrics(MeterRegistry registry) {
        return new MicrometerMeroMetrics(registry);
    }
}
