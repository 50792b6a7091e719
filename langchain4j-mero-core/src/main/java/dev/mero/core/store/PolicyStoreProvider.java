package dev.mero.core.store;

/**
 * Opens a {@link PolicyStore} for a policy file's {@code store:} section. Providers are found with
 * {@link java.util.ServiceLoader} (list the implementation in
 * {@code META-INF/services/dev.mero.core.store.PolicyStoreProvider}); the first that
 * {@linkplain #supports(PolicyStoreSettings) supports} the settings opens the store. A policy that names a
 * store no provider supports is refused, never silently run on in-memory state.
 */
public interface PolicyStoreProvider {

    /**
     * Whether this provider can open a store for these settings, usually judged by the URL's prefix (for
     * example {@code jdbc:postgresql:}).
     *
     * @param settings the settings
     * @return {@code true} if {@link #open(PolicyStoreSettings)} applies
     */
    boolean supports(PolicyStoreSettings settings);

    /**
     * Opens (or reuses) the store the settings name. A provider may hand the same store to several
     * policies naming the same place.
     *
     * @param settings the settings
     * @return the store
     * @throws IllegalArgumentException if the settings cannot be used (the policy loader names the field)
     * @throws IllegalStateException    if the store cannot be used as it is, e.g. its schema is of another
     *                                  version (the policy loader names the field too)
     * @throws dev.mero.core.PolicyStoreUnavailableException if the store cannot be reached or migrated
     */
    PolicyStore open(PolicyStoreSettings settings);
}
