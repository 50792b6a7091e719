package dev.mero.core.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link BoundedOpen#aside}: work runs on a thread of its own whose opens run inline, and the caller keeps each
 * open's bound: it releases an open that waits, and once it stops waiting the work's opens fail. The opens here
 * block on latches, not FIFOs ({@code FifoSwapRaceTest} blocks them in the kernel), so each test takes at most one
 * release delay.
 */
class BoundedOpenAsideTest {

    private static final Duration BOUND = Duration.ofSeconds(30);

    /** A closeable that records its close. */
    private static final class Kept implements Closeable {
        final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public void close() {
            closed.countDown();
        }
    }

    @Test
    void workRunsOnAnotherThreadWhoseOpensRunInline() throws Exception {
        AtomicReference<Thread> workedOn = new AtomicReference<>();
        AtomicReference<Thread> openedOn = new AtomicReference<>();
        AtomicReference<Thread> caller = new AtomicReference<>();
        Kept kept = new Kept();

        String result = assertTimeoutPreemptively(BOUND, () -> {
            caller.set(Thread.currentThread());
            return BoundedOpen.aside(() -> {
                workedOn.set(Thread.currentThread());
                BoundedOpen.open(() -> {
                    openedOn.set(Thread.currentThread());
                    return () -> { };
                }, kept, () -> { });
                return "done";
            });
        });

        assertThat(result).isEqualTo("done");
        assertThat(workedOn.get()).isNotNull().isNotSameAs(caller.get());
        assertThat(openedOn.get()).isSameAs(workedOn.get());
        assertThat(kept.closed.getCount()).isZero();
    }

    @Test
    void anOpenThatWaitsIsReleasedOnceByTheCallerAndTheWorkGoesOn() throws Exception {
        CountDownLatch released = new CountDownLatch(1);
        AtomicInteger releases = new AtomicInteger();
        AtomicReference<Thread> releasedOn = new AtomicReference<>();
        AtomicReference<Thread> caller = new AtomicReference<>();

        String result = assertTimeoutPreemptively(BOUND, () -> {
            caller.set(Thread.currentThread());
            return BoundedOpen.aside(() -> {
                BoundedOpen.open(() -> {
                    try {
                        // the release comes only from the caller's watch: nothing else counts this latch down
                        if (!released.await(20, TimeUnit.SECONDS)) {
                            throw new IOException("never released");
                        }
                    } catch (InterruptedException e) {
                        throw new InterruptedIOException();
                    }
                    return () -> { };
                }, new Kept(), () -> {
                    releases.incrementAndGet();
                    releasedOn.set(Thread.currentThread());
                    released.countDown();
                });
                return "after the open";
            });
        });

        assertThat(result).isEqualTo("after the open");
        assertThat(releases).hasValue(1);
        assertThat(releasedOn.get()).isNotNull().isSameAs(caller.get());
    }

    @Test
    void whatTheWorkFailsWithReachesTheCallerAsItself() {
        IOException io = new FileSystemException("x");
        IllegalStateException runtime = new IllegalStateException("y");

        assertThatThrownBy(() -> BoundedOpen.aside(() -> {
            throw io;
        })).isSameAs(io);
        assertThatThrownBy(() -> BoundedOpen.aside(() -> {
            throw runtime;
        })).isSameAs(runtime);
    }

    @Test
    void workAsideOfABoundedThreadRunsOnThatThread() throws Exception {
        CompletableFuture<Thread> workedOn = new CompletableFuture<>();
        Thread bounded = BoundedOpen.boundedThread(() -> {
            try {
                workedOn.complete(BoundedOpen.aside(Thread::currentThread));
            } catch (IOException | RuntimeException e) {
                workedOn.completeExceptionally(e);
            }
        }, "bounded");
        bounded.start();

        assertThat(workedOn.get(20, TimeUnit.SECONDS)).isSameAs(bounded);
    }

    @Test
    void anInterruptedCallerStopsWaitingAndTheWorkOpensNothingMore() throws Exception {
        CountDownLatch opening = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        Kept kept = new Kept();
        CompletableFuture<Throwable> given = new CompletableFuture<>();
        CompletableFuture<Throwable> next = new CompletableFuture<>();
        CompletableFuture<Throwable> caller = new CompletableFuture<>();
        Kept first = new Kept();

        Thread waiting = new Thread(() -> {
            try {
                BoundedOpen.aside(() -> {
                    try {
                        BoundedOpen.open(() -> {
                            opening.countDown();
                            awaitQuietly(letGo);
                            return first;
                        }, kept, () -> { });
                        given.complete(null);
                    } catch (IOException e) {
                        given.complete(e);
                    }
                    try {
                        BoundedOpen.open(() -> () -> { }, new Kept(), () -> { });
                        next.complete(null);
                    } catch (IOException e) {
                        next.complete(e);
                    }
                    return null;
                });
                caller.complete(null);
            } catch (IOException | RuntimeException e) {
                caller.complete(Thread.currentThread().isInterrupted() ? e : new AssertionError("interrupt lost"));
            }
        });
        waiting.start();
        assertThat(opening.await(20, TimeUnit.SECONDS)).isTrue();

        waiting.interrupt();

        assertThat(caller.get(20, TimeUnit.SECONDS)).isInstanceOf(InterruptedIOException.class);
        letGo.countDown();
        // the open the caller gave up on returns: it fails and what it opened is closed; the work's next open fails
        assertThat(given.get(20, TimeUnit.SECONDS)).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("it did not open within");
        assertThat(next.get(20, TimeUnit.SECONDS)).isInstanceOf(FileSystemException.class)
                .hasMessageContaining("it did not open within");
        assertThat(first.closed.getCount()).isZero();
        assertThat(kept.closed.getCount()).isZero();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(20, TimeUnit.SECONDS)) {
                throw new UncheckedIOException(new IOException("not let go"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
