package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Two application instances on one fresh database of a private server: each its own pool and store (the
 * first one migrates). Closing closes the stores, the pools and the server, in that order.
 */
final class TwoInstances implements AutoCloseable {

    private final List<AutoCloseable> opened = new ArrayList<>();
    final PostgresPolicyStore a;
    final PostgresPolicyStore b;

    private TwoInstances(UnaryOperator<PostgresPolicyStore.Builder> first,
                         UnaryOperator<PostgresPolicyStore.Builder> second, int poolSize) throws Exception {
        PostgresServer server = PostgresServer.startNew();
        opened.add(server);
        String url = server.createDatabase();
        a = store(url, poolSize, builder -> first.apply(builder.migrate(true)));
        b = store(url, poolSize, second);
    }

    /**
     * Starts the server and both instances.
     *
     * @param first    settings of the first store (it migrates)
     * @param second   settings of the second store
     * @param poolSize connections per pool
     * @return the instances
     */
    static TwoInstances start(UnaryOperator<PostgresPolicyStore.Builder> first,
                              UnaryOperator<PostgresPolicyStore.Builder> second, int poolSize) throws Exception {
        return new TwoInstances(first, second, poolSize);
    }

    private PostgresPolicyStore store(String url, int poolSize, UnaryOperator<PostgresPolicyStore.Builder> settings) {
        HikariDataSource pool = PostgresServer.pool(url, poolSize);
        opened.add(0, pool);
        PostgresPolicyStore store = settings.apply(PostgresPolicyStore.builder().dataSource(pool)).build();
        opened.add(0, store);
        return store;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable each : opened) {
            each.close();
        }
    }
}
