package dev.mero.core.limit;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves by hand; starts at an arbitrary non-zero reading, as System.nanoTime may. */
final class FakeTicker implements Ticker {

    private final AtomicLong now = new AtomicLong(-7_000_000_000L);

    @Override
    public long nanos() {
        return now.get();
    }

    void advance(Duration duration) {
        now.addAndGet(duration.toNanos());
    }

    void advanceNanos(long nanos) {
        now.addAndGet(nanos);
    }
}
