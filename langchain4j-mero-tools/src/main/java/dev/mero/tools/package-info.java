/**
 * The LangChain4j binding of the mero security core: {@code @Tool} classes whose every call is decided by
 * a {@link dev.mero.core.SecurityContext}, and the error handler that shows the model the decision.
 */
package dev.mero.tools;
