package dev.mero.core.policy;

import dev.mero.core.InvalidPolicyException;
import dev.mero.core.message.Messages;

import dev.mero.core.store.PolicyStore;
import dev.mero.core.store.PolicyStoreProvider;
import dev.mero.core.store.PolicyStoreSettings;

import java.util.ServiceLoader;
import java.util.function.UnaryOperator;

/**
 * Reads a policy file's {@code store:} section and opens the shared store it names through the first
 * {@link PolicyStoreProvider} on the class path that supports it. A named store that no provider supports,
 * a password written inline, or an unset password variable fails the policy: a file that asks for shared
 * state never runs on per-instance memory.
 */
final class StoreSection {

    private StoreSection() {
    }

    static PolicyStore open(PolicyNode store, UnaryOperator<String> environment) {
        store.object("url", "user", "password_env", "migrate", "timeout");
        if (!store.has("url")) {
            throw store.get("url").fail("a store needs a 'url', e.g. jdbc:postgresql://db:5432/agents");
        }
        PolicyStoreSettings.Builder settings = PolicyStoreSettings.builder();
        SecurityPolicy.apply(store.get("url"), node -> settings.url(node.text()));
        if (store.has("user")) {
            settings.user(store.get("user").text());
        }
        if (store.has("password_env")) {
            PolicyNode variable = store.get("password_env");
            String name = variable.text();
            if (!name.matches("[A-Za-z_][A-Za-z0-9_]{0,127}")) {
                throw variable.fail(Messages.quote(name) + " is not an environment variable name");
            }
            String password = environment.apply(name);
            if (password == null || password.isEmpty()) {
                throw variable.fail("the environment variable " + Messages.quote(name) + " is not set");
            }
            settings.password(password);
        }
        if (store.has("migrate")) {
            settings.migrate(store.get("migrate").bool());
        }
        if (store.has("timeout")) {
            SecurityPolicy.apply(store.get("timeout"), node -> settings.timeout(node.duration()));
        }
        PolicyStoreSettings built = settings.build();
        for (PolicyStoreProvider provider : ServiceLoader.load(PolicyStoreProvider.class)) {
            if (provider.supports(built)) {
                try {
                    return provider.open(built);
                } catch (InvalidPolicyException e) {
                    throw e;
                } catch (IllegalArgumentException | IllegalStateException e) {
                    // settings the provider cannot use, or a database whose schema it cannot work with
                    throw store.fail(e);
                }
            }
        }
        throw store.get("url").fail("no policy store provider on the class path supports this URL (for "
                + "jdbc:postgresql: add langchain4j-mero-postgres)");
    }
}
