package dev.mero.springboot;

import dev.mero.core.ops.MeroOperations;
import dev.mero.springai.MeroToolCallbacks;
import org.springframework.ai.chat.client.ChatClientCustomizer;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The Spring AI side, when Spring AI and {@code langchain4j-mero-spring-ai} are on the class path: a
 * {@link ToolCallbackProvider} of the catalogue ({@link MeroToolCallbacks}, only the tools the policy can ever
 * use), and, with {@code spring-ai-client-chat}, a {@link ChatClientCustomizer} that adds them as default tool
 * callbacks of every {@code ChatClient.Builder} Spring AI auto-configures ({@code mero.spring-ai.default-tools}).
 * A request names its caller through the {@code ToolContext} entries {@code mero.caller} and {@code mero.scopes}.
 */
@AutoConfiguration(after = MeroAutoConfiguration.class)
@ConditionalOnClass({ToolCallbackProvider.class, MeroToolCallbacks.class})
@Conditional(PolicyPresent.class)
public class MeroSpringAiAutoConfiguration {

    /** Creates the configuration; Spring calls it. */
    public MeroSpringAiAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    MeroToolCallbacks meroToolCallbacks(MeroOperations operations, MeroProperties properties) {
        return MeroToolCallbacks.forOperations(operations, properties.isWrapUntrusted());
    }

    /** Adds the tools to every auto-configured {@code ChatClient.Builder}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ChatClientCustomizer.class)
    @ConditionalOnBooleanProperty(name = "mero.spring-ai.default-tools", matchIfMissing = true)
    static class ChatClientDefaults {

        @Bean
        ChatClientCustomizer meroChatClientCustomizer(MeroToolCallbacks tools) {
            return builder -> builder.defaultToolCallbacks(tools);
        }
    }
}
