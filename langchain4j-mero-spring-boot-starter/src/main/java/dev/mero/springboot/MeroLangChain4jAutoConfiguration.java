package dev.mero.springboot;

import dev.langchain4j.service.tool.ToolProvider;
import dev.mero.core.ops.MeroOperations;
import dev.mero.tools.MeroToolArgumentsErrorHandler;
import dev.mero.tools.MeroToolExecutionErrorHandler;
import dev.mero.tools.MeroToolProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The LangChain4j side, when LangChain4j and {@code langchain4j-mero-tools} are on the class path: a
 * {@link ToolProvider} ({@link MeroToolProvider}) and both error handlers, for an {@code AiServices} built in the
 * application:
 * <pre>{@code
 * AiServices.builder(Agent.class).chatModel(model).toolProvider(toolProvider)
 *         .toolExecutionErrorHandler(executionErrors).toolArgumentsErrorHandler(argumentErrors).build();
 * }</pre>
 * LangChain4j's own Spring Boot starter ({@code @AiService}) uses a single {@code ToolProvider} bean where it is
 * present; nothing here depends on it. A request names its caller through {@code InvocationParameters}
 * ({@code mero.caller}, {@code mero.scopes}).
 */
@AutoConfiguration(after = MeroAutoConfiguration.class)
@ConditionalOnClass({ToolProvider.class, MeroToolProvider.class})
@Conditional(PolicyPresent.class)
public class MeroLangChain4jAutoConfiguration {

    /** Creates the configuration; Spring calls it. */
    public MeroLangChain4jAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    MeroToolProvider meroToolProvider(MeroOperations operations, MeroProperties properties) {
        return MeroToolProvider.builder(operations).wrapUntrustedContent(properties.isWrapUntrusted()).build();
    }

    @Bean
    @ConditionalOnMissingBean
    MeroToolExecutionErrorHandler meroToolExecutionErrorHandler() {
        return MeroToolExecutionErrorHandler.create();
    }

    @Bean
    @ConditionalOnMissingBean
    MeroToolArgumentsErrorHandler meroToolArgumentsErrorHandler(MeroOperations operations) {
        return new MeroToolArgumentsErrorHandler(operations.catalogue());
    }
}
