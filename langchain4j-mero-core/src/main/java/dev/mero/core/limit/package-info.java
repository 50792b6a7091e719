/**
 * Limits on how often an agent may call: a per-context {@link dev.mero.core.limit.RateLimiter} (token bucket)
 * that refuses calls with {@link dev.mero.core.RateLimitedException} before they run, and a
 * {@link dev.mero.core.limit.RetryBudget} that ends a loop of identical failing calls with a final
 * {@link dev.mero.core.RetryBudgetExceededException}. Both take a {@link dev.mero.core.limit.Ticker} so that
 * tests control time.
 */
package dev.mero.core.limit;
