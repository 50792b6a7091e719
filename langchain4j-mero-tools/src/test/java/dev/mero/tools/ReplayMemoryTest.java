package dev.mero.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReplayMemoryTest {

    private final ReplayMemory memory = new ReplayMemory(2);
    private final AtomicInteger runs = new AtomicInteger();

    private ReplayMemory.Result run(String text) {
        runs.incrementAndGet();
        return new ReplayMemory.Result(text, false);
    }

    @Test
    void aReplayReturnsTheFirstResultWithoutRunning() {
        assertThat(memory.run("a", "f", () -> run("first")).text).isEqualTo("first");
        assertThat(memory.run("a", "f", () -> run("second")).text).isEqualTo("first");
        assertThat(runs).hasValue(1);
    }

    @Test
    void anIdReusedForAnotherCallRunsThatCall() {
        memory.run("a", "f", () -> run("first"));
        assertThat(memory.run("a", "other", () -> run("x")).text).isEqualTo("x");
        assertThat(memory.run("a", "other", () -> run("y")).text).isEqualTo("x");
        assertThat(runs).hasValue(2);
    }

    @Test
    void memoryIsBoundedOldestFirst() {
        memory.run("a", "f", () -> run("a"));
        memory.run("b", "f", () -> run("b"));
        memory.run("c", "f", () -> run("c"));
        assertThat(memory.size()).isEqualTo(2);
        assertThat(memory.run("a", "f", () -> run("a again")).text).isEqualTo("a again");
        assertThat(memory.run("c", "f", () -> run("c again")).text).isEqualTo("c");
    }

    @Test
    void aBugIsNotRemembered() {
        assertThatThrownBy(() -> memory.run("a", "f", () -> {
            throw new IllegalStateException("bug");
        })).isInstanceOf(IllegalStateException.class);
        assertThat(memory.run("a", "f", () -> run("ran")).text).isEqualTo("ran");
    }

    @Test
    void aConcurrentReplayWaitsForTheFirstRun() throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> memory.run("a", "f", () -> {
            inside.countDown();
            try {
                assertThat(release.await(10, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return run("first");
        }).text);
        assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<String> replay = CompletableFuture.supplyAsync(() -> memory.run("a", "f",
                () -> run("second")).text);
        release.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(replay.get(10, TimeUnit.SECONDS)).isEqualTo("first");
        assertThat(runs).hasValue(1);
    }
}
