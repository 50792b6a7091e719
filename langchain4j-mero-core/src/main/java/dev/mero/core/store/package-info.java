/**
 * Shared policy stores: a {@link dev.mero.core.store.PolicyStore} bundles the rate-limit, retry-budget,
 * approval, replay and audit stores that several application instances share, and a
 * {@link dev.mero.core.store.PolicyStoreProvider}, found with {@link java.util.ServiceLoader}, opens one from
 * the {@code store:} section of a policy file ({@link dev.mero.core.store.PolicyStoreSettings}). The core
 * holds only these interfaces; the {@code langchain4j-mero-postgres} module provides a PostgreSQL store.
 */
package dev.mero.core.store;
