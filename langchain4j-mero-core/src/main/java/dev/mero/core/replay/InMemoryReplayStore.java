package dev.mero.core.replay;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The default {@link ReplayStore}: call ids and results in this JVM's memory, so repeats are recognised
 * within one application instance only. At most {@linkplain #create(int) maxEntries} ids are remembered,
 * the oldest being forgotten first, so memory stays bounded. Thread-safe.
 */
public final class InMemoryReplayStore implements ReplayStore {

    /** Default bound on remembered call ids. */
    public static final int DEFAULT_MAX_ENTRIES = 10_000;

    private final Map<String, CompletableFuture<String>> calls;
    private final int maxEntries;

    private InMemoryReplayStore(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be at least 1, was " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.calls = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, CompletableFuture<String>> eldest) {
                return size() > InMemoryReplayStore.this.maxEntries;
            }
        };
    }

    /**
     * A store remembering up to {@value #DEFAULT_MAX_ENTRIES} ids.
     *
     * @return the store
     */
    public static InMemoryReplayStore create() {
        return create(DEFAULT_MAX_ENTRIES);
    }

    /**
     * A store remembering up to {@code maxEntries} ids.
     *
     * @param maxEntries at least 1
     * @return the store
     */
    public static InMemoryReplayStore create(int maxEntries) {
        return new InMemoryReplayStore(maxEntries);
    }

    @Override
    public ReplayClaim claim(String scope, String callId, Duration wait) {
        Objects.requireNonNull(wait, "wait");
        String key = key(scope, callId);
        CompletableFuture<String> mine = new CompletableFuture<>();
        CompletableFuture<String> first;
        synchronized (calls) {
            first = calls.putIfAbsent(key, mine);
        }
        if (first == null) {
            return ReplayClaim.owner();
        }
        try {
            return ReplayClaim.replay(first.get(Math.max(0, wait.toNanos()), TimeUnit.NANOSECONDS));
        } catch (TimeoutException | ExecutionException e) {
            throw ReplayStore.stillRunning(callId, wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ReplayStore.stillRunning(callId, wait);
        }
    }

    @Override
    public void complete(String scope, String callId, String result) {
        Objects.requireNonNull(result, "result");
        CompletableFuture<String> entry;
        synchronized (calls) {
            entry = calls.get(key(scope, callId));
        }
        if (entry != null) {
            entry.complete(result);
        }
    }

    @Override
    public String toString() {
        synchronized (calls) {
            return "InMemoryReplayStore{entries=" + calls.size() + ", maxEntries=" + maxEntries + "}";
        }
    }

    private static String key(String scope, String callId) {
        Objects.requireNonNull(scope, "scope");
        if (callId == null || callId.isBlank()) {
            throw new IllegalArgumentException("A replayed call needs a non-blank call id");
        }
        return scope + '\u0000' + callId;
    }
}
