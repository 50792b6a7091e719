package dev.mero.springboot;

import dev.mero.core.ops.MeroOperations;
import java.time.Clock;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Actuator, where the application has it: the health indicator {@code mero} ({@code spring-boot-health}) and the
 * endpoint {@code mero} ({@code spring-boot-actuator}). Each follows Spring Boot's own switches
 * ({@code management.health.mero.enabled}, the endpoint's access and exposure settings).
 */
@AutoConfiguration(after = MeroAutoConfiguration.class)
@Conditional(PolicyPresent.class)
public class MeroActuatorAutoConfiguration {

    /** Creates the configuration; Spring calls it. */
    public MeroActuatorAutoConfiguration() {
    }

    /** The health indicator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnEnabledHealthIndicator("mero")
        @ConditionalOnMissingBean(name = "meroHealthIndicator")
        MeroHealthIndicator meroHealthIndicator(MeroOperations operations) {
            return new MeroHealthIndicator(new MeroStatus(operations, Clock.systemUTC()));
        }
    }

    /** The endpoint. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.boot.actuate.endpoint.annotation.Endpoint",
            "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint"})
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnAvailableEndpoint
        @ConditionalOnMissingBean
        MeroEndpoint meroEndpoint(MeroOperations operations) {
            return new MeroEndpoint(new MeroStatus(operations, Clock.systemUTC()));
        }
    }
}
