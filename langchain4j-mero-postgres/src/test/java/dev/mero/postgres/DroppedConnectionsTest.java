package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.PolicyStoreUnavailableException;
import dev.mero.core.RateLimitedException;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimiter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connections are killed by the server while instances race for permits and replays: whatever the
 * interleaving, no call passes that the bucket did not pay for, and no replayed call runs twice. A call
 * whose connection dropped fails closed; its permit may or may not have been taken, never taken twice.
 */
class DroppedConnectionsTest {

    private static HikariDataSource victims;
    private static HikariDataSource admin;
    private static PostgresPolicyStore store;

    @BeforeAll
    static void open() {
        String url = PostgresServer.shared().createDatabase();
        victims = PostgresServer.pool(url + "?ApplicationName=victim", 8);
        admin = PostgresServer.pool(url, 2);
        store = PostgresPolicyStore.builder().dataSource(victims).migrate(true).build();
    }

    @AfterAll
    static void close() {
        store.close();
        victims.close();
        admin.close();
    }

    @Test
    void killedConnectionsNeverLetMoreCallsThroughThanTheBucketHolds() throws Exception {
        RateLimit limit = RateLimit.perHour(40);
        RateLimiter limiter = RateLimiter.shared(limit, store.rateLimits(), "dropped");
        AtomicInteger allowed = new AtomicInteger();
        AtomicInteger failedClosed = new AtomicInteger();
        AtomicInteger sideEffects = new AtomicInteger();
        AtomicBoolean racing = new AtomicBoolean(true);
        long started = System.nanoTime();
        ExecutorService threads = Executors.newFixedThreadPool(9);
        try {
            Future<Integer> killer = threads.submit(() -> {
                int kills = 0;
                while (racing.get()) {
                    try (Connection connection = admin.getConnection(); Statement kill = connection.createStatement()) {
                        kill.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                                + " WHERE application_name = 'victim'");
                        kills++;
                    }
                }
                return kills;
            });
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 160; i++) {
                String callId = "dropped_" + (i % 8);
                int n = i;
                calls.add(threads.submit(() -> {
                    go.await();
                    try {
                        if (n % 2 == 0) {
                            limiter.acquire("dropped");
                            allowed.incrementAndGet();
                        } else {
                            store.replays().runOnce("dropped", callId, java.time.Duration.ofSeconds(2),
                                    () -> "run " + sideEffects.incrementAndGet());
                        }
                    } catch (RateLimitedException limited) {
                        // the bucket is empty: refused as it should be
                    } catch (PolicyStoreUnavailableException | dev.mero.core.OperationFailedException dropped) {
                        failedClosed.incrementAndGet();
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> call : calls) {
                call.get(120, TimeUnit.SECONDS);
            }
            racing.set(false);
            killer.get(60, TimeUnit.SECONDS);
        } finally {
            racing.set(false);
            threads.shutdownNow();
        }
        int left = SharedStoresTest.awaitValue(() -> {
            try {
                return limiter.availablePermits();
            } catch (PolicyStoreUnavailableException stillReconnecting) {
                return null;
            }
        });
        // 40 per hour: one permit flows back every 90 seconds the test runs
        int refilled = (int) (TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started) / 90);
        assertThat(allowed.get() + left).as("permits granted plus permits left").isLessThanOrEqualTo(40 + refilled);
        assertThat(sideEffects.get()).as("each of the 8 call ids ran at most once").isLessThanOrEqualTo(8);
    }
}
