/**
 * Scopes: {@code namespace:resource:action} grants a context holds and the scope each operation requires.
 *
 * <p>{@link dev.mero.core.scope.Scope} parses and validates one scope, {@link dev.mero.core.scope.ScopeSet}
 * holds a context's grants and throws {@link dev.mero.core.ScopeDeniedException} for a missing one,
 * {@link dev.mero.core.scope.Scopes#matches} is the one-call check, and {@link dev.mero.core.guard.Operation}
 * is the table of required scopes.
 */
package dev.mero.core.scope;
