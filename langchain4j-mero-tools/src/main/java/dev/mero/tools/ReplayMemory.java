package dev.mero.tools;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Remembers the result of each tool call by its id, so that a replayed call (same id, same tool and arguments)
 * returns the first result without running its side effect again; a concurrent replay waits for the first run.
 * An id that comes back with another tool or other arguments names a new call, which runs and replaces the
 * old one. Bounded: the oldest ids
 * are forgotten first. A call that failed with a bug is forgotten, so it is not answered from memory.
 * Thread-safe.
 */
final class ReplayMemory {

    /** What a call produced: text and whether it is an error. */
    static final class Result {
        final String text;
        final boolean error;

        Result(String text, boolean error) {
            this.text = text;
            this.error = error;
        }
    }

    private static final class Slot {
        final String fingerprint;
        final CompletableFuture<Result> result = new CompletableFuture<>();

        Slot(String fingerprint) {
            this.fingerprint = fingerprint;
        }
    }

    private final int capacity;
    private final Map<String, Slot> slots = new LinkedHashMap<>();

    ReplayMemory(int capacity) {
        this.capacity = capacity;
    }

    /**
     * Runs a call once per key.
     *
     * @param key         the call's id (with its conversation)
     * @param fingerprint the tool and arguments; a replay repeats them exactly
     * @param call        runs the call
     * @return the first result for this key
     */
    Result run(String key, String fingerprint, Supplier<Result> call) {
        Slot mine = new Slot(fingerprint);
        Slot existing;
        synchronized (slots) {
            existing = slots.get(key);
            if (existing != null && !existing.fingerprint.equals(fingerprint)) {
                // the id now names another call (a client that reuses ids): run it and remember it instead
                slots.remove(key);
                existing = null;
            }
            if (existing == null) {
                slots.put(key, mine);
                if (slots.size() > capacity) {
                    Iterator<String> oldest = slots.keySet().iterator();
                    oldest.next();
                    oldest.remove();
                }
            }
        }
        if (existing != null) {
            try {
                return existing.result.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException runtime) {
                    throw runtime;
                }
                throw e;
            }
        }
        try {
            Result result = call.get();
            mine.result.complete(result);
            return result;
        } catch (RuntimeException | Error e) {
            synchronized (slots) {
                slots.remove(key, mine);
            }
            mine.result.completeExceptionally(e);
            throw e;
        }
    }

    /**
     * How many results are remembered.
     *
     * @return the count
     */
    int size() {
        synchronized (slots) {
            return slots.size();
        }
    }
}
