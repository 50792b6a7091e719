package dev.mero.springboot;

import dev.mero.core.InvalidPolicyException;
import dev.mero.core.SecurityContext;
import dev.mero.core.metrics.MeroMetrics;
import dev.mero.core.ops.MeroOperations;
import dev.mero.core.policy.SecurityPolicy;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/**
 * The core of the starter: with {@code mero.policy} set, a {@link SecurityContext} read from that file by
 * {@link SecurityPolicy} (a broken policy stops the application start with the loader's message: file, field and
 * value) and the {@link MeroOperations} every binding calls. Without it, nothing, and one INFO line that says so.
 * A store's {@code password_env} is read from Spring's {@link Environment} (system environment included).
 */
@AutoConfiguration
@EnableConfigurationProperties(MeroProperties.class)
public class MeroAutoConfiguration {

    /** Creates the configuration; Spring calls it. */
    public MeroAutoConfiguration() {
    }

    /** The beans that exist when {@code mero.policy} is set. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(PolicyPresent.class)
    static class PolicyConfiguration {

        @Bean
        @ConditionalOnMissingBean
        SecurityContext meroSecurityContext(MeroProperties properties, ResourceLoader resources,
                                            Environment environment, ObjectProvider<MeroMetrics> metrics) {
            Path file = PolicyLocation.resolve(properties.getPolicy().strip(), resources);
            SecurityContext.Builder builder = SecurityPolicy.read(file, environment::getProperty);
            metrics.ifAvailable(counted -> builder.auditSink(MeroMetrics.auditSink(counted)));
            try {
                return builder.build();
            } catch (InvalidPolicyException e) {
                throw e;
            } catch (IllegalArgumentException e) {
                // as SecurityPolicy.load reports what only building the context finds
                throw new InvalidPolicyException(file, null, e.getMessage(), e);
            }
        }

        @Bean
        @ConditionalOnMissingBean
        MeroOperations meroOperations(SecurityContext context, ObjectProvider<MeroMetrics> metrics) {
            return MeroOperations.builder(context).metrics(metrics.getIfAvailable(MeroMetrics::none)).build();
        }
    }

    /** Says once, at start, that the starter does nothing without {@code mero.policy}. */
    @Configuration(proxyBeanMethods = false)
    @Conditional(PolicyPresent.Absent.class)
    static class NoPolicyConfiguration {

        static final String MESSAGE = "langchain4j-mero: mero.policy is not set, so the starter configures nothing "
                + "(no SecurityContext, no tools). Set mero.policy=classpath:policy.yaml or a file path to enable it.";

        private static final Logger LOG = LoggerFactory.getLogger(MeroAutoConfiguration.class);

        NoPolicyConfiguration() {
            LOG.info(MESSAGE);
        }
    }
}
