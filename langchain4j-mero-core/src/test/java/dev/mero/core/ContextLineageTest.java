package dev.mero.core;

import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimitStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A context's lineage keys its shared state: narrowed contexts of one bare name under different parents, and
 * a context whose own name spells another's lineage, never share a bucket.
 */
class ContextLineageTest {

    /** Records the bucket of every permit asked for, and grants it. */
    private static final class RecordingStore implements RateLimitStore {
        final List<String> buckets = new ArrayList<>();

        @Override
        public synchronized long tryTake(String bucket, RateLimit limit) {
            buckets.add(bucket);
            return 0;
        }

        @Override
        public int availablePermits(String bucket, RateLimit limit) {
            return limit.burst();
        }
    }

    @Test
    void aContextBuiltDirectlyHasItsNameAsLineageWithSeparatorsEscaped() {
        assertThat(SecurityContext.builder().name("support_agent").build().lineage()).isEqualTo("support_agent");
        assertThat(SecurityContext.builder().name("a/b%c").build().lineage()).isEqualTo("a%2Fb%25c");
        assertThat(SecurityContext.builder().build().lineage()).isEqualTo("default");
    }

    @Test
    void aNarrowedContextIsKeyedByEveryNameFromTheRoot() {
        SecurityContext root = SecurityContext.builder().name("team/a").build();
        SecurityContext child = root.narrow("worker").build();
        SecurityContext grandchild = child.narrow("helper%1").build();
        assertThat(child.name()).isEqualTo("worker");
        assertThat(child.lineage()).isEqualTo("team%2Fa/worker");
        assertThat(grandchild.lineage()).isEqualTo("team%2Fa/worker/helper%251");
        assertThat(SecurityContext.builder().name("team%2Fa/worker").build().lineage())
                .as("a name spelling the lineage").isNotEqualTo(child.lineage());
    }

    @Test
    void sharedRateLimitBucketsAreNamedByLineage() throws Exception {
        RecordingStore store = new RecordingStore();
        RateLimit limit = RateLimit.perMinute(10);
        SecurityContext parentA = SecurityContext.builder().name("team_a").rateLimit(limit).rateLimitStore(store)
                .build();
        SecurityContext parentB = SecurityContext.builder().name("team_b").rateLimit(limit).rateLimitStore(store)
                .build();
        SecurityContext workerA = parentA.narrow("worker").rateLimit(RateLimit.perMinute(1)).build();
        SecurityContext workerB = parentB.narrow("worker").rateLimit(RateLimit.perMinute(1)).build();
        workerA.rateLimiter().orElseThrow().acquire("worker");
        workerB.rateLimiter().orElseThrow().acquire("worker");
        parentA.rateLimiter().orElseThrow().acquire("team_a");
        assertThat(store.buckets).containsExactly("team_a/worker", "team_b/worker", "team_a");
    }
}
