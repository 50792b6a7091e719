package dev.mero.core.replay;

import dev.mero.core.OperationFailedException;
import dev.mero.core.PathAccessDeniedException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InMemoryReplayStoreTest {

    private final InMemoryReplayStore store = InMemoryReplayStore.create();

    @Test
    void racingRepeatsOfOneIdRunTheCallOnceAndAllGetItsResult() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                results.add(threads.submit(() -> {
                    go.await();
                    return store.runOnce("worker_1", "call_1", Duration.ofSeconds(30),
                            () -> "run " + runs.incrementAndGet());
                }));
            }
            go.countDown();
            for (Future<String> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo("run 1");
            }
            assertThat(runs).hasValue(1);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aFailedFirstRunIsReplayedAsTheTextTheModelSaw() {
        assertThatThrownBy(() -> store.runOnce("w", "c", Duration.ofSeconds(1), () -> {
            throw new PathAccessDeniedException("Path '/etc' is outside.");
        })).isInstanceOf(PathAccessDeniedException.class);

        assertThat(store.runOnce("w", "c", Duration.ofSeconds(1), () -> "ran again"))
                .isEqualTo("Denied: Path '/etc' is outside.");
    }

    @Test
    void aBugInTheFirstRunIsReplayedWithoutItsDetails() {
        assertThatThrownBy(() -> store.runOnce("w", "bug", Duration.ofSeconds(1), () -> {
            throw new IllegalStateException("secret internals");
        })).isInstanceOf(IllegalStateException.class);

        assertThat(store.runOnce("w", "bug", Duration.ofSeconds(1), () -> "ran again"))
                .startsWith("Error: ").doesNotContain("secret internals");
    }

    @Test
    void aRepeatOfAnUnfinishedRunFailsAfterItsWaitWithoutRunning() {
        assertThat(store.claim("w", "slow", Duration.ofSeconds(1)).isOwner()).isTrue();
        AtomicInteger runs = new AtomicInteger();

        assertThatThrownBy(() -> store.runOnce("w", "slow", Duration.ofMillis(50), () -> "run " + runs.incrementAndGet()))
                .isInstanceOf(OperationFailedException.class)
                .hasMessageContaining("Tool call 'slow' already started")
                .hasMessageContaining("not run again");
        assertThat(runs).hasValue(0);
    }

    @Test
    void idsArePerScopeAndMemoryIsBounded() {
        InMemoryReplayStore small = InMemoryReplayStore.create(2);
        assertThat(small.runOnce("a", "1", Duration.ofSeconds(1), () -> "a1")).isEqualTo("a1");
        assertThat(small.runOnce("b", "1", Duration.ofSeconds(1), () -> "b1")).isEqualTo("b1");
        assertThat(small.runOnce("a", "1", Duration.ofSeconds(1), () -> "again")).isEqualTo("a1");
        small.runOnce("c", "1", Duration.ofSeconds(1), () -> "c1"); // forgets the oldest id, a/1
        assertThat(small.runOnce("a", "1", Duration.ofSeconds(1), () -> "forgotten")).isEqualTo("forgotten");
        assertThat(small).hasToString("InMemoryReplayStore{entries=2, maxEntries=2}");
        assertThatThrownBy(() -> small.claim("a", " ", Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
