/**
 * PostgreSQL implementations of the core's shared-state extension points, so that several application
 * instances share one policy state: {@link dev.mero.postgres.PostgresPolicyStore} hands out a rate-limit
 * store, a retry-budget store, pending approvals woken by {@code LISTEN/NOTIFY}, a replay store and an audit
 * sink, all on a {@link javax.sql.DataSource} the application supplies (or, for a policy file's
 * {@code store:} section, on a pool {@link dev.mero.postgres.PostgresPolicyStoreProvider} opens). The schema
 * comes from versioned SQL migrations applied only when asked. Every wait is bounded and every failure is
 * closed: {@link dev.mero.core.PolicyStoreUnavailableException}.
 */
package dev.mero.postgres;
