package dev.mero.postgres;

import com.zaxxer.hikari.HikariDataSource;
import dev.mero.core.PathEntry;
import dev.mero.core.Permission;
import dev.mero.core.RateLimitedException;
import dev.mero.core.SecurityContext;
import dev.mero.core.guard.Operation;
import dev.mero.core.limit.RateLimit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two application instances (two pools, two stores, one database) configured with different limits for one
 * context, as in a rolling deploy: they share one bucket, under the stricter limit while an instance with it
 * uses the bucket, and under the looser one once the stricter has not been used for the limit hold. Narrowed
 * contexts of the same bare name under different parents have buckets of their own.
 */
class OneBucketPerContextTest {

    private static final Duration HOLD = Duration.ofMillis(300);

    private static HikariDataSource poolA;
    private static HikariDataSource poolB;
    private static PostgresPolicyStore storeA;
    private static PostgresPolicyStore storeB;

    @TempDir
    static Path workspace;

    @BeforeAll
    static void twoInstances() throws Exception {
        String url = PostgresServer.shared().createDatabase();
        poolA = PostgresServer.pool(url, 6);
        poolB = PostgresServer.pool(url, 6);
        storeA = PostgresPolicyStore.builder().dataSource(poolA).migrate(true).limitHold(HOLD).build();
        storeB = PostgresPolicyStore.builder().dataSource(poolB).limitHold(HOLD).build();
        Files.writeString(workspace.resolve("a.txt"), "a");
    }

    @AfterAll
    static void close() {
        storeA.close();
        storeB.close();
        poolA.close();
        poolB.close();
    }

    private static SecurityContext context(PostgresPolicyStore store, String name, RateLimit limit) {
        return SecurityContext.builder().name(name)
                .path(PathEntry.of(workspace.toString(), "ws", Permission.READ))
                .rateLimit(limit).rateLimitStore(store.rateLimits()).build();
    }

    private static boolean read(SecurityContext context) {
        try {
            context.guard(Operation.FILE_READ, "/ws/a.txt");
            return true;
        } catch (RateLimitedException limited) {
            return false;
        }
    }

    @Test
    void differentLimitsForOneContextRaceForOneBucketUnderTheStricterLimit() throws Exception {
        SecurityContext strict = context(storeA, "deploy_race", RateLimit.perHour(5));
        SecurityContext loose = context(storeB, "deploy_race", RateLimit.perHour(8));
        assertThat(strict.rateLimiter().orElseThrow().availablePermits()).isEqualTo(5); // the bucket knows it now
        assertThat(loose.rateLimiter().orElseThrow().availablePermits()).as("the stricter burst").isEqualTo(5);
        ExecutorService threads = Executors.newFixedThreadPool(6);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Boolean>> calls = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                SecurityContext context = i % 2 == 0 ? strict : loose;
                calls.add(threads.submit(() -> {
                    go.await();
                    return read(context);
                }));
            }
            go.countDown();
            int allowed = 0;
            for (Future<Boolean> call : calls) {
                allowed += call.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(allowed).as("one bucket of 5, not 5 + 8 in two buckets").isEqualTo(5);
        } finally {
            threads.shutdownNow();
        }
        assertThatThrownBy(() -> loose.guard(Operation.FILE_READ, "/ws/a.txt"))
                .isInstanceOf(RateLimitedException.class)
                .hasMessageContaining("8 calls per hour"); // each instance names its own configured limit
    }

    @Test
    void aStricterLimitAppliesAtOnceAndGivesWayOnlyAfterTheHold() throws Exception {
        // same rate, bursts 1 and 2: the smaller burst is the stricter limit
        SecurityContext strict = context(storeA, "deploy_hold", RateLimit.of(1, Duration.ofMinutes(30)));
        SecurityContext loose = context(storeB, "deploy_hold", RateLimit.of(2, Duration.ofHours(1)));
        assertThat(read(loose)).as("the looser instance alone: its own limit").isTrue();
        assertThat(read(strict)).as("the stricter window holds half an hour of calls, already used").isFalse();
        assertThat(read(loose)).as("the stricter limit is held for the looser instance too").isFalse();
        // once nobody configured with the stricter limit has used the bucket for the hold, the looser applies
        SharedStoresTest.awaitTrue(() -> loose.rateLimiter().orElseThrow().availablePermits() == 1);
        assertThat(read(loose)).isTrue();
        assertThat(read(loose)).isFalse();
    }

    @Test
    void narrowedContextsOfOneNameUnderDifferentParentsHaveBucketsOfTheirOwn() {
        RateLimit generous = RateLimit.perHour(100);
        SecurityContext teamA = context(storeA, "team_a", generous);
        SecurityContext teamB = context(storeB, "team_b", generous);
        SecurityContext workerOfA = teamA.narrow("worker").rateLimit(RateLimit.perHour(1)).build();
        SecurityContext workerOfB = teamB.narrow("worker").rateLimit(RateLimit.perHour(1)).build();
        assertThat(workerOfA.lineage()).isEqualTo("team_a/worker");
        assertThat(read(workerOfA)).isTrue();
        assertThat(read(workerOfA)).as("its own bucket is empty").isFalse();
        assertThat(read(workerOfB)).as("the same bare name under another parent: another bucket").isTrue();
        // a context built directly with a name that spells the child's lineage is yet another bucket
        SecurityContext lookAlike = context(storeB, "team_a/worker", RateLimit.perHour(1));
        assertThat(lookAlike.lineage()).isEqualTo("team_a%2Fworker");
        assertThat(read(lookAlike)).isTrue();
    }
}
