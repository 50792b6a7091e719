package dev.mero.core.store;

import dev.mero.core.approval.ApprovalStore;
import dev.mero.core.approval.PendingApprovals;
import dev.mero.core.audit.AuditEvent;
import dev.mero.core.audit.AuditSink;
import dev.mero.core.limit.CallKey;
import dev.mero.core.limit.RateLimit;
import dev.mero.core.limit.RateLimitStore;
import dev.mero.core.limit.RetryBudgetStore;
import dev.mero.core.replay.InMemoryReplayStore;
import dev.mero.core.replay.ReplayStore;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A provider for {@code jdbc:test:} URLs, registered for the core's tests through
 * {@code META-INF/services}: its stores keep their state in memory and remember what they were asked, so
 * that the tests can see which store a policy file wired where.
 */
public final class TestPolicyStoreProvider implements PolicyStoreProvider {

    static final Map<String, TestStore> OPENED = new ConcurrentHashMap<>();

    /** Creates the provider; the service loader calls this. */
    public TestPolicyStoreProvider() {
    }

    @Override
    public boolean supports(PolicyStoreSettings settings) {
        return settings.url().startsWith("jdbc:test:");
    }

    @Override
    public PolicyStore open(PolicyStoreSettings settings) {
        if (settings.url().equals("jdbc:test:refused")) {
            throw new IllegalArgumentException("this test store refuses the settings");
        }
        if (settings.url().equals("jdbc:test:old-schema")) {
            throw new IllegalStateException("the store's schema is at version 0 but this library needs version 1");
        }
        return OPENED.computeIfAbsent(settings.url(), url -> new TestStore(settings));
    }

    /** In-memory stores that record what they were asked. */
    static final class TestStore implements PolicyStore, RateLimitStore, RetryBudgetStore, AuditSink {

        final PolicyStoreSettings settings;
        final List<String> buckets = new CopyOnWriteArrayList<>();
        final List<String> budgetScopes = new CopyOnWriteArrayList<>();
        final List<AuditEvent> events = new CopyOnWriteArrayList<>();
        final Map<String, Integer> failures = new ConcurrentHashMap<>();
        final InMemoryReplayStore replays = InMemoryReplayStore.create();
        Duration approvalTimeout;
        String approvalQueue;

        TestStore(PolicyStoreSettings settings) {
            this.settings = settings;
        }

        @Override
        public RateLimitStore rateLimits() {
            return this;
        }

        @Override
        public RetryBudgetStore retryBudgets() {
            return this;
        }

        @Override
        public ApprovalStore approvals(Duration timeout) {
            approvalTimeout = timeout;
            return PendingApprovals.builder().timeout(timeout).build();
        }

        @Override
        public ApprovalStore approvals(Duration timeout, String queue) {
            approvalQueue = queue;
            return PolicyStore.super.approvals(timeout, queue);
        }

        @Override
        public ReplayStore replays() {
            return replays;
        }

        @Override
        public AuditSink auditSink() {
            return this;
        }

        @Override
        public void close() {
        }

        @Override
        public long tryTake(String bucket, RateLimit limit) {
            buckets.add(bucket);
            return 0;
        }

        @Override
        public int availablePermits(String bucket, RateLimit limit) {
            return limit.burst();
        }

        @Override
        public int failures(String scope, CallKey key, Duration window) {
            budgetScopes.add(scope);
            return failures.getOrDefault(key.digest(), 0);
        }

        @Override
        public int recordFailure(String scope, CallKey key, Duration window, int maxFailures) {
            budgetScopes.add(scope);
            return failures.merge(key.digest(), 1, Integer::sum);
        }

        @Override
        public void recordSuccess(String scope, CallKey key) {
            failures.remove(key.digest());
        }

        @Override
        public void write(AuditEvent event) {
            events.add(event);
        }
    }
}
