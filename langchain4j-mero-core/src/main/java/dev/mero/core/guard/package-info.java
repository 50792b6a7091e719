/**
 * The guard: {@link dev.mero.core.guard.Operation} names what an action does (its scope and permissions), and
 * {@link dev.mero.core.guard.ActionGuard} runs every guarded action through scope, rate limit, the security
 * checks, the retry budget, approval and one audit record, in that order. Applications call
 * {@link dev.mero.core.SecurityContext#guard}; {@code ActionGuard} is public only for that facade.
 */
package dev.mero.core.guard;
