/**
 * Spring Boot auto-configuration of langchain4j-mero: set {@code mero.policy} and the application gets a
 * {@link dev.mero.core.SecurityContext} from that policy file, the tools for Spring AI ({@code ToolCallbackProvider},
 * added to every auto-configured {@code ChatClient.Builder}) and for LangChain4j ({@code ToolProvider} and both
 * error handlers), Micrometer metrics, a health indicator and the {@code mero} actuator endpoint. Without
 * {@code mero.policy} nothing is configured.
 */
package dev.mero.springboot;
