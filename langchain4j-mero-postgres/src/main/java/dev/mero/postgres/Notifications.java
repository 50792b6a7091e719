package dev.mero.postgres;

import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * One connection that {@code LISTEN}s on the store's channels and wakes the local threads waiting for a
 * row to change (an approval decided, a replayed call completed). A wake-up only tells a waiter to look
 * again: waiters re-read the row, and also look every poll interval, so a notification lost while the
 * connection was down delays a waiter by at most one interval and never changes an outcome. When the
 * connection breaks, the listener wakes every waiter and connects again. Thread-safe.
 */
final class Notifications implements AutoCloseable {

    static final String APPROVAL_DECIDED = "mero_approval_decided";
    static final String REPLAY_COMPLETED = "mero_replay_completed";

    private static final Logger LOG = LoggerFactory.getLogger(Notifications.class);
    private static final int RECEIVE_MILLIS = 250;
    private static final long RECONNECT_MILLIS = 1_000;
    private static final long CLOSE_MILLIS = 5_000;

    private final DataSource dataSource;
    private final Map<String, Set<CompletableFuture<Void>>> waiters = new ConcurrentHashMap<>();
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Object startLock = new Object();
    private Thread thread;

    Notifications(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * Registers interest in one notification; register before reading the row, so that a change committed
     * after the read is not missed.
     */
    CompletableFuture<Void> subscribe(String channel, String payload) {
        start();
        CompletableFuture<Void> wake = new CompletableFuture<>();
        waiters.compute(key(channel, payload), (key, set) -> {
            Set<CompletableFuture<Void>> updated = set == null ? new HashSet<>() : set;
            updated.add(wake);
            return updated;
        });
        return wake;
    }

    /**
     * Looks for a row's change until {@code look} finds it or the deadline passes: looks once, then again
     * after every wake-up and at least every poll interval.
     *
     * @return what {@code look} found, or {@code null} at the deadline
     * @throws InterruptedException if the waiting thread is interrupted
     */
    <T> T await(String channel, String id, long deadlineNanos, long pollNanos, Supplier<T> look)
            throws InterruptedException {
        while (true) {
            CompletableFuture<Void> wake = subscribe(channel, id);
            try {
                T found = look.get();
                long remaining = deadlineNanos - System.nanoTime();
                if (found != null || remaining <= 0) {
                    return found;
                }
                try {
                    wake.get(Math.min(remaining, pollNanos), TimeUnit.NANOSECONDS);
                } catch (TimeoutException | ExecutionException pollAgain) {
                    // no notification within the poll interval: look at the row anyway
                }
            } finally {
                unsubscribe(channel, id, wake);
            }
        }
    }

    void unsubscribe(String channel, String payload, CompletableFuture<Void> wake) {
        waiters.computeIfPresent(key(channel, payload), (key, set) -> {
            set.remove(wake);
            return set.isEmpty() ? null : set;
        });
    }

    /** Stops listening: wakes every waiter and waits (briefly) for the listener to return its connection. */
    @Override
    public void close() {
        closed.countDown();
        wakeAll();
        Thread listener;
        synchronized (startLock) {
            listener = thread;
        }
        if (listener != null && listener != Thread.currentThread()) {
            try {
                listener.join(CLOSE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void start() {
        synchronized (startLock) {
            if (thread == null && closed.getCount() > 0) {
                thread = new Thread(this::listen, "mero-postgres-listener");
                thread.setDaemon(true);
                thread.start();
            }
        }
    }

    private void listen() {
        while (closed.getCount() > 0) {
            try (Connection connection = dataSource.getConnection()) {
                connection.setAutoCommit(true);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("LISTEN " + APPROVAL_DECIDED);
                    statement.execute("LISTEN " + REPLAY_COMPLETED);
                }
                wakeAll(); // whatever happened while nobody listened is looked at again
                PGConnection postgres = connection.unwrap(PGConnection.class);
                while (closed.getCount() > 0) {
                    PGNotification[] received = postgres.getNotifications(RECEIVE_MILLIS);
                    if (received != null) {
                        for (PGNotification notification : received) {
                            wake(notification.getName(), notification.getParameter());
                        }
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (closed.getCount() == 0) {
                    return;
                }
                LOG.warn("Policy store listener lost its connection; waiters fall back to polling until it is back",
                        e);
                wakeAll();
                pause();
            }
        }
    }

    private void pause() {
        try {
            closed.await(RECONNECT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed.countDown();
        }
    }

    private void wake(String channel, String payload) {
        Set<CompletableFuture<Void>> woken = waiters.remove(key(channel, payload));
        if (woken != null) {
            woken.forEach(wake -> wake.complete(null));
        }
    }

    private void wakeAll() {
        List<String> keys = new ArrayList<>(waiters.keySet());
        for (String key : keys) {
            Set<CompletableFuture<Void>> woken = waiters.remove(key);
            if (woken != null) {
                woken.forEach(wake -> wake.complete(null));
            }
        }
    }

    private static String key(String channel, String payload) {
        // the triggers send at most 1000 characters of the id
        String id = payload.length() > 1000 ? payload.substring(0, 1000) : payload;
        return channel + '\u0000' + id;
    }
}
