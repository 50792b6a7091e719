package dev.mero.springboot;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code mero.*} properties of the Spring Boot starter.
 *
 * <pre>
 * mero.policy=classpath:policy.yaml
 * </pre>
 */
@ConfigurationProperties(prefix = "mero")
public class MeroProperties {

    /**
     * The policy file the SecurityContext is read from: a file path (relative to the working directory),
     * "file:..." or "classpath:..." (a class path resource must be a file on disk, not an entry in a jar, because
     * the policy's relative directories resolve against the file's own directory). Without it, the starter
     * configures nothing.
     */
    private String policy;

    /**
     * Whether tool results put untrusted content (file text, file names, command output, search matches)
     * between data markers that tell the model it is data, not instructions.
     */
    private boolean wrapUntrusted = true;

    /** Spring AI settings. */
    private final SpringAi springAi = new SpringAi();

    /** Metrics settings. */
    private final Metrics metrics = new Metrics();

    /**
     * The policy file location.
     *
     * @return the location, or {@code null} when unset
     */
    public String getPolicy() {
        return policy;
    }

    /**
     * Sets the policy file location.
     *
     * @param policy a file path, {@code file:...} or {@code classpath:...}
     */
    public void setPolicy(String policy) {
        this.policy = policy;
    }

    /**
     * Whether untrusted content is marked as data.
     *
     * @return {@code true} by default
     */
    public boolean isWrapUntrusted() {
        return wrapUntrusted;
    }

    /**
     * Sets whether untrusted content is marked as data.
     *
     * @param wrapUntrusted {@code false} for plain results
     */
    public void setWrapUntrusted(boolean wrapUntrusted) {
        this.wrapUntrusted = wrapUntrusted;
    }

    /**
     * The Spring AI settings.
     *
     * @return the settings
     */
    public SpringAi getSpringAi() {
        return springAi;
    }

    /**
     * The metrics settings.
     *
     * @return the settings
     */
    public Metrics getMetrics() {
        return metrics;
    }

    /** The {@code mero.spring-ai.*} properties. */
    public static class SpringAi {

        /**
         * Whether every ChatClient.Builder that Spring AI auto-configures gets the tools as default tool
         * callbacks; when false, pass the ToolCallbackProvider bean to the ChatClient yourself.
         */
        private boolean defaultTools = true;

        /**
         * Whether auto-configured chat clients get the tools.
         *
         * @return {@code true} by default
         */
        public boolean isDefaultTools() {
            return defaultTools;
        }

        /**
         * Sets whether auto-configured chat clients get the tools.
         *
         * @param defaultTools {@code false} to add them by hand
         */
        public void setDefaultTools(boolean defaultTools) {
            this.defaultTools = defaultTools;
        }
    }

    /** The {@code mero.metrics.*} properties. */
    public static class Metrics {

        /**
         * Whether tool calls, decisions, approvals and command runs are counted in Micrometer (mero.tool.calls,
         * mero.decisions, mero.approvals, mero.sandbox.runs) when a MeterRegistry is present.
         */
        private boolean enabled = true;

        /**
         * Whether metrics are recorded.
         *
         * @return {@code true} by default
         */
        public boolean isEnabled() {
            return enabled;
        }

        /**
         * Sets whether metrics are recorded.
         *
         * @param enabled {@code false} to record none
         */
        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }
}
