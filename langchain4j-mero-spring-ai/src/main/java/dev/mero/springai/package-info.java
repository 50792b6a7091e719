/**
 * The Spring AI binding of the mero security core: every tool of the core's catalogue as a Spring AI
 * {@link org.springframework.ai.tool.ToolCallback}, decided by a {@link dev.mero.core.SecurityContext}.
 * Start from {@link dev.mero.springai.MeroToolCallbacks#forContext(dev.mero.core.SecurityContext)}. A call's
 * {@code ToolContext} entries {@code mero.caller} and {@code mero.scopes} narrow it to that caller, and
 * {@link dev.mero.springai.MeroToolCallbacks#toolCallingManager()} answers a tool the model was not given with
 * a refusal instead of failing the request.
 */
package dev.mero.springai;
