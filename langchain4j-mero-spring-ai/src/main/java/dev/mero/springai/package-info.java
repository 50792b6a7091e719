/**
 * The Spring AI binding of the mero security core: every tool of the core's catalogue as a Spring AI
 * {@link org.springframework.ai.tool.ToolCallback}, decided by a {@link dev.mero.core.SecurityContext}.
 * Start from {@link dev.mero.springai.MeroToolCallbacks#forContext(dev.mero.core.SecurityContext)}.
 */
package dev.mero.springai;
