package dev.mero.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.store.PolicyStore;
import dev.mero.core.store.PolicyStoreProvider;
import dev.mero.core.store.PolicyStoreSettings;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens a {@link PostgresPolicyStore} for a policy file's {@code store:} section with a
 * {@code jdbc:postgresql:} URL, on a HikariCP pool whose every wait is bounded by the section's timeout
 * (connecting, logging in, waiting for a pooled connection, reading from the socket). Policies naming the
 * same store share one pool. Found by {@link java.util.ServiceLoader}; applications normally never call it.
 */
public final class PostgresPolicyStoreProvider implements PolicyStoreProvider {

    private static final String PREFIX = "jdbc:postgresql:";
    private static final int POOL_SIZE = 10;
    private static final Map<PolicyStoreSettings, PostgresPolicyStore> OPEN = new ConcurrentHashMap<>();

    /** Creates the provider; {@link java.util.ServiceLoader} calls this. */
    public PostgresPolicyStoreProvider() {
        // stateless: the open stores are shared by every instance of the provider
    }

    @Override
    public boolean supports(PolicyStoreSettings settings) {
        return settings.url().startsWith(PREFIX);
    }

    @Override
    public PolicyStore open(PolicyStoreSettings settings) {
        if (!supports(settings)) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL; it must start with " + PREFIX);
        }
        return OPEN.computeIfAbsent(settings, PostgresPolicyStoreProvider::create);
    }

    private static PostgresPolicyStore create(PolicyStoreSettings settings) {
        HikariDataSource pool = new HikariDataSource(config(settings));
        try {
            return PostgresPolicyStore.builder().dataSource(pool).timeout(settings.timeout())
                    .migrate(settings.migrate()).owned(pool).build();
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    static HikariConfig config(PolicyStoreSettings settings) {
        Duration timeout = settings.timeout();
        long seconds = Math.max(1, (timeout.toMillis() + 999) / 1000);
        HikariConfig config = new HikariConfig();
        config.setPoolName("mero-policy-store");
        config.setJdbcUrl(settings.url());
        settings.user().ifPresent(config::setUsername);
        settings.password().ifPresent(config::setPassword);
        config.setMaximumPoolSize(POOL_SIZE);
        config.setConnectionTimeout(Math.max(250, timeout.toMillis()));
        config.setValidationTimeout(Math.max(250, Math.min(timeout.toMillis(), config.getConnectionTimeout() - 1)));
        config.setInitializationFailTimeout(-1); // start without the database; calls fail closed until it is up
        config.addDataSourceProperty("connectTimeout", String.valueOf(seconds));
        config.addDataSourceProperty("loginTimeout", String.valueOf(seconds));
        // a statement is cancelled after `seconds`; the socket gives up a little later if even that is lost
        config.addDataSourceProperty("socketTimeout", String.valueOf(2 * seconds + 1));
        config.addDataSourceProperty("ApplicationName", "langchain4j-mero");
        return config;
    }
}
