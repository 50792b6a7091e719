package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
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

    /**
     * Runs the calls on 8 threads, all released at once, and counts those that returned true.
     *
     * @param calls how many calls
     * @param call  the call of each index
     * @return how many returned true
     */
    static int race(int calls, IntFunction<Callable<Boolean>> call) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                Callable<Boolean> each = call.apply(i);
                results.add(threads.submit(() -> {
                    start.await();
                    return each.call();
                }));
            }
            start.countDown();
            int passed = 0;
            for (Future<Boolean> result : results) {
                passed += result.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            return passed;
        } finally {
            threads.shutdownNow();
        }
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
